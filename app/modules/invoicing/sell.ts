/**
 * What the customer is charged for one reconciled line (issue 19, decision 020): the sell view of
 * /reconciliation/{id} shows it and invoicing bills it. Shared so the screen and the invoice agree.
 *
 * - Charge from consignment (reconciliation_options.charge_from_consignment, the default): the
 *   consignment's rated sell lines, as the customer was quoted.
 * - Charge from invoice: the carrier's cost lines with the consignment's markups, as the rating
 *   engine applies them (freight and fuel at `markup`, surcharges at `surcharge_markup`), so what
 *   the carrier really charged is passed on. A credit adjustment is passed on at cost.
 * - A credit (issue 29 finding 4, decision 027): a line whose costs come to less than nothing, or
 *   whose costs are all credit_adjustment, is always charged from the invoice, whatever Charge
 *   From says: charged from the consignment it would bill the consignment a second time. Its sell
 *   is each cost line times the rating's sell over its buy (GST left out), so the customer is
 *   credited in proportion to what the carrier credited; at cost when there is no rated buy.
 * GST lines are left out on both sides: the invoice's GST is worked out once (gst.ts).
 * A line whose consignment never rated has no sell to charge from: it is charged from the invoice
 * at cost, and `fallback` says so.
 */
import { divideRounded, toCents } from "./money";

export interface SellLine {
  category: string;
  description: string;
  /** cents */
  amount: number;
}

export interface SellSource {
  chargeFromConsignment: boolean;
  /** the consignment's rating_detail (or its re-rate), if it rated */
  rating: { buy?: Array<{ category: string; amount: number }>; sell?: Array<{ category: string; description: string; amount: number }>; markup?: number; surcharge_markup?: number } | null;
  /** the invoice line's cost lines as stored (amounts in dollars) */
  invoiceCosts: Array<{ category: string; description: string; amount: number | string }>;
}

export interface SellResult {
  lines: SellLine[];
  /** cents, without GST */
  total: number;
  charged_from: "consignment" | "invoice";
  /** a credit or adjustment line: charged from the invoice, in proportion to the rating's sell over buy */
  credit: boolean;
  /** true when the consignment had no sell and the invoice's costs were charged at cost */
  fallback: boolean;
}

const FREIGHT = new Set(["freight_charge", "fuel_charge"]);

/** An amount in cents with a markup percent, rounded half away from zero (in integers). */
export function markedUp(cents: number, percent: number): number {
  // percent to 4 decimals as an integer, so 12.5 % of 1999 cents is done without float drift
  const bp = Math.round(percent * 10000);
  const scaled = cents * (1_000_000 + bp);
  const q = Math.floor(Math.abs(scaled) / 1_000_000);
  const r = Math.abs(scaled) - q * 1_000_000;
  const rounded = r * 2 >= 1_000_000 ? q + 1 : q;
  return scaled < 0 && rounded !== 0 ? -rounded : rounded;
}

/** A credit or adjustment line: its non-GST costs come to less than nothing, or are all credit_adjustment. */
export function isCredit(costs: SellSource["invoiceCosts"]): boolean {
  const own = costs.filter((c) => c.category !== "gst" && toCents(c.amount) !== 0);
  if (own.length === 0) return false;
  return own.reduce((a, c) => a + toCents(c.amount), 0) < 0 || own.every((c) => c.category === "credit_adjustment");
}

const centsOf = (lines: Array<{ category: string; amount: number }> | undefined) => (lines ?? []).filter((l) => l.category !== "gst").reduce((a, l) => a + toCents(l.amount), 0);

/** A credit's sell: each cost line times the rating's sell over its buy, in integers; at cost without a rated buy. */
function creditSell(source: SellSource): SellResult {
  const buy = centsOf(source.rating?.buy);
  const sell = centsOf(source.rating?.sell);
  const proportional = buy > 0 && sell > 0;
  const lines = source.invoiceCosts
    .filter((c) => c.category !== "gst")
    .map((c) => ({ category: c.category, description: c.description, amount: proportional ? divideRounded(toCents(c.amount) * sell, buy) : toCents(c.amount) }));
  return { lines, total: sum(lines), charged_from: "invoice", credit: true, fallback: !proportional };
}

export function sellFor(source: SellSource): SellResult {
  if (isCredit(source.invoiceCosts)) return creditSell(source);
  const ratedSell = (source.rating?.sell ?? []).filter((l) => l.category !== "gst");
  const hasSell = ratedSell.some((l) => toCents(l.amount) !== 0);
  if (source.chargeFromConsignment && hasSell) {
    const lines = ratedSell.map((l) => ({ category: l.category, description: l.description, amount: toCents(l.amount) }));
    return { lines, total: sum(lines), charged_from: "consignment", credit: false, fallback: false };
  }
  const fallback = !source.rating;
  const markup = fallback ? 0 : (source.rating?.markup ?? 0);
  const surchargeMarkup = fallback ? 0 : (source.rating?.surcharge_markup ?? 0);
  const lines = source.invoiceCosts
    .filter((c) => c.category !== "gst")
    .map((c) => {
      const cents = toCents(c.amount);
      const pct = c.category === "credit_adjustment" ? 0 : FREIGHT.has(c.category) ? markup : surchargeMarkup;
      return { category: c.category, description: c.description, amount: markedUp(cents, pct) };
    });
  return { lines, total: sum(lines), charged_from: "invoice", credit: false, fallback: fallback || (source.chargeFromConsignment && !hasSell) };
}

const sum = (lines: SellLine[]) => lines.reduce((a, l) => a + l.amount, 0);
