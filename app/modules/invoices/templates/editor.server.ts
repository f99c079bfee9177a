/**
 * The template editor's posts (/carrier_invoice_config and /carrier_invoice_config/{id};
 * docs/decisions/019 "Template screens"). One form carries the whole template, so each button
 * is an intent over what is in the form: add, remove or move a step (answered with the changed
 * form, nothing saved), test run (the unsaved steps over a sample kept on the server), save and
 * delete. Reading is for finance users; every post for invoice admins.
 */
import { asc } from "drizzle-orm";
import type { DbOrTx } from "../../../../db/client.server";
import { carriers } from "../../../../db/schema";
import { AppError, forbidden } from "../../../utils/errors";
import { fieldErrorsFrom, FOR_A_PERSON } from "../../../utils/validation";
import type { CurrentUser } from "../../auth/current-user.server";
import { canAdministerInvoices, canUseFinance } from "../access";
import { CHOOSE_FILE, checkUploadOf, formatOfName, storeSample, withSample } from "../files.server";
import { deleteConfig, getConfig, listConfigs, saveConfig, SAVE_FAILED } from "./configs.server";
import { costRows } from "./editor-text";
import { addStep, configBody, moveStep, optionName, remapErrors, setRemoved, stateFromConfig, stateFromForm, stepNumbers, type EditorState } from "./editor-form";
import { PARSER_FORMATS, unsavedStepsInput } from "./schema";
import { runSample, testRunInput, type TestRunResult } from "./test-run.server";

export type EditorAnswer =
  | { kind: "saved"; id: number }
  | { kind: "deleted" }
  | {
      kind: "form";
      state: EditorState;
      errors: Record<string, string[]>;
      message: string | null;
      /** the control to focus after the round trip (a moved step's button) */
      focus: string | null;
      sample: string | null;
      /** the test run's row numbers as typed */
      rowNumbers: string;
      testRun: TestRunResult | null;
      /** why the test run did not run ('Invalid file format', 'Failed to read in file.', ...) */
      testError: string | null;
    };

const carrierChoices = (db: DbOrTx) => db.select({ id: carriers.id, code: carriers.code, name: carriers.name }).from(carriers).orderBy(asc(carriers.name));

/** /carrier_invoice_configs: the templates (of one carrier when `carrierId`), for finance users. */
export async function templatesScreen(db: DbOrTx, user: CurrentUser, carrierId: number | null) {
  const { carrier_invoice_configs } = await listConfigs(db, user, carrierId ? { carrier_id: carrierId } : {});
  return { configs: carrier_invoice_configs, carriers: await carrierChoices(db), carrierId, canEdit: canAdministerInvoices(user) };
}

/** The editor's template (none: a new one) as its form's state, for finance users. */
export async function editorScreen(db: DbOrTx, user: CurrentUser, id: number | null) {
  if (!canUseFinance(user)) throw forbidden("You may not see invoice templates.");
  const config = id ? await getConfig(db, user, id) : null;
  return { id, state: stateFromConfig(config), carriers: await carrierChoices(db), canEdit: canAdministerInvoices(user) };
}

export async function editorAction(db: DbOrTx, user: CurrentUser, id: number | null, form: FormData): Promise<EditorAnswer> {
  if (!canAdministerInvoices(user)) throw forbidden("You may not change invoice templates.");
  const intent = String(form.get("intent") ?? "save");
  if (intent === "delete") {
    if (!id) throw new AppError("bad_request", "Nothing to delete");
    await deleteConfig(db, user, id);
    return { kind: "deleted" };
  }
  let state = stateFromForm(form);
  const sampleToken = typeof form.get("sample") === "string" ? String(form.get("sample")) : "";
  const answer = (over: Partial<Extract<EditorAnswer, { kind: "form" }>> = {}): EditorAnswer => ({ kind: "form", state, errors: {}, message: null, focus: null, sample: sampleToken || null, rowNumbers: typeof form.get("row_numbers") === "string" ? String(form.get("row_numbers")) : "", testRun: null, testError: null, ...over });
  const [verb, arg] = intent.split(":") as [string, string?];
  const at = Number(arg);
  switch (verb) {
    case "add": {
      const added = addStep(state, String(form.get("new_type") ?? ""));
      return answer({ state: added.state, focus: added.index >= 0 ? optionName(added.index, "action") : "new_type" });
    }
    case "up":
    case "down": {
      const moved = moveStep(state, at, verb === "up" ? -1 : 1);
      return answer({ state: moved.state, focus: moveFocus(moved.state, moved.index, verb) });
    }
    case "remove":
    case "restore":
      state = setRemoved(state, at, verb === "remove");
      return answer({ focus: `step-${at}-${verb === "remove" ? "restore" : "remove"}` });
    case "more":
      // more blank cost rows: every answer brings three (TemplateSteps.tsx)
      return answer({ focus: optionName(state.steps.length - 1, `cost.${costRows(state.steps.at(-1)!.values).length}.category`) });
    case "test":
      return testAnswer(db, user, state, form, sampleToken, answer);
    case "save":
      try {
        const saved = await saveConfig(db, user, id, configBody(state));
        return { kind: "saved", id: saved.id };
      } catch (e) {
        if (e instanceof AppError && e.code === "invalid") return answer({ errors: remapErrors({ ...stepErrors(state), ...e.fieldErrors }, state), message: SAVE_FAILED });
        throw e;
      }
    default:
      throw new AppError("bad_request", "Unknown action");
  }
}

