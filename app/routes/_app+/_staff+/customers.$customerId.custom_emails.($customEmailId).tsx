import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { FieldError, useFocusFirstInvalid } from "~/components/Field";
import { TemplateEditor, templateEditorLinks } from "~/components/notifications/TemplateEditor";
import { requireStaff } from "~/modules/auth/guard.server";
import { KIND_FIELDS, KIND_HINTS, KIND_LABELS, MESSAGES, SUBJECT_MAX, type CustomEmailKind } from "~/modules/custom-emails/custom-emails";
import { checkCustomEmail, getCustomEmail, kindFromPath, listCustomEmails, resetCustomEmail, saveCustomEmail } from "~/modules/custom-emails/custom-emails.server";
import { customWording, previewWording } from "~/modules/custom-emails/wording.server";
import { TEMPLATE_TAGS } from "~/modules/templates/tags";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const links: LinksFunction = templateEditorLinks;
export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: `${d?.editing ? `${KIND_LABELS[d.editing.kind]} · ` : ""}Custom e-mails · ${d?.customer.name ?? ""} · FreightDesk` }];

/** A path's {customEmailId}: a kind, or a row id of this customer; anything else is the page's 404. */
async function kindOf(context: LoaderFunctionArgs["context"], user: Parameters<typeof kindFromPath>[1], customerId: number, value: string | undefined) {
  try {
    return await kindFromPath(context.db, user, customerId, value);
  } catch (e) {
    if (e instanceof AppError && e.code === "invalid") throw new Response("Not Found", { status: 404 });
    throw e;
  }
}

