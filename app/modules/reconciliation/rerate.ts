/**
 * Re-rating in reconciliation (spec 3 section 4 "Re-rating status", issue 19): when the carrier
 * charged for another weight, other zones or another service than the consignment was rated with,
 * the consignment is rated again with the invoice's values, so the difference can be told apart
 * from a wrong rate card. Pure: what to re-rate with, and the status the detail shows.
 */
import { differences, readRating, weightMilli, type ConsignmentFacts, type InvoiceLineFacts } from "./compare";

export const RERATE_STATUSES = ["loading", "rerate_error", "rerated", "rerate_not_required"] as const;
export type RerateStatus = (typeof RERATE_STATUSES)[number];
/** spec 3 sections 4 and 8 */
export const RERATE_LABELS: Record<RerateStatus, string> = {
  loading: "Loading...",
  rerate_error: "Error rerating",
  rerated: "Rerated",
  rerate_not_required: "Same as original consignment",
};

/** spec 3 section 8's warning, when a reconciliation has no consignment to re-rate */
export const NO_CONSIGNMENT = "No consignment found";

/**
 * Why a re-rate shows 'Error rerating' (issue 29 finding 7): the stored error, else, for a line
 * with no consignment (a number never issued), 'No consignment found'. The reconcile job marks
 * such a line rerate_error without ever re-rating it, so nothing stored says why.
 */
export function rerateReason(status: RerateStatus, stored: string | null, hasConsignment: boolean): string | null {
  if (status !== "rerate_error") return stored;
  return stored ?? (hasConsignment ? null : NO_CONSIGNMENT);
}

export interface RerateDecision {
  required: boolean;
  /** the invoice's values that differ from the rating: what the re-rate uses instead */
  changes: { charge_weight?: number; from_zone?: string; to_zone?: string; service_id?: number };
}

/**
 * Whether the consignment must be rated again: the invoice's charge weight, a zone or the service
 * differs from the stored rating (the same tests as the zone, check_wt_vol and service reasons).
 * A consignment that never rated is re-rated with what the invoice says; without a consignment
 * there is nothing to re-rate, yet it is required: the status then says rerate_error.
 */
export function rerateDecision(line: InvoiceLineFacts, consignment: ConsignmentFacts | null): RerateDecision {
  if (!consignment) return { required: true, changes: {} };
  const rated = readRating(consignment.rating_detail);
  const diff = differences(line, rated, consignment);
  const changes: RerateDecision["changes"] = {};
  if (diff.weight) changes.charge_weight = weightMilli(line.charge_weight)! / 1000;
  if (diff.from_zone) changes.from_zone = line.from_zone!.trim();
  if (diff.to_zone) changes.to_zone = line.to_zone!.trim();
  if (diff.service && line.service_id != null) changes.service_id = line.service_id;
  return { required: !rated || Object.keys(changes).length > 0 || diff.service, changes };
}

/**
 * The re-rating panel's status from reconciliation_options.rerate_required and the re-rate's
 * progress: flag missing -> rerate_error; false -> rerate_not_required; set without a consignment
 * -> rerate_error (the spec's two causes); set and not yet run or under way -> loading; done ->
 * rerated; a re-rate that failed (a rating error such as 'Must have weight') -> rerate_error too.
 */
export function rerateStatus(s: { rerate_required?: boolean | null; has_consignment: boolean; outcome: "pending" | "done" | "failed" | null }): RerateStatus {
  if (s.rerate_required == null) return "rerate_error";
  if (!s.rerate_required) return "rerate_not_required";
  if (!s.has_consignment) return "rerate_error";
  if (s.outcome === "done") return "rerated";
  if (s.outcome === "failed") return "rerate_error";
  return "loading";
}
