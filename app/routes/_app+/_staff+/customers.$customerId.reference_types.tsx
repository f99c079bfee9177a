import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type MouseEvent } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { CustomerAdminNav } from "~/components/admin/CustomerAdminNav";
import { requireStaff } from "~/modules/auth/guard.server";
import { MESSAGES, REFERENCE_MAX, canSort, moveRow } from "~/modules/customers/admin";
import { getCustomReferences, saveCustomReferences } from "~/modules/customers/references.server";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Custom References · FreightDesk" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const id = pageId(params.customerId);
  try {
    const [refs, crumbs] = await Promise.all([getCustomReferences(context.db, user, id), breadcrumbTrail(context.db, user, { model: "reference_types", parent: "customer", parent_id: id })]);
    const alerts: Alert[] = new URL(request.url).searchParams.has("saved") ? [{ type: "success", message: MESSAGES.referencesSaved }] : [];
    return { customer: refs.customer, saved: refs.custom_references.map((r) => r.reference), crumbs, alerts };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/**
 * intent save: stores the rows (blank new rows left out). add / remove:i change the rows on the
 * page only (unsaved, for a browser without JavaScript). up:i / down:i sort what is saved, and
 * are refused while the rows differ from it.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const id = pageId(params.customerId);
  const form = await readPageForm(request);
  const rows = form.getAll("reference").map(String);
  const intent = String(form.get("intent") ?? "save");
  const [verb, at] = intent.split(":");
  const index = Number(at);
  try {
    if (verb === "add") return { rows: [...rows, ""], errors: {} as FieldErrors, message: null };
    if (verb === "remove") return { rows: rows.filter((_, i) => i !== index), errors: {} as FieldErrors, message: null };
    if (verb === "up" || verb === "down") {
      const saved = (await getCustomReferences(context.db, user, id)).custom_references.map((r) => r.reference);
      if (!canSort(rows, saved)) return data({ rows, errors: {} as FieldErrors, message: MESSAGES.saveBeforeSorting }, { status: 409 });
      await saveCustomReferences(context.db, user, id, moveRow(saved, index, verb));
      return redirect(`/customers/${id}/reference_types`);
    }
    // a row left blank is a new row not filled in: dropped, not refused
    await saveCustomReferences(context.db, user, id, rows.map((r) => r.trim()).filter(Boolean));
    return redirect(`/customers/${id}/reference_types?saved=1`);
  } catch (e) {
    if (e instanceof AppError && e.code === "invalid") return data({ rows, errors: e.fieldErrors, message: e.message }, { status: 422 });
    throwIfAccessError(e);
    throw e;
  }
}

export default function ReferenceTypes() {
  const { customer, saved, crumbs, alerts } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const [rows, setRows] = useState<string[]>(result?.rows ?? saved);
  const [message, setMessage] = useState<string | null>(null);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  // a new answer from the server (or a save's reload) starts the rows again from it
  useEffect(() => {
    setRows(result?.rows ?? saved);
    setMessage(null);
  }, [result, saved]);
  const errors = result?.errors ?? {};
  const shown = rows.length ? rows : [""];
  // after Add row, the new row takes the focus (keyboard entry goes straight on)
  const focusNew = useRef(false);
  useEffect(() => {
    if (!focusNew.current) return;
    focusNew.current = false;
    document.getElementById(`reference-${rows.length - 1}`)?.focus();
  }, [rows.length]);
  // with JavaScript, add and remove stay on the page and an unsaved sort is refused at once
  const local = (e: MouseEvent<HTMLButtonElement>, change: () => void) => {
    e.preventDefault();
    change();
  };
  const sort = (e: MouseEvent<HTMLButtonElement>) => {
    if (!canSort(rows, saved)) local(e, () => setMessage(MESSAGES.saveBeforeSorting));
  };
  const error = message ?? result?.message ?? null;
  return (
    <div className="max-w-3xl space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">Custom References</h1>
      <CustomerAdminNav customerId={customer.id} generic={customer.generic} />
      <Alerts alerts={error ? [{ type: "error", message: error }] : alerts} />
      {!customer.generic ? (
        <p className="text-sm text-slate-700">{MESSAGES.referencesNotGeneric}. Change the custom reference type on the customer&apos;s details first.</p>
      ) : (
        <Form method="post" className="card space-y-2" aria-label="Custom References" data-testid="reference-types" data-hydrated={hydrated ? "true" : undefined}>
          {/* no maxlength on the rows: it cut a pasted reference without a word, and the save then said saved */}
          <p className="text-xs text-slate-600">Each reference at most {REFERENCE_MAX} characters.</p>
          <ol className="space-y-2">
            {shown.map((r, i) => {
              const label = `Reference ${i + 1}`;
              const err = errors[String(i)]?.[0];
              return (
                <li key={i} className="flex flex-wrap items-start gap-2" data-testid="reference-row">
                  <div className="grow">
                    <label htmlFor={`reference-${i}`} className="sr-only">
                      {label}
                    </label>
                    <input
                      id={`reference-${i}`}
                      name="reference"
                      value={r}
                      className="input w-full"
                      aria-invalid={err ? true : undefined}
                      aria-describedby={err ? `reference-${i}-error` : undefined}
                      onChange={(e) => setRows((now) => (now.length ? now : [""]).map((v, j) => (j === i ? e.target.value : v)))}
                    />
                    {err ? (
                      <p id={`reference-${i}-error`} className="field-error">
                        {err}
                      </p>
                    ) : null}
                  </div>
                  {rows.length > 0 && (
                    <>
                      <button type="submit" name="intent" value={`up:${i}`} className="btn" aria-label={`Move ${r || label} up`} disabled={busy || i === 0} onClick={sort}>
                        ↑
                      </button>
                      <button type="submit" name="intent" value={`down:${i}`} className="btn" aria-label={`Move ${r || label} down`} disabled={busy || i >= rows.length - 1} onClick={sort}>
                        ↓
                      </button>
                      <button type="submit" name="intent" value={`remove:${i}`} className="btn-danger" aria-label={`Remove ${r || label}`} disabled={busy} onClick={(e) => local(e, () => setRows((now) => now.filter((_, j) => j !== i)))}>
                        Remove
                      </button>
                    </>
                  )}
                </li>
              );
            })}
          </ol>
          <div className="flex gap-2">
            <button type="submit" name="intent" value="add" className="btn" disabled={busy} onClick={(e) =>
                local(e, () => {
                  focusNew.current = true;
                  setRows((now) => [...(now.length ? now : [""]), ""]);
                })
              }>
              Add row
            </button>
            <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
              Save
            </button>
          </div>
        </Form>
      )}
    </div>
  );
}
