/**
 * The public tracking link (issue 14 item 5; spec 1 section 4): when it is offered and how its
 * address and its words read. Pure, so the screen, the API and the public page share one copy.
 */
import type { ConsignmentState } from "../../../db/schema/consignments";
import { uuidOrNull } from "../../utils/ids";

/** The page a receiver opens without signing in: /track/{token}. */
export const PUBLIC_TRACKING_PATH = "/track/";

/** States whose journey is over: the tracking screen stops asking for news. */
export const JOURNEY_OVER: readonly ConsignmentState[] = ["delivered", "delivered_with_pod", "cancelled", "deleted", "merged"];

export const LINK_NOT_OFFERED = "A tracking URL is offered once the consignment is complete.";
export const LINK_NOT_FOUND = "This tracking link is not valid. It may have been replaced by a newer one: ask the sender for the current link.";
export const URL_COPIED = "URL Copied";
export const LOADING_EVENTS = "Loading Track and Trace Events.";
export const NO_EVENTS = "There are currently no track and trace events for this consignment.";

/**
 * Spec 1 section 4: "A track-and-trace URL is offered only when state is not open, not quote and
 * not empty". A quote is also a flag (is_quote) on a consignment whose state may read otherwise;
 * a deleted or merged consignment is no longer the receiver's concern.
 */
export function linkOffered(c: { state: ConsignmentState | null | undefined; isQuote: boolean; active: boolean }): boolean {
  if (!c.state || c.state === "open" || c.state === "quote" || c.isQuote) return false;
  return c.active;
}

/** A carrier's link is shown only as http(s) (POST /api/tracking_events checks it too); our own drawn POD is a local path. */
export const safeHref = (url: string | null | undefined) => (url && (/^https?:\/\//i.test(url) || /^\/(?!\/)/.test(url)) ? url : null);

export function publicTrackingUrl(baseUrl: string, token: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${PUBLIC_TRACKING_PATH}${token}`;
}

/** A link's token as the database keeps it: a UUID, anything else is no link (and no query). */
export const tokenOrNull = uuidOrNull;

const WORDS: Partial<Record<ConsignmentState, string>> = {
  despatching: "Being despatched",
  despatch_processing: "Being despatched",
  despatched: "Despatched",
  booked: "Booked",
  picked_up: "Picked up",
  in_transit: "In transit",
  on_board_for_delivery: "On board for delivery",
  partial_delivery: "Partially delivered",
  failed_delivery: "Delivery attempted",
  delivered: "Delivered",
  delivered_with_pod: "Delivered (proof of delivery)",
  cancelling: "Being cancelled",
  cancelled: "Cancelled",
  despatchable: "Not yet despatched",
  despatch_failure: "Not yet despatched",
  permanently_failed: "Not yet despatched",
};

/** A state as a receiver reads it: words, never the code, and no internal step (a failed manifest is "Not yet despatched"). */
export function stateWords(state: ConsignmentState): string {
  return WORDS[state] ?? "Not yet despatched";
}
