/**
 * The SELL view's figures (issue 29 finding 5, decision 027): what the customer is charged for a
 * line, each total saying what it includes, and the margin of that charge. Once the line is billed
 * the customer invoice's own line is the charge (its costs without GST, its GST, its total with
 * GST); before, sell.ts's charge, which invoicing will bill. The margin is that charge without GST
 * minus the carrier's charge without GST, so the header agrees with what the customer invoice
 * billed. Pure; cents.
 */
import { divideRounded, toCents } from "../invoicing/money";

export interface ChargedTotals {
  /** where the figures come from: the billed customer invoice line, or the charge invoicing would bill */
  source: "customer_invoice" | "sell";
  excluding_gst: number;
  gst: number;
  including_gst: number;
}

/** The customer invoice line's totals from its stored costs and total_cost (which holds its GST share). */
export function billedTotals(line: { costs: Array<{ category: string; amount: number | string }>; total_cost: number | string }): ChargedTotals {
  const gst = line.costs.filter((c) => c.category === "gst").reduce((a, c) => a + toCents(c.amount), 0);
  const excluding = line.costs.filter((c) => c.category !== "gst").reduce((a, c) => a + toCents(c.amount), 0);
  return { source: "customer_invoice", excluding_gst: excluding, gst, including_gst: toCents(line.total_cost) };
}

/** The margin of `chargedExcludingGst` over the carrier's `invoicedExcludingGst`, and its percent of the charge (2 decimals; null without a charge). */
export function chargedMargin(chargedExcludingGst: number, invoicedExcludingGst: number): { margin: number; margin_percent: number | null } {
  const margin = chargedExcludingGst - invoicedExcludingGst;
  const percent = chargedExcludingGst === 0 ? null : divideRounded(Math.sign(chargedExcludingGst) * margin * 10_000, Math.abs(chargedExcludingGst)) / 100;
  return { margin, margin_percent: percent };
}
