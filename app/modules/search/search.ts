/**
 * Consignment search (spec 1 sections 2, 3, 5 and 9; spec 2 sections 4 and 9): the header
 * typeahead and the advanced search. The vocabulary, limits, messages and the advanced criteria
 * schema, shared by the screens and the /api calls (plain .ts: the browser bundle reads it too).
 */
import { stateLabel } from "../consignments/list";

/** Typeahead: from 3 characters, at most 10 results (spec 1 section 9). */
export const SEARCH_MIN = 3;
export const SEARCH_LIMIT = 10;
/** The longest search term taken: no number, reference or name is longer. */
export const SEARCH_MAX = 100;

export const NO_MATCHES = "No matches found";
export const SEARCH_FAILED = "Error occurred searching consignments";
export const NO_CARRIER = "no carrier assigned";
export const PENDING = "Pending";

/** The widest advanced search: under 2 calendar months (spec 2 sections 5 and 9). */
export const MAX_RANGE_MONTHS = 2;
export const RANGE_TOO_WIDE = "Range between to and from despatch date must be less than 2 months";
export const RANGE_REVERSED = "From date cannot be after the to date";
export const FROM_REQUIRED = "Please enter a from date";
export const TO_REQUIRED = "Please enter a to date";
/** Rows an advanced search answers at most; more asks the user to refine it. */
export const ADVANCED_LIMIT = 500;
export const REFINE = `Only the first ${ADVANCED_LIMIT} consignments are shown. Refine your search to see the others.`;
export const NO_RESULTS = "No consignments match your search.";

export const DESPATCH_TYPES = ["normal", "return", "third_party"] as const;
export type DespatchType = (typeof DESPATCH_TYPES)[number];
export const DESPATCH_TYPE_LABELS: Record<DespatchType, string> = { normal: "Normal", return: "Return", third_party: "Third party" };

/** Sortable columns of the results table: the header's name in the URL. */
export const ADVANCED_SORTS = {
  consignment_number: "Consignment",
  reference: "Reference",
  receiver_name: "Receiver",
  despatch_date: "Despatch date",
  state: "State",
  carrier_name: "Carrier",
  service_name: "Service",
  total_quantity: "Items",
} as const;
export type AdvancedSort = keyof typeof ADVANCED_SORTS;
export const DEFAULT_ADVANCED_SORT: AdvancedSort = "despatch_date";

/** Moving one date past the other moves the other (spec 2 section 5): the dates after `changed` became `value`. */
export function moveDates(range: { from: string; to: string }, changed: "from" | "to", value: string): { from: string; to: string } {
  const next = { ...range, [changed]: value };
  // the date just chosen stays; the other one follows it
  return next.from > next.to ? { from: value, to: value } : next;
}

/** Sorting by a header: the same column flips its direction, another starts ascending. */
export function nextSort(current: { sort: AdvancedSort; dir: "asc" | "desc" }, key: AdvancedSort): { sort: AdvancedSort; dir: "asc" | "desc" } {
  return { sort: key, dir: current.sort === key && current.dir === "asc" ? "desc" : "asc" };
}

/** One header search result (spec 1 section 3 "Search result"). */
export interface SearchResult {
  id: number;
  /** the number, or Pending */
  consignment_number: string;
  reference: string | null;
  /** the receiver address's code (customer reference) */
  receiver_reference: string | null;
  receiver_address: { name: string; address_line_1: string | null; locality: string | null; postcode: string | null; region: string | null; country: string } | null;
  state: string;
  /** the carrier's name, or 'no carrier assigned' */
  carrier_name: string;
  despatch_date: string | null;
  total_quantity: number;
  service_name: string | null;
  service_rate: number | null;
  return_type: "return" | "third_party" | null;
  active: boolean;
  /** the screen that opens it; null for inactive (deleted, merged) ones */
  url: string | null;
}

/** One advanced search row (spec 2 section 3 "Consignment as read by advanced search", the list's part). */
export interface AdvancedRow extends Omit<SearchResult, "receiver_address" | "receiver_reference"> {
  custom_reference: string | null;
  despatch_type: DespatchType;
  /** the receiver's name kept with the row (party_name: the sender's for returns and third-party pickups), as the list shows it */
  receiver_name: string | null;
  receiver_locality: string | null;
  receiver_postcode: string | null;
  estimated_delivery_date: string | null;
  site_code: string;
}

/** A state in words: "despatch_failure" is "Despatch failure" (open is said as the list says it). */
export const stateText = (state: string) => (state === "open" || state === "despatchable" ? (state === "open" ? "Not Ready" : "Ready") : stateLabel(state, false));
