/**
 * What a carrier may report (spec 1 section 4, the despatched group), in journey order; kept apart
 * from the table definitions (no drizzle here) so the browser may import it through
 * app/modules/tracking/states.ts, which ranks them.
 */
export const TRACKING_EVENTS = [
  "booked",
  "picked_up",
  "in_transit",
  "on_board_for_delivery",
  "partial_delivery",
  "failed_delivery",
  "delivered",
  "delivered_with_pod",
] as const;
