/**
 * EditValues: changes one column's text on every row (docs/decisions/019 "Templates").
 * - COPY: the `from` column's text into `to` (made when absent); with `when`, only on rows whose
 *   `when.column` matches `when.pattern`, the others keep
 *   `to` as it was (blank when absent). This is how a file with one
 *   row per charge spreads each charge type into a column of its own before GroupBy adds them up.
 * - REPLACE: every match of `pattern` (case-insensitive regular expression) by `replacement`
 *   ($1 refers to a group).
 * - STRIP: removes the `characters` given (default: currency signs, thousands commas and spaces),
 *   then trims; "$1,234.50 " becomes "1234.50".
 * - WEEKS_TO_DATE: an ISO week ("2026-W07", "202607", "07/2026") to its Monday, YYYY-MM-DD, into
 *   `to` (default the same column). A value that is not a week marks the row (blank stays blank).
 * - CALCULATE: a computed column (issue 29 item 6): the SUM, DIFFERENCE (the first less the others)
 *   or PRODUCT of `operands`, each a column or a number, into `to`, rounded to `decimals` (2). A
 *   blank column counts 0 in a sum or difference and makes a product blank; when every column
 *   operand is blank the result is blank. Text that is not an amount marks the row.
 */
import { z } from "zod";
import { patternOf, problemAt, type Rows, type StepPlace } from "./rows";
import { parseAmount, weekToDate } from "./values";

const column = z.string().trim().min(1, "Column is required");

export const editValuesOptions = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("COPY"),
    from: column,
    to: column,
    when: z.object({ column, pattern: z.string().min(1, "Pattern is required") }).optional(),
  }),
  z.object({ action: z.literal("REPLACE"), column, pattern: z.string().min(1, "Pattern is required"), replacement: z.string().default("") }),
  z.object({ action: z.literal("STRIP"), column, characters: z.string().optional() }),
  z.object({ action: z.literal("WEEKS_TO_DATE"), column, to: z.string().trim().optional() }),
  z.object({
    action: z.literal("CALCULATE"),
    operation: z.enum(["SUM", "DIFFERENCE", "PRODUCT"], { error: "Choose SUM, DIFFERENCE or PRODUCT" }),
    operands: z
      .array(z.union([z.object({ column }).strict(), z.object({ number: z.number({ error: "Give a number" }).finite() }).strict()], { error: "Each operand is a column or a number" }))
      .min(2, "Give at least two operands")
      .max(20, "At most 20 operands"),
    to: column,
    decimals: z.number().int().min(0, "Decimals from 0 to 6").max(6, "Decimals from 0 to 6").optional(),
  }),
]);
export type EditValuesOptions = z.infer<typeof editValuesOptions>;

const escape = (s: string) => s.replace(/[-\\\]^]/g, "\\$&");

export async function* editValues(rows: Rows, o: EditValuesOptions, place: StepPlace): Rows {
  const edit = editorOf(o);
  for await (const r of rows) {
    if (r.problem) {
      yield r;
      continue;
    }
    const values = { ...r.values };
    const problem = edit(values);
    yield problem ? { ...r, values, problem: problemAt(place, problem) } : { ...r, values };
  }
}

/** Changes `values` in place; answers a problem's message when the row cannot be edited. */
function editorOf(o: EditValuesOptions): (values: Record<string, string>) => string | null {
  switch (o.action) {
    case "COPY": {
      const when = o.when ? { column: o.when.column, re: patternOf(o.when.pattern) } : null;
      return (v) => {
        if (!when || when.re.test(v[when.column] ?? "")) v[o.to] = v[o.from] ?? "";
        else v[o.to] ??= "";
        return null;
      };
    }
    case "REPLACE": {
      const re = new RegExp(patternOf(o.pattern).source, "gi");
      return (v) => {
        v[o.column] = (v[o.column] ?? "").replace(re, o.replacement).trim();
        return null;
      };
    }
    case "STRIP": {
      const re = o.characters ? new RegExp(`[${escape(o.characters)}]`, "g") : /[$€£¥,\s]|AUD|NZD|USD/gi;
      return (v) => {
        v[o.column] = (v[o.column] ?? "").replace(re, "").trim();
        return null;
      };
    }
    case "WEEKS_TO_DATE":
      return (v) => {
        const text = (v[o.column] ?? "").trim();
        const to = o.to || o.column;
        if (text === "") {
          v[to] = "";
          return null;
        }
        const date = weekToDate(text);
        if (!date) return `'${text}' in column ${o.column} is not a week (such as 2026-W07)`;
        v[to] = date;
        return null;
      };
    case "CALCULATE":
      return calculator(o);
  }
}

function calculator(o: Extract<EditValuesOptions, { action: "CALCULATE" }>): (values: Record<string, string>) => string | null {
  const scale = 10 ** (o.decimals ?? 2);
  return (v) => {
    const numbers: (number | null)[] = [];
    let anyColumn = false;
    for (const op of o.operands) {
      if ("number" in op) {
        numbers.push(op.number);
        continue;
      }
      const text = (v[op.column] ?? "").trim();
      if (text === "") {
        numbers.push(null);
        continue;
      }
      const n = parseAmount(text);
      if (n === null) return `'${text}' in column ${op.column} is not an amount`;
      anyColumn = true;
      numbers.push(n);
    }
    const columns = o.operands.some((op) => "column" in op);
    if ((columns && !anyColumn) || (o.operation === "PRODUCT" && numbers.includes(null))) {
      v[o.to] = "";
      return null;
    }
    const [first, ...rest] = numbers.map((n) => n ?? 0);
    const result = o.operation === "SUM" ? rest.reduce((a, b) => a + b, first!) : o.operation === "DIFFERENCE" ? rest.reduce((a, b) => a - b, first!) : rest.reduce((a, b) => a * b, first!);
    // rounded once, at the end (half away from zero, past float noise), so a product keeps its precision until then
    v[o.to] = ((Math.sign(result) * Math.round(Math.abs(result) * scale + 1e-7)) / scale).toFixed(o.decimals ?? 2);
    return null;
  };
}
