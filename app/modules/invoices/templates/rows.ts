/**
 * The rows a carrier invoice template works on (docs/decisions/019 "Templates"). A reader gives
 * each non-empty row of the file with its 1-based row number and its cells keyed by column
 * letter (A, B, ... AA); NameColumns renames the keys. A step that cannot handle a row marks it
 * with a problem naming the step; later steps pass such a row through untouched and MapFields
 * reports it, so a template that does not fit a file says which row and which step broke.
 */
export interface RowProblem {
  /** 1-based position of the step in the template, and its type and action */
  step: number;
  stepName: string;
  message: string;
}

export interface Row {
  /** the row's number in its file or sheet (1-based, counting the rows a step removed) */
  row: number;
  sheet?: string;
  values: Record<string, string>;
  problem?: RowProblem;
}

export type Rows = AsyncIterable<Row>;

/** Where a step sits in its template, for the problems it reports. */
export interface StepPlace {
  step: number;
  stepName: string;
}

export const problemAt = (place: StepPlace, message: string): RowProblem => ({ step: place.step, stepName: place.stepName, message });

/** "A" for 0, "Z" for 25, "AA" for 26: the spreadsheet's own column names. */
export function columnLetter(index: number): string {
  let n = index + 1;
  let s = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    s = String.fromCharCode(65 + rem) + s;
    n = Math.floor((n - 1) / 26);
  }
  return s;
}

/** The cells of one physical row as a Row keyed by column letter; null when every cell is blank. */
export function rowOf(row: number, cells: readonly string[], sheet?: string): Row | null {
  const values: Record<string, string> = {};
  let any = false;
  cells.forEach((c, i) => {
    const v = (c ?? "").trim();
    if (v !== "") any = true;
    values[columnLetter(i)] = v;
  });
  if (!any) return null;
  return sheet === undefined ? { row, values } : { row, sheet, values };
}

/** "row 12" or "row 12 of sheet Charges", for messages. */
export const rowLabel = (r: Pick<Row, "row" | "sheet">) => (r.sheet ? `row ${r.row} of sheet ${r.sheet}` : `row ${r.row}`);

/** A case-insensitive regular expression from a template's pattern; a bad pattern matches its text literally. */
export function patternOf(pattern: string): RegExp {
  try {
    return new RegExp(pattern, "i");
  } catch {
    return new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
  }
}
