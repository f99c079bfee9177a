/**
 * A condition on a row's column, for conditional mapping (issue 29 item 6): MapFields takes a
 * cost column into a category only on rows where its condition holds, so a credit line (a
 * negative total) can send its fuel part to credit_adjustment instead of fuel_charge.
 * - LT, LE, GT, GE, EQ, NE compare the column's amount with the number `value`; a blank cell
 *   holds no amount, so no comparison holds for it (text that is not an amount is the row's problem).
 * - MATCHES: the column's text matches the pattern `value` (case-insensitive regular expression).
 */
import { z } from "zod";
import { patternOf } from "./rows";
import { parseAmount } from "./values";

export const COMPARES = ["LT", "LE", "GT", "GE", "EQ", "NE", "MATCHES"] as const;
export type Compare = (typeof COMPARES)[number];
/** How the editor's list shows each comparison. */
export const COMPARE_LABELS: Record<Compare, string> = { LT: "is less than", LE: "is at most", GT: "is more than", GE: "is at least", EQ: "equals", NE: "does not equal", MATCHES: "matches the pattern" };

export const conditionSchema = z
  .object({
    column: z.string().trim().min(1, "Column is required"),
    compare: z.enum(COMPARES, { error: "Choose a comparison" }),
    value: z.union([z.number(), z.string()]),
  })
  .superRefine((c, ctx) => {
    if (c.compare === "MATCHES" ? typeof c.value !== "string" || c.value === "" : typeof c.value !== "number" || !Number.isFinite(c.value))
      ctx.addIssue({ code: "custom", path: ["value"], message: c.compare === "MATCHES" ? "Pattern is required" : "Give a number" });
  });
export type Condition = z.infer<typeof conditionSchema>;

/** A test of one row's values: true, false, or a problem's message when the column holds text that is not an amount. */
export function conditionTest(c: Condition): (values: Record<string, string>) => boolean | string {
  if (c.compare === "MATCHES") {
    const re = patternOf(String(c.value));
    return (v) => re.test(v[c.column] ?? "");
  }
  const than = Number(c.value);
  return (v) => {
    const text = (v[c.column] ?? "").trim();
    if (text === "") return false;
    const n = parseAmount(text);
    if (n === null) return `'${text}' in column ${c.column} is not an amount`;
    // compared in cents: 0.1 + 0.2 read from a file equals 0.3
    const a = Math.round(n * 100);
    const b = Math.round(than * 100);
    switch (c.compare) {
      case "LT":
        return a < b;
      case "LE":
        return a <= b;
      case "GT":
        return a > b;
      case "GE":
        return a >= b;
      case "EQ":
        return a === b;
      default:
        return a !== b;
    }
  };
}
