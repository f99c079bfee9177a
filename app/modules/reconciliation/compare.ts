/**
 * Reconciliation's comparison (spec 3 sections 3 and 4, issue 19, decision 020): a carrier
 * invoice line's cost lines against the consignment's stored rating_detail, buy against buy, by
 * cost category. Pure: the caller reads the line, its costs, the consignment and the customer's
 * options, and stores what this answers. All money is whole cents.
 */
import { COST_CATEGORIES } from "../../../db/schema/finance";
import { divideRounded, toCents } from "../invoicing/money";

/** `duplicate` is not the comparison's: the import found the line on another carrier invoice (decision 021) */
export const REASON_CATEGORIES = ["duplicate", "zone", "incorrect_rate", "failed_to_rate", "buy_rate_missing", "service", "surcharge", "check_wt_vol"] as const;
export type ReasonCategory = (typeof REASON_CATEGORIES)[number];
/** spec 3 section 9: the reason a line outside its thresholds gets when no cause is found */
export const DEFAULT_REASON: ReasonCategory = "check_wt_vol";

/** Categories that are neither the rate itself (freight, fuel), tax, nor a credit: the extras. */
const NOT_SURCHARGES = new Set(["freight_charge", "fuel_charge", "gst", "credit_adjustment"]);

export interface InvoiceLineFacts {
  costs: Array<{ category: string; amount: number | string }>;
  /** used only when the line has no cost lines but its tax: the carrier gave a total alone */
  total_cost?: number | string | null;
  charge_weight: number | string | null;
  from_zone: string | null;
  to_zone: string | null;
  service_id: number | null;
  /** the line's service is the Unquoted choice: none of ours */
  unquoted?: boolean;
}

export interface ConsignmentFacts {
  /** as stored on the consignment (the engine's RatingDetail), or null when it never rated */
  rating_detail: unknown;
  service_id: number | null;
}

/** The customer's reconciliation_threshold_flat (dollars) and _percentage (percent of the rated buy). */
export interface Thresholds {
  flat?: number | null;
  percentage?: number | null;
}

export interface RatedFacts {
  buy: Map<string, number>;
  sell: number;
  /** thousandths of the weight unit (grams for kg), null when not stored */
  charge_weight: number | null;
  from_zone: string | null;
  to_zone: string | null;
}

export interface CategoryComparison {
  category: string;
  rated: number;
  invoiced: number;
  difference: number;
}

export interface Comparison {
  categories: CategoryComparison[];
  rated_buy: number;
  rated_sell: number;
  invoiced: number;
  /** the carrier's tax lines, kept apart: the rated buy carries no tax */
  invoiced_gst: number;
  /** invoiced minus rated buy */
  discrepancy: number;
  /** rated sell minus the actual (invoiced) buy */
  margin: number;
  /** margin over sell, percent to 2 decimals; null without a sell */
  margin_percent: number | null;
  within_thresholds: boolean;
  state: "reconciled" | "reconciling";
  /** why it is reconciling, one per cause found, in REASON_CATEGORIES order; empty when reconciled */
  reasons: ReasonCategory[];
}

const sumLines = (lines: unknown): Map<string, number> => {
  const out = new Map<string, number>();
  if (!Array.isArray(lines)) return out;
  for (const l of lines as Array<{ category?: unknown; amount?: unknown }>) {
    if (typeof l?.category !== "string" || l.category === "gst") continue;
    const amount = toCents(typeof l.amount === "string" || typeof l.amount === "number" ? l.amount : null);
    out.set(l.category, (out.get(l.category) ?? 0) + amount);
  }
  return out;
};

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/** Weight in thousandths (3 decimals, as the columns hold it); blank -> null. */
export function weightMilli(value: number | string | null | undefined): number | null {
  if (value == null || value === "") return null;
  const n = Number(value);
  return Number.isFinite(n) ? Math.round(n * 1000) : null;
}

const zoneKey = (zone: string | null | undefined) => (zone ?? "").trim().toUpperCase();

