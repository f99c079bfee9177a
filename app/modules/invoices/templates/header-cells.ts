/**
 * HeaderCells: values above the column header (invoice number, invoice date, account number,
 * billing period) into columns of every line (issue 29 item 6). Placed before NameColumns, while
 * cells are still keyed by letter:
 * - `header_row` is the column header's row: the rows before it are the header block (passed on
 *   as they are, for NameColumns or DeleteRows to drop) and are held, at most MAX_HEADER_ROW.
 * - each of `cells` is read from the block by `column` and `row` (B3), or by a `label`: the cell
 *   whose text is the label (case aside, a trailing colon either side ignored) and the value
 *   RIGHT of it (the next non-blank cell of its row) or BELOW it (the next non-blank cell of its
 *   column); "Invoice No: NL-1" in one cell gives "NL-1".
 * - the header row gets each cell's name as its own header text, so NameColumns ROW_INDEX names
 *   the new column after itself; every row after it gets the values under those names.
 * A label found nowhere in the block marks every line, naming the label: the template does not
 * fit the file. Like NameColumns, the block is read once, from the first sheet that reaches the
 * header row.
 */
import { z } from "zod";
import { problemAt, type Row, type RowProblem, type Rows, type StepPlace } from "./rows";

export const MAX_HEADER_ROW = 200;
const name = z.string().trim().min(1, "Name is required").max(100);

export const headerCellsOptions = z
  .object({
    header_row: z.number().int().min(2, "The header block is the rows above the header row: 2 or more").max(MAX_HEADER_ROW, `The header row is at most row ${MAX_HEADER_ROW}`),
    cells: z
      .array(
        z.union([
          z.object({ name, column: z.string().trim().regex(/^[A-Z]{1,3}$/, "Column is a letter (A, B, ... AA)"), row: z.number().int().min(1, "Row numbers start at 1") }).strict(),
          z.object({ name, label: z.string().trim().min(1, "Label is required").max(200), beside: z.enum(["RIGHT", "BELOW"]).default("RIGHT") }).strict(),
        ], { error: "Give a cell (column and row) or a label" }),
      )
      .min(1, "Give at least one cell")
      .max(50, "At most 50 cells"),
  })
  .superRefine((o, ctx) => {
    o.cells.forEach((c, i) => {
      if ("row" in c && c.row >= o.header_row) ctx.addIssue({ code: "custom", path: ["cells", i, "row"], message: `${c.name}: row ${c.row} is not above the header row ${o.header_row}` });
    });
    const names = o.cells.map((c) => c.name.toLowerCase());
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) ctx.addIssue({ code: "custom", path: ["cells"], message: `${twice} is named twice` });
  });
export type HeaderCellsOptions = z.infer<typeof headerCellsOptions>;

const bare = (s: string) => s.trim().replace(/\s*:$/, "").trim().toLowerCase();
const byColumn = (r: Row) => Object.entries(r.values).filter(([k]) => /^[A-Z]+$/.test(k));
const columnIndex = (letter: string) => [...letter].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;

/** The cells' values from the block's rows; a label not found is a problem's message. */
export function readBlock(block: Row[], o: HeaderCellsOptions): { values: Record<string, string>; missing: string | null } {
  const values: Record<string, string> = {};
  let missing: string | null = null;
  for (const c of o.cells) {
    if ("row" in c) {
      values[c.name] = block.find((r) => r.row === c.row)?.values[c.column] ?? "";
      continue;
    }
    const found = findLabel(block, c.label, c.beside);
    if (found === null) missing ??= `No cell above row ${o.header_row} reads '${c.label}' (${c.name})`;
    values[c.name] = found ?? "";
  }
  return { values, missing };
}

function findLabel(block: Row[], label: string, beside: "RIGHT" | "BELOW"): string | null {
  const want = bare(label);
  for (const [ri, r] of block.entries()) {
    for (const [k, text] of byColumn(r)) {
      const t = text.trim();
      if (bare(t) === want) {
        if (beside === "RIGHT") {
          const after = byColumn(r).filter(([k2, v]) => columnIndex(k2) > columnIndex(k) && v.trim() !== "").sort(([a], [b]) => columnIndex(a) - columnIndex(b));
          return after[0]?.[1].trim() ?? "";
        }
        const below = block.slice(ri + 1).find((r2) => (r2.values[k] ?? "").trim() !== "");
        return below?.values[k]!.trim() ?? "";
      }
      // "Invoice No: NL-1" in one cell
      const m = /^(.*?):\s*(.+)$/.exec(t);
      if (m && bare(m[1]!) === want) return m[2]!.trim();
    }
  }
  return null;
}

export async function* headerCells(rows: Rows, o: HeaderCellsOptions, place: StepPlace): Rows {
  const block: Row[] = [];
  let found: { values: Record<string, string>; problem: RowProblem | null } | null = null;
  for await (const r of rows) {
    if (found) {
      if (r.problem) yield r;
      else yield found.problem ? { ...r, values: { ...r.values, ...found.values }, problem: found.problem } : { ...r, values: { ...r.values, ...found.values } };
      continue;
    }
    if (r.row < o.header_row) {
      block.push(r);
      yield r;
      continue;
    }
    // the header row is the first row at or after header_row (a blank row there was never read)
    const read = readBlock(block, o);
    found = { values: read.values, problem: read.missing ? problemAt(place, read.missing) : null };
    block.length = 0;
    yield { ...r, values: { ...r.values, ...Object.fromEntries(o.cells.map((c) => [c.name, c.name])) } };
  }
}
