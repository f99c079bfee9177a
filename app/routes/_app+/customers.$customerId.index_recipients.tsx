import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { JobProgress, type JobStatusJson } from "~/components/JobProgress";
import { UploadErrors } from "~/components/UploadErrors";
import { RecipientForm } from "~/components/recipients/RecipientForm";
import { RecipientList } from "~/components/recipients/RecipientList";
import { RecipientsImport } from "~/components/recipients/RecipientsImport";
import { requireUser } from "~/modules/auth/guard.server";
import { recipientsScreen, recipientsScreenAction } from "~/modules/recipients/screen.server";
import { AppError } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Recipients · FreightDesk" }];

/** The list's URL with some parameters changed (null drops one); one-off flags always dropped. */
function withParams(url: URL, changes: Record<string, string | null>): string {
  const params = new URLSearchParams(url.search);
  for (const k of ["saved", "deleted", "sites_added", "index", "import"]) params.delete(k);
  for (const [k, v] of Object.entries(changes)) {
    if (v === null) params.delete(k);
    else params.set(k, v);
  }
  const query = params.toString();
  return `${url.pathname}${query ? `?${query}` : ""}`;
}

/** A customer's address book (staff: any customer's; a despatcher: their own, else 404). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const url = new URL(request.url);
  try {
    const screen = await recipientsScreen(context.db, user, pageId(params.customerId), url);
    const alerts: Alert[] = [];
    if (url.searchParams.has("saved")) alerts.push({ type: "success", message: "Recipient saved." });
    if (url.searchParams.has("deleted")) alerts.push({ type: "success", message: "Recipient deleted." });
    if (url.searchParams.has("sites_added")) alerts.push({ type: "success", message: `Sites imported as recipients: ${Number(url.searchParams.get("sites_added")) || 0} added.` });
    return { ...screen, alerts, path: url.pathname, search: url.search };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Save, delete, delete all (a job), import sites, or an uploaded file (the import, a job). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const customerId = pageId(params.customerId);
  const url = new URL(request.url);
  let posted: Record<string, string> | undefined;
  try {
    const outcome = await recipientsScreenAction(context.db, context.queue, user, customerId, request, async () => {
      const form = await readPageForm(request);
      posted = Object.fromEntries([...form].filter(([k, v]) => k.startsWith("address.") && typeof v === "string").map(([k, v]) => [k.slice(8), String(v)]));
      return form;
    });
    if (outcome.kind === "saved") return redirect(withParams(url, { edit: null, saved: "1" }));
    if (outcome.kind === "deleted") return redirect(withParams(url, { edit: null, deleted: "1" }));
    if (outcome.kind === "sites") return redirect(withParams(url, { sites_added: String(outcome.created) }));
    if (outcome.kind === "job") return redirect(withParams(url, { confirm: null, job: outcome.jobId }));
    // the import is a job: its progress, then its report, on the list's page (also without JavaScript)
    return redirect(withParams(url, { edit: null, import: outcome.jobId }));
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    throwIfAccessError(e);
    const errors: Record<string, string[]> = Object.fromEntries(Object.entries(e.fieldErrors ?? {}).map(([k, v]) => [k === "file" || k === "base" ? k : `address.${k}`, v]));
    return data({ error: e.message, errors, posted }, { status: e.status });
  }
}

export default function Recipients() {
  const screen = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const revalidator = useRevalidator();
  const busy = useNavigation().state !== "idle";
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const url = new URL(`http://x${screen.path}${screen.search}`);
  const { customer } = screen;
  const alerts: Alert[] = [...screen.alerts];
  const imported = screen.importJob?.result;
  if (imported) alerts.push({ type: imported.skipped_total ? "warning" : "success", message: imported.message });
  if (result?.error && !result.posted) alerts.push({ type: "error", message: result.error });
  return (
    <div className="space-y-4" data-testid="recipients-screen" data-hydrated={hydrated ? "true" : "false"}>
      <Breadcrumbs crumbs={screen.crumbs} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Recipients of {customer.name}</h1>
        <div className="flex flex-wrap gap-2">
          {customer.canEdit ? (
            <Link to={withParams(url, { edit: "new" })} className="btn-primary">
              New recipient
            </Link>
          ) : null}
          <a href={`/api/export_recipients/${customer.id}`} className="btn" download>
            Export all
          </a>
          {customer.canEdit ? (
            <Link to={withParams(url, { confirm: "delete_all" })} className="btn">
              Delete all
            </Link>
          ) : null}
        </div>
      </div>
      <Alerts alerts={alerts} />
      {imported ? <UploadErrors lines={imported.skipped} total={imported.skipped_total} /> : null}
      {screen.importJob && !imported ? (
        <section aria-label="Import progress" className="card space-y-2">
          <JobProgress jobId={screen.importJob.id} initial={screen.importJob.status as JobStatusJson} onDone={() => revalidator.revalidate()} />
          {screen.importJob.status.status === "failed" ? null : (
            <p className="text-sm text-slate-600">
              The file is being imported. <Link to={`${screen.path}${screen.search}`}>Refresh</Link> to see the progress and the result.
            </p>
          )}
        </section>
      ) : null}
      {screen.job ? (
        <section aria-label="Delete all progress" className="card">
          <JobProgress jobId={screen.job.id} initial={screen.job.status as JobStatusJson} onDone={() => revalidator.revalidate()} />
        </section>
      ) : null}
      {screen.confirmDeleteAll && customer.canEdit ? (
        <Form method="post" className="card space-y-2" aria-label="Delete all recipients">
          <p role="alert">Delete every recipient of {customer.name}? This cannot be undone.</p>
          <input type="hidden" name="intent" value="delete_all" />
          <div className="flex gap-2">
            <button type="submit" className="btn-primary" disabled={busy} autoFocus>
              Delete all recipients
            </button>
            <Link to={withParams(url, { confirm: null })} className="btn">
              Cancel
            </Link>
          </div>
        </Form>
      ) : null}
      {customer.canEdit && screen.editing ? (
        <RecipientForm
          key={`${screen.editing === "new" ? "new" : screen.editing.id}`}
          recipient={screen.editing === "new" ? null : screen.editing}
          errors={result?.posted ? result.errors : {}}
          posted={result?.posted}
          cancelTo={withParams(url, { edit: null })}
        />
      ) : null}
      {result?.posted && result.error ? <p className="sr-only" role="alert">{result.error}</p> : null}
      {customer.canEdit ? <RecipientsImport globalRecipients={customer.globalRecipients} fileError={result?.errors?.file?.[0]} /> : null}
      <Form method="get" className="flex items-end gap-2" role="search" aria-label="Filter recipients">
        <div>
          <label htmlFor="recipients-q" className="label">
            Name starts with
          </label>
          <input id="recipients-q" name="q" type="search" className="input" defaultValue={screen.q} maxLength={100} />
        </div>
        <button type="submit" className="btn">
          Filter
        </button>
      </Form>
      <RecipientList
        customerId={customer.id}
        first={{ recipients: screen.recipients, offset: screen.offset, has_more: screen.has_more, next: screen.next }}
        q={screen.q}
        canEdit={customer.canEdit}
        pageUrl={(p) => withParams(url, { page: String(p) })}
        editUrl={(id) => withParams(url, { edit: String(id) })}
      />
    </div>
  );
}