/** The parts of a stored rating_detail reconciliation reads; null when there is none. */
export function readRating(raw: unknown): RatedFacts | null {
  if (!raw || typeof raw !== "object") return null;
  const d = raw as Record<string, unknown>;
  const zone = (v: unknown) => (typeof v === "string" && v.trim() ? v : null);
  return {
    buy: sumLines(d.buy),
    sell: total(sumLines(d.sell)),
    charge_weight: weightMilli(typeof d.charge_weight === "number" || typeof d.charge_weight === "string" ? d.charge_weight : null),
    from_zone: zone(d.from_zone),
    to_zone: zone(d.to_zone),
  };
}

/** The invoice line's non-tax costs by category (its total_cost as freight when it has none). */
export function invoicedCosts(line: InvoiceLineFacts): { byCategory: Map<string, number>; gst: number } {
  const byCategory = sumLines(line.costs);
  const gst = line.costs.filter((c) => c.category === "gst").reduce((a, c) => a + toCents(c.amount), 0);
  if (byCategory.size === 0 && line.total_cost != null && toCents(line.total_cost) !== 0) byCategory.set("freight_charge", toCents(line.total_cost) - gst);
  return { byCategory, gst };
}

/** What differs between the invoice line and the rating: the facts behind zone, service and check_wt_vol. */
export function differences(line: InvoiceLineFacts, rated: RatedFacts | null, consignment: Pick<ConsignmentFacts, "service_id">) {
  const weight = weightMilli(line.charge_weight);
  // a blank on either side says nothing: only two known values can disagree
  const zoneDiffers = (invoiced: string | null, ratedZone: string | null | undefined) => zoneKey(invoiced) !== "" && zoneKey(ratedZone) !== "" && zoneKey(invoiced) !== zoneKey(ratedZone);
  return {
    from_zone: zoneDiffers(line.from_zone, rated?.from_zone),
    to_zone: zoneDiffers(line.to_zone, rated?.to_zone),
    weight: weight != null && rated?.charge_weight != null && weight !== rated.charge_weight,
    service: Boolean(line.unquoted) || (line.service_id != null && consignment.service_id != null && line.service_id !== consignment.service_id),
  };
}

/**
 * Within the thresholds: |discrepancy| at most the flat amount, OR at most the percentage of the
 * rated buy. The edge counts as within. An unset threshold is 0, so it passes only an exact match;
 * both unset means only exact matches reconcile. Integer arithmetic: percentages to 2 decimals.
 */
export function withinThresholds(discrepancy: number, ratedBuy: number, thresholds: Thresholds): boolean {
  const off = Math.abs(discrepancy);
  const flat = toCents(thresholds.flat ?? 0);
  const hundredthsOfPercent = Math.round((thresholds.percentage ?? 0) * 100);
  return off <= flat || off * 10_000 <= hundredthsOfPercent * Math.abs(ratedBuy);
}

/** The reasons a line outside its thresholds is reconciling (decision 020 says what triggers each). */
function reasonsFor(line: InvoiceLineFacts, rated: RatedFacts, invoiced: Map<string, number>, consignment: ConsignmentFacts): ReasonCategory[] {
  const diff = differences(line, rated, consignment);
  const found = new Set<ReasonCategory>();
  if (diff.from_zone || diff.to_zone) found.add("zone");
  if (diff.service) found.add("service");
  if (diff.weight) found.add("check_wt_vol");
  const categories = new Set([...rated.buy.keys(), ...invoiced.keys()]);
  for (const c of categories) {
    const r = rated.buy.get(c) ?? 0;
    const i = invoiced.get(c) ?? 0;
    // on one side only: the two disagree about which surcharges apply
    if (!NOT_SURCHARGES.has(c) && (r === 0) !== (i === 0)) found.add("surcharge");
  }
  // the same weight, zones and service yet a charge both sides have costs differently: the rate card is wrong
  if (!found.has("zone") && !found.has("service") && !found.has("check_wt_vol")) {
    for (const c of categories) {
      const r = rated.buy.get(c) ?? 0;
      const i = invoiced.get(c) ?? 0;
      if (r !== 0 && i !== 0 && r !== i) found.add("incorrect_rate");
    }
  }
  if (found.size === 0) found.add(DEFAULT_REASON);
  return REASON_CATEGORIES.filter((r) => found.has(r));
}

