/**
 * The webhook events (issue 34 item 1, docs/decisions/039) and what the screens and /api say
 * about them. Pure: the screen's checkboxes read it too.
 */
export const WEBHOOK_EVENTS = [
  "consignment.created",
  "consignment.despatched",
  "consignment.cancelled",
  "consignment.delivered",
  "tracking.updated",
  "enquiry.updated",
  "invoice.created",
  "reconciliation.disputed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

export const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "consignment.created": "A consignment was entered (not a quote). data: the consignment as GET /api/consignments/{id} gives it.",
  "consignment.despatched": "A consignment was despatched (its manifest was sent). data: the consignment.",
  "consignment.cancelled": "A consignment was cancelled. data: the consignment.",
  "consignment.delivered": "A consignment was delivered. data: { consignment_id, consignment_number, state, event, pod_url }: the delivery event and the proof of delivery link.",
  "tracking.updated": "A tracking event was stored for a consignment. data: { consignment_id, consignment_number, state, event }: the event as GET /api/track_trace/{id} lists it and the consignment's state after it.",
  "enquiry.updated": "An enquiry (ticket) was raised or commented on. data: the ticket as GET /api/tickets/{id} gives it.",
  "invoice.created": "A receivable invoice was created for the customer. data: the invoice as the receivable invoices list gives it.",
  "reconciliation.disputed": "A carrier invoice line of the customer's consignment was disputed. data: { reconciliation ids, consignment_id }.",
};

/** How long a delivery is retried before it is given up and its endpoint paused. */
export const RETRY_WINDOW_MS = 24 * 3_600_000;
