/**
 * The template editor's text forms of list options (issue 29 item 6), both ways, so a template
 * opened and saved unchanged keeps every option the API accepts:
 * - MapFields costs: rows `cost.N.category|column|description|when.column|when.compare|when.value`,
 *   several per category and each with its condition; blank rows left out and the rest numbered
 *   0, 1, ... again (the form of a template before this took `cost.<category>.column`, still read).
 * - CALCULATE operands: one a line, a number or a column ("quoted" when a column's name reads as a number).
 * - HeaderCells cells: one a line, `name = B3`, `name = right of Label` or `name = below Label`.
 */
import { COST_CATEGORIES } from "../../../../db/schema/finance";
import { COMPARES } from "./conditions";

type Values = Record<string, string>;
const COST_KEYS = ["category", "column", "description", "when.column", "when.compare", "when.value"] as const;

/** The cost rows' numbers in `values`, in order. */
export const costRows = (values: Values) => [...new Set(Object.keys(values).flatMap((k) => /^cost\.(\d+)\./.exec(k)?.[1] ?? []).map(Number))].sort((a, b) => a - b);

/** Nothing typed or chosen (the comparison alone has a default, so it does not count). */
const blankRow = (values: Values, n: number) => COST_KEYS.every((k) => k === "when.compare" || !(values[`cost.${n}.${k}`] ?? "").trim());

/** MapFields' values with the cost rows renumbered from 0 and blank ones dropped; legacy per-category keys become rows. */
export function compactCosts(values: Values): Values {
  const out: Values = {};
  for (const [k, v] of Object.entries(values)) if (!k.startsWith("cost.")) out[k] = v;
  let next = 0;
  for (const n of costRows(values)) {
    if (blankRow(values, n)) continue;
    for (const k of COST_KEYS) if (values[`cost.${n}.${k}`] !== undefined) out[`cost.${next}.${k}`] = values[`cost.${n}.${k}`]!;
    next += 1;
  }
  for (const c of COST_CATEGORIES) {
    const column = values[`cost.${c}.column`] ?? "";
    if (!column.trim()) continue;
    out[`cost.${next}.category`] = c;
    out[`cost.${next}.column`] = column;
    if ((values[`cost.${c}.description`] ?? "").trim()) out[`cost.${next}.description`] = values[`cost.${c}.description`]!;
    next += 1;
  }
  return out;
}

interface CostJson {
  category: string;
  column: string;
  description?: string;
  when?: { column: string; compare: string; value: number | string };
}

export function costValues(costs: CostJson[]): Values {
  const out: Values = {};
  costs.forEach((c, n) => {
    out[`cost.${n}.category`] = c.category;
    out[`cost.${n}.column`] = c.column;
    if (c.description) out[`cost.${n}.description`] = c.description;
    if (c.when) {
      out[`cost.${n}.when.column`] = c.when.column;
      out[`cost.${n}.when.compare`] = c.when.compare;
      out[`cost.${n}.when.value`] = String(c.when.value);
    }
  });
  return out;
}

const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

/** The cost rows as MapFields' `costs`, with each body entry's row number (for errors). */
export function costsOf(values: Values): { costs: Record<string, unknown>[]; rows: number[] } {
  const rows = costRows(values).filter((n) => !blankRow(values, n));
  const costs = rows.map((n) => {
    const v = (k: string) => values[`cost.${n}.${k}`] ?? "";
    const cost: Record<string, unknown> = { category: v("category"), column: v("column") };
    if (v("description").trim()) cost.description = v("description");
    if (v("when.column").trim() || v("when.value").trim()) {
      const compare = (COMPARES as readonly string[]).includes(v("when.compare")) ? v("when.compare") : "";
      const value = v("when.value");
      cost.when = { column: v("when.column"), compare, value: compare !== "MATCHES" && NUMBER.test(value) ? Number(value) : value };
    }
    return cost;
  });
  return { costs, rows };
}

type Operand = { column: string } | { number: number };

export const operandsText = (operands: Operand[]) => operands.map((o) => ("number" in o ? String(o.number) : NUMBER.test(o.column) || /^".*"$/.test(o.column) ? `"${o.column}"` : o.column)).join("\n");

export const operandsOf = (text: string): Operand[] =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => (/^".*"$/.test(l) ? { column: l.slice(1, -1) } : NUMBER.test(l) ? { number: Number(l) } : { column: l }));

type Cell = { name: string; column: string; row: number } | { name: string; label: string; beside: string };

export const cellsText = (cells: Cell[]) => cells.map((c) => `${c.name} = ${"row" in c ? `${c.column}${c.row}` : `${c.beside === "BELOW" ? "below" : "right of"} ${c.label}`}`).join("\n");

export const cellsOf = (text: string): Record<string, unknown>[] =>
  text
    .split(/\r?\n/)
    .filter((l) => l.trim())
    .map((l) => {
      const at = l.indexOf("=");
      const name = (at < 0 ? l : l.slice(0, at)).trim();
      const where = at < 0 ? "" : l.slice(at + 1).trim();
      const cell = /^([A-Za-z]{1,3})(\d+)$/.exec(where);
      if (cell) return { name, column: cell[1]!.toUpperCase(), row: Number(cell[2]) };
      const below = /^below\s+(.+)$/i.exec(where);
      if (below) return { name, label: below[1]!.trim(), beside: "BELOW" };
      return { name, label: where.replace(/^right of\s+/i, "").trim(), beside: "RIGHT" };
    });
