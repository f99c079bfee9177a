import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { useEffect } from "react";
import { Alerts } from "~/components/Alerts";
import { FieldError, FormErrors, TextField, fieldAria } from "~/components/Field";
import { ServerDialog } from "~/components/finance/ServerDialog";
import { MapFieldsEditor, RemovedStep, StepEditor } from "~/components/finance/TemplateSteps";
import { ColumnsSeen, TestRunResults } from "~/components/finance/TestRunResults";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { EDITABLE_TYPES, stepNumbers } from "~/modules/invoices/templates/editor-form";
import { editorAction, editorScreen } from "~/modules/invoices/templates/editor.server";
import { PARSER_FORMATS } from "~/modules/invoices/templates/schema";
import { readPageForm } from "~/utils/http.server";
import { throwIfAccessError } from "~/utils/ui.server";
import { idParam } from "~/utils/validation";

export const meta: MetaFunction = () => [{ title: "Invoice template · FreightDesk" }];

const idOf = (raw: string | undefined) => (raw === undefined ? null : idParam(raw, "Template id"));

/** /carrier_invoice_config (new) and /carrier_invoice_config/{id}: the template editor; ?delete=1 asks to delete. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const q = new URL(request.url).searchParams;
  try {
    const screen = await editorScreen(context.db, user, idOf(params.id));
    return { ...screen, notice: q.get("notice") === "saved" ? "Carrier invoice template saved." : null };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Every button of the editor posts here with its intent (save, delete, add, up:i, down:i, remove:i, restore:i, more, test). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  try {
    const id = idOf(params.id);
    const answer = await editorAction(context.db, user, id, await readPageForm(request));
    if (answer.kind === "saved") return redirect(`/carrier_invoice_config/${answer.id}?notice=saved`);
    if (answer.kind === "deleted") return redirect("/carrier_invoice_configs?notice=deleted");
    // a new key per answer: the form is rebuilt from what came back (moved steps, restored values)
    return data({ ...answer, revision: crypto.randomUUID() }, { status: answer.message || answer.testError ? 422 : 200 });
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export default function CarrierInvoiceConfig() {
  const d = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [params] = useSearchParams();
  const state = answer?.state ?? d.state;
  const errors: Record<string, string[] | undefined> = answer?.errors ?? {};
  const focus = answer?.focus ?? null;
  const formatErrors = errors["parser.formats"] ?? errors["parser.format"] ?? errors.formats;
  const numbers = stepNumbers(state);
  const live = state.steps.map((s, i) => (!s.destroyed && s.type !== "MapFields" ? i : -1)).filter((i) => i >= 0);
  const self = d.id ? `/carrier_invoice_config/${d.id}` : "/carrier_invoice_config";
  useEffect(() => {
    if (focus) document.getElementById(focus)?.focus();
  }, [answer?.revision, focus]);
  return (
    <div className="space-y-4">
      <p>
        <Link to="/carrier_invoice_configs" className="text-sky-800 underline">
          Invoice templates
        </Link>
      </p>
      <h1 className="text-xl font-semibold">{d.id ? `Invoice template: ${d.state.name}` : "New invoice template"}</h1>
      {d.notice && !answer ? <Alerts alerts={[{ type: "success", message: d.notice }]} /> : null}
      {!d.canEdit ? <p className="text-sm text-slate-600">You can read this template; invoice admins change it.</p> : null}
      <Form method="post" encType="multipart/form-data" key={answer?.revision ?? `loaded-${d.id}`} className="space-y-4" aria-label="Template">
        {/* Enter in a field saves: the first submit button is the form's default */}
        {d.canEdit ? (
          <button type="submit" name="intent" value="save" className="sr-only" tabIndex={-1} aria-hidden="true">
            Save
          </button>
        ) : null}
        {answer?.message ? <FormErrors id="form-message" errors={[answer.message]} /> : null}
        <fieldset disabled={!d.canEdit} className="space-y-4">
          <div className="grid gap-2 sm:grid-cols-4">
            <TextField name="name" label="Name" errors={errors} defaultValue={state.name} maxLength={100} />
            <div>
              <label htmlFor="carrier_id" className="label">
                Carrier
              </label>
              <select id="carrier_id" name="carrier_id" className="input" defaultValue={state.carrier_id} {...fieldAria(errors, "carrier_id")}>
                <option value="">Choose a carrier</option>
                {d.carriers.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.code})
                  </option>
                ))}
              </select>
              <FieldError id="carrier_id-error" errors={errors.carrier_id} />
            </div>
            <fieldset aria-describedby={formatErrors ? "formats-hint formats-error" : "formats-hint"}>
              <legend className="label">Formats</legend>
              <input type="hidden" name="formats_shown" value="1" />
              <div className="flex gap-3">
                {PARSER_FORMATS.map((f) => (
                  <label key={f} className="flex items-center gap-1 text-sm">
                    <input type="checkbox" name="formats" value={f} defaultChecked={state.formats.includes(f)} />
                    {f}
                  </label>
                ))}
              </div>
              <p id="formats-hint" className="mt-1 text-xs text-slate-600">
                Every format the carrier sends this layout as; a file is read as its name says (.csv, .xlsx, .xls)
              </p>
              <FieldError id="formats-error" errors={formatErrors} />
            </fieldset>
            <TextField name="sheets" label="Sheets" hint="Comma separated worksheet names; blank reads every sheet" errors={{ sheets: errors["parser.sheets"] }} defaultValue={state.sheets} />
          </div>
          <section aria-labelledby="steps-heading" aria-describedby={errors.transformations ? "transformations-error" : undefined} className="space-y-2">
            <h2 id="steps-heading" className="text-lg font-medium">
              Steps
            </h2>
            {errors.transformations ? <FieldError id="transformations-error" errors={errors.transformations} /> : null}
            <ol className="space-y-2">
              {state.steps.map((s, i) =>
                s.type === "MapFields" ? (
                  <MapFieldsEditor key={i} step={s} index={i} number={numbers[i]!} errors={errors} />
                ) : s.destroyed ? (
                  <RemovedStep key={i} step={s} index={i} canEdit={d.canEdit} focus={focus} />
                ) : (
                  <StepEditor key={i} step={s} index={i} number={numbers[i]!} errors={errors} canEdit={d.canEdit} first={live[0] === i} last={live.at(-1) === i} focus={focus} />
                ),
              )}
            </ol>
            {d.canEdit ? (
              <div className="flex flex-wrap items-end gap-2">
                <div>
                  <label htmlFor="new_type" className="label">
                    New step type
                  </label>
                  <select id="new_type" name="new_type" className="input">
                    {EDITABLE_TYPES.map((t) => (
                      <option key={t}>{t}</option>
                    ))}
                  </select>
                </div>
                <button type="submit" name="intent" value="add" className="btn" disabled={busy}>
                  Add step
                </button>
              </div>
            ) : null}
          </section>
          {d.canEdit ? (
            <section aria-labelledby="test-heading" className="card space-y-2">
              <h2 id="test-heading" className="text-lg font-medium">
                Test run
              </h2>
              <p className="text-xs text-slate-600">Runs the ticked steps as they are in this form, saved or not, over a sample file. The file is kept for an hour, so a second run needs no new choice.</p>
              <input type="hidden" name="sample" value={answer?.sample ?? ""} />
              <div className="grid gap-2 sm:grid-cols-2">
                <div>
                  <label htmlFor="test_file" className="label">
                    Sample file{answer?.sample ? " (blank: the file of the last run)" : ""}
                  </label>
                  <input id="test_file" name="test_file" type="file" accept=".csv,.xlsx,.xls" className="input" {...fieldAria(errors, "test_file")} />
                  <FieldError id="test_file-error" errors={errors.test_file} />
                </div>
                <TextField name="row_numbers" label="Row numbers to show" hint="Comma separated; blank shows the first 20 rows" errors={errors} defaultValue={answer?.rowNumbers ?? ""} />
              </div>
              <button type="submit" name="intent" value="test" className="btn" disabled={busy}>
                Run test
              </button>
              {answer?.testError ? (
                <p role="alert" className="field-error">
                  {answer.testError}
                </p>
              ) : null}
              {answer?.testRun ? <TestRunResults run={answer.testRun} /> : null}
            </section>
          ) : null}
        </fieldset>
        <ColumnsSeen run={answer?.testRun ?? null} />
        {d.canEdit ? (
          <div className="flex gap-2">
            <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
              Save
            </button>
            {d.id ? (
              <Link id="delete-template" to={`${self}?delete=1`} className="btn-danger" preventScrollReset>
                Delete
              </Link>
            ) : null}
          </div>
        ) : null}
      </Form>
      {d.canEdit && d.id && params.get("delete") === "1" ? (
        <ServerDialog title="Delete this template?" closeHref={self} returnFocusId="delete-template">
          <p>
            {d.state.name} will be deleted. Invoices imported with it keep their lines.
          </p>
          <Form method="post" className="flex gap-2">
            <button type="submit" name="intent" value="delete" className="btn-danger">
              Delete template
            </button>
            <Link to={self} className="btn" replace>
              Cancel
            </Link>
          </Form>
        </ServerDialog>
      ) : null}
    </div>
  );
}
