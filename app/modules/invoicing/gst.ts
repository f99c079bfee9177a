/**
 * GST on a customer invoice (issue 19 point 6, decision 020): by the country of the invoice's
 * billing address, at the rating engine's rates (AU 10 %, NZ 15 %, US none). Worked out once per
 * invoice on the sum of its lines, rounded half away from zero to the cent, then shared among the
 * lines so that what each line shows adds up to the invoice's GST to the cent.
 *
 * The United States has no GST and the product adds no sales tax: US sales tax depends on the
 * state, county and city of delivery and on where the seller has nexus, which the product does
 * not know; a US invoice carries no tax line and the accounting system adds sales tax if owed.
 */
import { gstRate } from "../rating/engine";
import { divideRounded, toCents } from "./money";

export interface InvoiceLineCosts {
  /** the line's sell cost lines; any gst line among them is left out and worked out again */
  costs: Array<{ category: string; amount: number | string }>;
}

export interface InvoiceGst {
  /** percent: 10, 15 or 0 */
  rate_percent: number;
  /** "GST", or null where none is charged */
  tax_name: string | null;
  subtotal: number;
  gst: number;
  total: number;
  /** per line, in the order given: its subtotal and its share of the GST (cents) */
  lines: Array<{ subtotal: number; gst: number }>;
}

/**
 * Splits `total` among `weights` in proportion, each share an integer and the shares adding up to
 * `total` exactly: floors first, then the remaining cents to the largest remainders (first wins a tie).
 */
export function shareOut(total: number, weights: number[]): number[] {
  const base = weights.reduce((a, b) => a + b, 0);
  if (base === 0) return weights.map(() => 0);
  // a credit invoice (negative sum): the same split with the signs turned
  if (base < 0) return shareOut(-total, weights.map((w) => -w)).map((s) => (s === 0 ? 0 : -s));
  const exact = weights.map((w) => w * total);
  const shares = exact.map((n) => Math.floor(n / base));
  let left = total - shares.reduce((a, b) => a + b, 0);
  const order = exact.map((n, i) => ({ i, rest: n - shares[i]! * base })).sort((a, b) => b.rest - a.rest || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    shares[i]! += 1;
    left -= 1;
  }
  return shares;
}

/** GST for an invoice's lines, billed to `country` (AUSTRALIA, NEW ZEALAND, ...; blank: AUSTRALIA, the addresses' default). */
export function invoiceGst(country: string | null | undefined, lines: InvoiceLineCosts[]): InvoiceGst {
  const ratePercent = Math.round(gstRate(country ?? "AUSTRALIA") * 100);
  const subtotals = lines.map((l) => l.costs.filter((c) => c.category !== "gst").reduce((a, c) => a + toCents(c.amount), 0));
  const subtotal = subtotals.reduce((a, b) => a + b, 0);
  const gst = divideRounded(subtotal * ratePercent, 100);
  const shares = shareOut(gst, subtotals);
  return {
    rate_percent: ratePercent,
    tax_name: ratePercent ? "GST" : null,
    subtotal,
    gst,
    total: subtotal + gst,
    lines: subtotals.map((s, i) => ({ subtotal: s, gst: shares[i]! })),
  };
}
