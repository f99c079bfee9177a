/**
 * Runs a template's steps over a reader's rows, streaming (docs/decisions/019 "Templates"):
 * each step is an async generator over the one before, so a 50,000-line file is never held
 * whole (GroupBy and JoinRows hold one group, DeleteRows by negative index a few rows).
 * A test run taps the rows after each step: the first rows, or those numbered in row_numbers.
 */
import { deleteRows } from "./delete-rows";
import { editValues } from "./edit-values";
import { groupBy } from "./group-by";
import { headerCells } from "./header-cells";
import { joinRows } from "./join-rows";
import { mapFields, type Mapped } from "./map-fields";
import { nameColumns } from "./name-columns";
import type { Row, Rows, StepPlace } from "./rows";
import type { Transformation } from "./schema";
import { actionLabel } from "./step-labels";

export const stepName = (t: Transformation) => {
  const action = "action" in t.options ? (t.options as { action: string }).action : null;
  return action ? `${t.type} (${actionLabel(action)})` : t.type;
};

export function applyStep(rows: Rows, t: Transformation, place: StepPlace): Rows {
  switch (t.type) {
    case "DeleteRows":
      return deleteRows(rows, t.options);
    case "EditValues":
      return editValues(rows, t.options, place);
    case "GroupBy":
      return groupBy(rows, t.options, place);
    case "HeaderCells":
      return headerCells(rows, t.options, place);
    case "JoinRows":
      return joinRows(rows, t.options);
    case "NameColumns":
      return nameColumns(rows, t.options);
    case "MapFields":
      throw new Error("MapFields is run by runTemplate");
  }
}

export interface Tap {
  /** which step's output (0 = the file as read) */
  step: number;
  stepName: string;
  rows: Row[];
}

export interface RunOptions {
  /** collect the rows after each step (test run) */
  taps?: { rowNumbers: number[]; limit: number; steps?: Set<number> };
  /** the steps' numbers as the editor shows them (a test run of some steps), else 1, 2, ... */
  numbers?: number[];
}

async function* tap(rows: Rows, into: Tap, wanted: Set<number>, limit: number): Rows {
  for await (const r of rows) {
    if (into.rows.length < limit && (wanted.size === 0 || wanted.has(r.row))) into.rows.push(r);
    yield r;
  }
}

/**
 * The template's steps in order (MapFields last) over `rows`. Answers the mapped lines and
 * problems as an async iterable, and the taps it fills while that is read.
 */
export function runTemplate(rows: Rows, steps: Transformation[], options: RunOptions = {}): { results: AsyncIterable<Mapped>; taps: Tap[] } {
  const taps: Tap[] = [];
  const wanted = new Set(options.taps?.rowNumbers ?? []);
  const limit = options.taps?.limit ?? 0;
  const tapped = (rs: Rows, step: number, name: string) => {
    if (!options.taps || (options.taps.steps && step > 0 && !options.taps.steps.has(step))) return rs;
    const t: Tap = { step, stepName: name, rows: [] };
    taps.push(t);
    return tap(rs, t, wanted, limit);
  };
  let current = tapped(rows, 0, "File");
  const map = steps.find((s) => s.type === "MapFields");
  steps.forEach((t, i) => {
    if (t.type === "MapFields") return;
    const place = { step: options.numbers?.[i] ?? i + 1, stepName: stepName(t) };
    current = tapped(applyStep(current, t, place), place.step, place.stepName);
  });
  // a test run of chosen steps without MapFields: read the rows through for the taps
  if (!map || map.type !== "MapFields") return { results: drain(current), taps };
  const mapPlace = { step: options.numbers?.[steps.indexOf(map)] ?? steps.indexOf(map) + 1, stepName: "MapFields" };
  return { results: mapFields(current, map.options, mapPlace), taps };
}

function drain(rows: Rows): AsyncIterable<Mapped> {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const _ of rows) void _;
      yield* [];
    },
  };
}