/** The steps' own errors: zod leaves them out while the name or carrier is wrong, and the person should see all at once. */
function stepErrors(state: EditorState): Record<string, string[]> {
  const body = configBody(state);
  const steps = unsavedStepsInput.safeParse({ parser: { format: "CSV", sheets: [] }, transformations: body.transformations }, FOR_A_PERSON);
  return steps.success ? {} : fieldErrorsFrom(steps.error);
}

/** Focus stays on the moved step: its button of the same direction, or the other one at an end. */
function moveFocus(state: EditorState, index: number, verb: "up" | "down"): string {
  const live = state.steps.map((s, i) => (!s.destroyed && s.type !== "MapFields" ? i : -1)).filter((i) => i >= 0);
  const atEnd = verb === "up" ? live[0] === index : live.at(-1) === index;
  return `step-${index}-${atEnd ? (verb === "up" ? "down" : "up") : verb}`;
}

/**
 * The test run of the steps in the form (saved or not): the ticked live steps over the file
 * chosen, or over the sample a run before kept (its token in the form).
 */
async function testAnswer(db: DbOrTx, user: CurrentUser, state: EditorState, form: FormData, token: string, answer: (over: Partial<Extract<EditorAnswer, { kind: "form" }>>) => EditorAnswer): Promise<EditorAnswer> {
  const formats = PARSER_FORMATS.filter((f) => state.formats.includes(f));
  const failed = (errors: Record<string, string[]>, message: string, sample: string | null = token || null) => answer({ errors, testError: message, sample });
  if (!formats.length) return failed({ formats: ["Choose at least one format"] }, "Choose at least one format");
  // parsed under its own name, so a message zod words itself still names the field
  const rows = testRunInput.pick({ row_numbers: true }).safeParse({ row_numbers: form.get("row_numbers") || undefined });
  if (!rows.success) return failed({ row_numbers: [rows.error.issues[0]!.message] }, rows.error.issues[0]!.message);
  // the steps not ticked go to the schema as removed, so its error paths keep the form's indexes
  const body = configBody({ ...state, steps: state.steps.map((s) => ({ ...s, destroyed: s.destroyed || !s.run })) });
  const steps = unsavedStepsInput.safeParse({ parser: body.parser, transformations: body.transformations }, FOR_A_PERSON);
  if (!steps.success) return failed(remapErrors(fieldErrorsFrom(steps.error), state), "Check the steps before the test run");
  const numbers = stepNumbers(state).filter((n, i) => n !== null && state.steps[i]!.run) as number[];
  let sample = token || null;
  try {
    const file = form.get("test_file");
    if (file instanceof File && file.name !== "") {
      const upload = checkUploadOf(file, formats, "test_file");
      sample = await storeSample(db, upload.file, upload.format);
    }
    // the sample is read as the format its name gives, of the formats ticked now
    const format = sample ? formatOfName(sample, formats) : null;
    const testRun = sample && format ? await withSample(db, sample, format, (path) => runSample(path, { format, sheets: steps.data.parser.sheets }, steps.data.transformations, { rowNumbers: rows.data.row_numbers ?? [], numbers })) : null;
    if (!testRun) return failed({ test_file: [CHOOSE_FILE] }, CHOOSE_FILE, null);
    return answer({ sample, testRun });
  } catch (e) {
    if (!(e instanceof AppError) || e.code !== "invalid") throw e;
    const message = e.fieldErrors.file?.[0] ?? e.fieldErrors.test_file?.[0] ?? e.message;
    return failed({ test_file: [message] }, message, sample);
  }
}