const ORDER = new Map<string, number>(COST_CATEGORIES.map((c, i) => [c, i]));

/** A credit or adjustment line (as invoicing/sell.ts isCredit): its costs come to less than nothing, or are all credit_adjustment. */
function isCreditLine(invoiced: Map<string, number>): boolean {
  const own = [...invoiced].filter(([, cents]) => cents !== 0);
  return own.length > 0 && (own.reduce((a, [, cents]) => a + cents, 0) < 0 || own.every(([category]) => category === "credit_adjustment"));
}
/** What a credit line is billed at: each category times the rating's sell over its buy; at cost without both. */
function creditCharged(invoiced: Map<string, number>, ratedBuy: number, sell: number): number {
  const proportional = ratedBuy > 0 && sell > 0;
  return [...invoiced.values()].reduce((a, cents) => a + (proportional ? divideRounded(cents * sell, ratedBuy) : cents), 0);
}

/** Compares one allocated invoice line with its consignment's rating and applies the customer's thresholds. */
export function compare(line: InvoiceLineFacts, consignment: ConsignmentFacts | null, thresholds: Thresholds): Comparison {
  const rated = consignment ? readRating(consignment.rating_detail) : null;
  const { byCategory: invoiced, gst } = invoicedCosts(line);
  const ratedBuy = rated ? total(rated.buy) : 0;
  const invoicedTotal = total(invoiced);
  const sell = rated?.sell ?? 0;
  const categories = [...new Set([...(rated?.buy.keys() ?? []), ...invoiced.keys()])]
    .sort((a, b) => (ORDER.get(a) ?? 99) - (ORDER.get(b) ?? 99))
    .map((category) => {
      const r = rated?.buy.get(category) ?? 0;
      const i = invoiced.get(category) ?? 0;
      return { category, rated: r, invoiced: i, difference: i - r };
    });
  const discrepancy = invoicedTotal - ratedBuy;
  // the margin is on what the customer is charged for this line: a credit is billed as a credit in
  // proportion to the buy (invoicing/sell.ts, decision 027), never the consignment's whole sell again
  const charged = isCreditLine(invoiced) ? creditCharged(invoiced, ratedBuy, sell) : sell;
  const margin = charged - invoicedTotal;
  const base = {
    categories,
    rated_buy: ratedBuy,
    rated_sell: sell,
    invoiced: invoicedTotal,
    invoiced_gst: gst,
    discrepancy,
    margin,
    margin_percent: charged === 0 ? null : divideRounded(Math.sign(charged) * margin * 10_000, Math.abs(charged)) / 100,
  };
  // nothing rated to compare with: never reconciled by the thresholds, whatever the amounts
  if (!rated || !consignment) return { ...base, within_thresholds: false, state: "reconciling", reasons: ["failed_to_rate"] };
  if (![...rated.buy.values()].some((v) => v !== 0)) return { ...base, within_thresholds: false, state: "reconciling", reasons: ["buy_rate_missing"] };
  const within = withinThresholds(discrepancy, ratedBuy, thresholds);
  if (within) return { ...base, within_thresholds: true, state: "reconciled", reasons: [] };
  return { ...base, within_thresholds: false, state: "reconciling", reasons: reasonsFor(line, rated, invoiced, consignment) };
}

/** The thresholds from the customer's options (unset -> 0: only an exact match is within it). */
export function thresholdsOf(options: { reconciliation_threshold_flat?: number | null; reconciliation_threshold_percentage?: number | null } | null | undefined): Thresholds {
  return { flat: options?.reconciliation_threshold_flat ?? 0, percentage: options?.reconciliation_threshold_percentage ?? 0 };
}
