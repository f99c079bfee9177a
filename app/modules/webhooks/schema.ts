/**
 * What a webhook endpoint is made of (docs/decisions/039): the one schema /api/webhooks and the
 * /webhooks screen validate with, and their messages. Pure, so the screen may use it too.
 */
import { z } from "zod";
import { idSchema } from "../../utils/ids";
import { WEBHOOK_EVENTS } from "./events";

export const URL_MAX = 2000;
/** endpoints per customer: enough for every integration a customer runs, not a fan-out amplifier */
export const MAX_ENDPOINTS = 20;

export const MESSAGES = {
  urlRequired: "URL is required",
  urlTooLong: `URL is too long (at most ${URL_MAX} characters)`,
  eventsRequired: "Events must name at least one event",
  eventUnknown: `Events must be among ${WEBHOOK_EVENTS.join(", ")}`,
  active: "Active must be true or false",
  customer: "Customer must be a customer id",
  tooMany: `A customer may have at most ${MAX_ENDPOINTS} webhook endpoints`,
  created: "Webhook endpoint added. Copy its secret now: it is not shown again.",
  updated: "Webhook endpoint saved.",
  rotated: "A new secret was made. Copy it now: it is not shown again.",
  deleted: "Webhook endpoint deleted.",
  replayed: "The delivery was queued again.",
} as const;

const bool = z.union([z.boolean(), z.enum(["true", "false", "1", "0", "on"]).transform((v) => v === "true" || v === "1" || v === "on")], { error: MESSAGES.active });

export const endpointFields = {
  url: z.string({ error: MESSAGES.urlRequired }).trim().min(1, MESSAGES.urlRequired).max(URL_MAX, MESSAGES.urlTooLong),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: MESSAGES.eventUnknown }), { error: MESSAGES.eventsRequired })
    .min(1, MESSAGES.eventsRequired)
    .max(WEBHOOK_EVENTS.length, MESSAGES.eventUnknown)
    .transform((events) => [...new Set(events)]),
  active: bool,
};

export const createEndpointSchema = z.strictObject({
  ...endpointFields,
  active: bool.optional(),
  /** staff name the customer; a customer's admin works in their own */
  customer_id: idSchema(MESSAGES.customer).optional(),
});

export const updateEndpointSchema = z.strictObject({
  url: endpointFields.url.optional(),
  events: endpointFields.events.optional(),
  active: bool.optional(),
  /** a new secret, answered once */
  rotate_secret: bool.optional(),
});

export const listQuery = z.object({ customer_id: idSchema(MESSAGES.customer).optional() });
export const deliveriesQuery = z.object({
  page: z.coerce.number({ error: "Page must be a whole number" }).int("Page must be a whole number").min(1, "Page must be a whole number").max(10_000, "Page is too large").default(1),
});
export const DELIVERIES_PER_PAGE = 50;
