/**
 * How every consignment state reads to a person (issue 31 #6: 'delivered_with_pod' reached the
 * export). One table, so a state added to the schema fails to compile here until it has a label.
 * The list screen names open and despatchable by its counters instead (list.ts stateLabel).
 */
import type { ConsignmentState } from "../../../db/schema/consignments";

export const CONSIGNMENT_STATE_LABELS: Record<ConsignmentState, string> = {
  open: "Not Ready",
  despatchable: "Ready",
  quote: "Quote",
  despatching: "Despatching",
  despatch_processing: "Despatch processing",
  despatched: "Despatched",
  booked: "Booked",
  in_transit: "In transit",
  delivered: "Delivered",
  // proof of delivery is said as the trade says it
  delivered_with_pod: "Delivered with POD",
  partial_delivery: "Partial delivery",
  failed_delivery: "Failed delivery",
  on_board_for_delivery: "On board for delivery",
  picked_up: "Picked up",
  cancelling: "Cancelling",
  cancelled: "Cancelled",
  despatch_failure: "Despatch failure",
  permanently_failed: "Permanently failed",
  merged: "Merged",
  deleted: "Deleted",
};

/** A state's label; a value outside the table (a tracking event's own word) in words, never as the code. */
export function consignmentStateLabel(state: string): string {
  const known = (CONSIGNMENT_STATE_LABELS as Record<string, string>)[state];
  if (known) return known;
  const words = state.replace(/_/g, " ").replace(/\bpod$/, "POD");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
