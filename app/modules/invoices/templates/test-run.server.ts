/**
 * The test run of a template (POST /api/carrier_invoice_configs/test_run and the editor's Test
 * run form; docs/decisions/019 "Templates"): a saved template (or the editor's unsaved steps,
 * editor-test-run.server.ts) over an uploaded file, showing the rows after each step and what
 * MapFields made of them. Nothing is stored; the API's file is removed.
 * A template that does not fit the file answers `error` naming the first row and step that broke.
 */
import { z } from "zod";
import type { DbOrTx } from "../../../../db/client.server";
import { AppError } from "../../../utils/errors";
import type { CurrentUser } from "../../auth/current-user.server";
import { checkUploadOf, withUpload } from "../files.server";
import { getConfig } from "./configs.server";
import { problemText, type MappedLine } from "./map-fields";
import { runTemplate, type Tap } from "./pipeline";
import type { ParserFormat, Transformation } from "./schema";
import { FAILED_TO_READ, FileReadError, readRows } from "./readers.server";

export const NO_ROWS = "No rows present in import results.";
const SHOWN = 20;
const PROBLEMS_SHOWN = 100;

const idList = z.preprocess(
  (v) => (typeof v === "string" ? v.split(/[\s,]+/).filter(Boolean) : Array.isArray(v) ? v : v == null ? [] : [v]),
  z.array(z.coerce.number({ error: "Give whole numbers" }).int("Give whole numbers").positive("Give whole numbers")).max(200),
);
export const testRunInput = z.object({
  id: z.coerce.number({ error: "Choose a template" }).int().positive("Choose a template"),
  row_numbers: idList.optional(),
  transform_ids: idList.optional(),
});

export interface TestRunResult {
  steps: { step: number; name: string; transform_id: number | null; rows: Tap["rows"] }[];
  lines: MappedLine[];
  total_lines: number;
  problems: { row: number; sheet?: string; step: number; step_name: string; message: string }[];
  /** the first problem in words ('Row 4: ...') */
  error: string | null;
}


export async function testRun(db: DbOrTx, user: CurrentUser, fields: Record<string, unknown>, file: FormDataEntryValue | null): Promise<TestRunResult> {
  const input = testRunInput.safeParse(fields);
  if (!input.success) throw new AppError("invalid", "Check the test run", Object.fromEntries(input.error.issues.map((i) => [String(i.path[0] ?? "base"), [i.message]])));
  const config = await getConfig(db, user, input.data.id);
  const upload = checkUploadOf(file, config.parser.formats);
  const chosen = new Set(input.data.transform_ids ?? []);
  const steps = chosen.size ? config.transformations.filter((t) => chosen.has(t.id)) : config.transformations;
  // a test run keeps nothing: the upload is read from a scratch copy removed at once
  return withUpload(upload.file, upload.format, (path) => runSample(path, { format: upload.format, sheets: config.parser.sheets }, steps, { rowNumbers: input.data.row_numbers ?? [] }));
}

/**
 * Runs `steps` (a saved template's, or the editor's unsaved ones) over a file already stored.
 * `numbers` are the steps' numbers as the editor shows them when only some run.
 */
export async function runSample(path: string, parser: { format: ParserFormat; sheets: string[] }, steps: Transformation[], options: { rowNumbers: number[]; numbers?: number[] }): Promise<TestRunResult> {
  try {
    const rows = await readRows(path, parser.format, parser.sheets);
    const { results, taps } = runTemplate(rows, steps, { taps: { rowNumbers: options.rowNumbers, limit: SHOWN }, ...(options.numbers ? { numbers: options.numbers } : {}) });
    const lines: MappedLine[] = [];
    const problems: TestRunResult["problems"] = [];
    let total = 0;
    let firstProblem: string | null = null;
    for await (const m of results) {
      if (m.ok) {
        total += 1;
        if (lines.length < SHOWN) lines.push(m.line);
      } else {
        firstProblem ??= problemText(m);
        if (problems.length < PROBLEMS_SHOWN) problems.push({ row: m.row, ...(m.sheet ? { sheet: m.sheet } : {}), step: m.problem.step, step_name: m.problem.stepName, message: m.problem.message });
      }
    }
    const mapped = steps.some((s) => s.type === "MapFields");
    const empty = mapped ? total === 0 && problems.length === 0 : (taps.at(-1)?.rows.length ?? 0) === 0;
    if (empty) throw new AppError("invalid", NO_ROWS, { file: [NO_ROWS] });
    return {
      steps: taps.map((t) => ({ step: t.step, name: t.stepName, transform_id: t.step === 0 ? null : (steps[taps.indexOf(t) - 1]?.id ?? null), rows: t.rows })),
      lines,
      total_lines: total,
      problems,
      error: firstProblem,
    };
  } catch (e) {
    if (e instanceof AppError) throw e;
    const message = e instanceof FileReadError ? e.message : FAILED_TO_READ;
    if (!(e instanceof FileReadError)) console.warn("invoice test run could not read a file", e);
    throw new AppError("invalid", message, { file: [message] });
  }
}