/**
 * /customers/{customerId}/custom_emails: the two kinds (return e-mail, notification frame);
 * /custom_emails/{kind or id}: that one's editor and preview. `?done=saved|reset` says what happened.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  try {
    const customer = await customerForStaff(context.db, user, customerId);
    const list = await listCustomEmails(context.db, user, customerId);
    const crumbs = await breadcrumbTrail(context.db, user, { model: "custom_emails", parent: "customer", parent_id: customerId });
    const done = new URL(request.url).searchParams.get("done");
    const alerts: Alert[] = done === "saved" ? [{ type: "success", message: MESSAGES.saved }] : done === "reset" ? [{ type: "success", message: MESSAGES.reset }] : [];
    if (!params.customEmailId) return { customer: { id: customer.id, name: customer.name }, list, editing: null, preview: null, alerts, tags: [] as string[], crumbs };
    const kind = await kindOf(context, user, customerId, params.customEmailId);
    // a row's id is a second address of its kind's editor
    if (params.customEmailId !== kind) throw redirect(`/customers/${customerId}/custom_emails/${kind}`);
    const editing = await getCustomEmail(context.db, user, customerId, kind);
    // the stored wording as the e-mails fill it in: one that cannot be is shown with why, not run
    const preview = await previewWording(kind, await customWording(context.db, customerId, kind), customer.name);
    // the tags come with the data: template.server.ts is not in the browser bundle
    return { customer: { id: customer.id, name: customer.name }, list, editing, preview, alerts, tags: [...TEMPLATE_TAGS] as string[], crumbs: [...crumbs, { label: KIND_LABELS[kind], url: `/customers/${customerId}/custom_emails/${kind}` }] };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

const FIELDS = ["subject", "header", "body", "footer"] as const;
type Values = Record<(typeof FIELDS)[number], string>;

/** intent save: stores the wording; reset: deletes it (the default again); preview: shows the unsaved wording. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const customerId = pageId(params.customerId);
  const form = await readPageForm(request);
  const intent = String(form.get("intent") ?? "save");
  const values = Object.fromEntries(FIELDS.map((k) => [k, String(form.get(k) ?? "")])) as Values;
  try {
    const customer = await customerForStaff(context.db, user, customerId);
    const kind = await kindOf(context, user, customerId, params.customEmailId);
    const back = `/customers/${customerId}/custom_emails/${kind}`;
    if (intent === "reset") {
      await resetCustomEmail(context.db, user, customerId, kind);
      return redirect(`${back}?done=reset`);
    }
    if (intent === "preview") {
      const checked = checkCustomEmail(kind, values);
      return { message: null, errors: {} as FieldErrors, values, preview: await previewWording(kind, checked, customer.name) };
    }
    await saveCustomEmail(context.db, user, customerId, kind, values);
    return redirect(`${back}?done=saved`);
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    const invalid = e.code === "invalid";
    return data(
      { message: invalid ? `The custom e-mail was not ${intent === "preview" ? "previewed" : "saved"}: ${e.fieldErrors?.base?.[0] ?? "please correct the fields marked."}` : e.message, errors: (invalid ? e.fieldErrors : {}) as FieldErrors, values, preview: null },
      { status: e.status },
    );
  }
}

const PART_LABELS = { header: "Header", body: "Body", footer: "Footer" } as const;
const PART_HINTS: Record<CustomEmailKind, Partial<Record<keyof typeof PART_LABELS, string>>> = {
  return: { header: "Above the body.", body: "In place of the default text; the return's own notes follow it. Blank keeps the default text.", footer: "Below the body." },
  notification: { header: "Above every notification's own text.", footer: "Below every notification's own text." },
};

export default function CustomEmails() {
  const { customer, list, editing, preview: saved, alerts, tags, crumbs } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values ?? null;
  const preview = result?.preview ?? saved;
  const form = useFocusFirstInvalid(result?.errors);
  const base = `/customers/${customer.id}/custom_emails`;
  return (
    <div className="max-w-4xl space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">Custom e-mails of {customer.name}</h1>
      <Alerts alerts={result?.message ? [{ type: "error", message: result.message }] : alerts} />
      <table className="table w-full" aria-label="Custom e-mails">
        <thead>
          <tr>
            <th scope="col">E-mail</th>
            <th scope="col">Used for</th>
            <th scope="col">Wording</th>
          </tr>
        </thead>
        <tbody>
          {list.map((e) => (
            <tr key={e.kind} data-testid={`custom-email-${e.kind}`}>
              <td>
                <Link to={`${base}/${e.kind}`} aria-current={editing?.kind === e.kind ? "page" : undefined} className="link">
                  {KIND_LABELS[e.kind]}
                </Link>
              </td>
              <td className="text-sm">{KIND_HINTS[e.kind]}</td>
              <td>{e.customised ? `Custom (saved ${e.updated_at?.slice(0, 10)})` : "Default"}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing && (
        <section className="space-y-3" aria-labelledby="editor-heading">
          <h2 id="editor-heading" className="text-lg font-semibold">
            {KIND_LABELS[editing.kind]}
          </h2>
          <p className="text-sm text-slate-700">{KIND_HINTS[editing.kind]} {editing.customised ? "This customer has its own wording." : "The default wording is used: write to replace it."}</p>
          {/* keyed by the kind and save time: Save's redirect starts the fields again from what is stored */}
          <Form key={`${editing.kind}-${editing.updated_at ?? "default"}`} ref={form} method="post" className="card space-y-3" aria-labelledby="editor-heading">
            {errors.base?.length ? <p className="field-error">{errors.base.join(" ")}</p> : null}
            {KIND_FIELDS[editing.kind].includes("subject") && (
              <div>
                <label htmlFor="subject" className="label">
                  Subject
                </label>
                <input
                  id="subject"
                  name="subject"
                  maxLength={SUBJECT_MAX}
                  defaultValue={values?.subject ?? editing.subject ?? ""}
                  placeholder="Collection labels for consignment {{ consignment_number }}"
                  className="input"
                  aria-invalid={errors.subject?.length ? true : undefined}
                  aria-describedby={errors.subject?.length ? "subject-error" : "subject-hint"}
                />
                <p id="subject-hint" className="text-xs text-slate-600">
                  Blank keeps the default subject. Tags such as {"{{ consignment_number }}"} may be used.
                </p>
                <FieldError id="subject-error" errors={errors.subject} />
              </div>
            )}
            {(["header", "body", "footer"] as const)
              .filter((f) => KIND_FIELDS[editing.kind].includes(f))
              .map((f) => (
                <TemplateEditor
                  key={f}
                  id={f}
                  name={f}
                  label={PART_LABELS[f]}
                  defaultValue={values?.[f] ?? editing[f] ?? ""}
                  tags={tags}
                  hint={PART_HINTS[editing.kind][f]}
                  error={errors[f]?.join(" ")}
                />
              ))}
            <div className="flex flex-wrap items-center gap-2">
              <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
                Save
              </button>
              <button type="submit" name="intent" value="preview" className="btn" disabled={busy}>
                Preview
              </button>
              {editing.customised && (
                <button type="submit" name="intent" value="reset" className="btn" disabled={busy} formNoValidate>
                  Reset to default
                </button>
              )}
            </div>
          </Form>
          {preview && (
            <section aria-labelledby="preview-heading" className="card space-y-2">
              <h3 id="preview-heading" className="font-semibold">
                Preview{result?.preview ? " (not saved)" : ""}
              </h3>
              {preview.error && (
                <p className="field-error" role="alert" data-testid="preview-error">
                  {preview.error}. Correct the wording and save it, or use Reset to default.
                </p>
              )}
              {preview.subject !== null && (
                <p data-testid="preview-subject">
                  <span className="font-medium">Subject:</span> {preview.subject}
                </p>
              )}
              {/* the mail's HTML: sanitised parts with escaped values and inlined styles, as notices are shown */}
              <div className="rounded border border-slate-300 bg-white p-3" data-testid="preview" dangerouslySetInnerHTML={{ __html: preview.html }} />
            </section>
          )}
        </section>
      )}
    </div>
  );
}
