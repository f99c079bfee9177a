import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { DatePicker } from "~/components/DatePicker";
import { JobProgress } from "~/components/JobProgress";
import { requireUser } from "~/modules/auth/guard.server";
import { userToday } from "~/modules/calendar/site-time";
import { ALL_SITES, defaultRange, FORMATS, isoToDdmmyyyy } from "~/modules/exports/criteria";
import { canExport, canNewExport, requestExport } from "~/modules/exports/exports.server";
import { jobStatusFor } from "~/modules/jobs/jobs.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { FieldError } from "~/components/Field";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Export report · FreightDesk" }];

/** The export dates are always DD/MM/YYYY (spec 1 line 107), whatever the site's country. */
const DATE_COUNTRY = "AUSTRALIA";

/** Users with can_export only (the flag gates the menu entry; docs: exports.server canExport). */
async function requireExporter(context: LoaderFunctionArgs["context"], request: Request) {
  const signed = await requireUser(context, request);
  if (!canExport(signed.user)) throw redirect("/");
  return signed;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireExporter(context, request);
  const jobId = new URL(request.url).searchParams.get("job");
  const status = jobId ? await jobStatusFor(context.db, user, jobId).catch(() => null) : null;
  const today = userToday(user);
  const range = defaultRange(today);
  return {
    today,
    from: isoToDdmmyyyy(range.from),
    to: isoToDdmmyyyy(range.to),
    sites: user.sites.map((s) => ({ code: s.code, name: s.name })),
    newExport: canNewExport(user),
    job: status && jobId ? { id: jobId, status, download: status.status === "complete" ? `/api/exports/${jobId}/download` : null } : null,
    rows: status?.status === "complete" ? Number((status.info as { rows?: number }).rows ?? 0) : null,
  };
}

/** The form posts here before JavaScript loads; the job's page (?job=) then shows progress and the link. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireExporter(context, request);
  const form = Object.fromEntries(await readPageForm(request));
  try {
    const { job_id } = await requestExport(context.queue, user, form);
    return redirect(`/export?job=${job_id}`);
  } catch (error) {
    throwIfAccessError(error);
    if (error instanceof AppError) return data({ errors: error.fieldErrors ?? {}, message: error.message, values: form }, { status: error.status });
    throw error;
  }
}

export default function ExportReport() {
  const { today, from, to, sites, newExport, job, rows } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const revalidator = useRevalidator();
  const errors: FieldErrors = result?.errors ?? {};
  const values = (result?.values ?? {}) as Record<string, string>;
  const running = job && !job.download && job.status.status !== "failed";
  return (
    <div className="max-w-3xl space-y-4">
      <h1 className="text-xl font-semibold">Export report</h1>
      <p className="text-sm text-gray-700">
        The consignments despatched between two dates, one a row: numbers, dates, state, sender, receiver, service, items, weight, volume and price excluding and including GST.
        {newExport && " New Export adds the charged and carrier cost lines by category."}
      </p>
      {result?.message && <Alerts alerts={[{ type: "error", message: result.message }]} />}
      {job && (
        <section aria-label="Export job" className="space-y-2">
          {running && (
            <>
              {/* without JavaScript the page reloads itself until the file is ready */}
              <noscript>
                <meta httpEquiv="refresh" content="3" />
              </noscript>
              <JobProgress jobId={job.id} initial={job.status} onDone={() => revalidator.revalidate()} />
              <a href={`/export?job=${job.id}`} className="text-sm underline">
                Refresh
              </a>
            </>
          )}
          {job.status.status === "failed" && <Alerts alerts={[{ type: "error", message: job.status.errors[0] ?? job.status.message ?? "The export failed." }]} />}
          {job.download && (
            <p role="status" className="rounded border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-900">
              {job.status.message ?? `Exported ${rows} consignment(s).`}{" "}
              <a href={job.download} download className="font-semibold underline">
                Download the export
              </a>
            </p>
          )}
        </section>
      )}
      <Form method="post" className="card space-y-3" aria-label="Export criteria">
        <div>
          <label htmlFor="site_code" className="label">
            Site
          </label>
          <select id="site_code" name="site_code" className="input" defaultValue={values.site_code ?? ALL_SITES} aria-describedby={errors.site_code ? "site_code-error" : undefined}>
            <option value={ALL_SITES}>All sites</option>
            {sites.map((s) => (
              <option key={s.code} value={s.code}>
                {s.code} - {s.name}
              </option>
            ))}
          </select>
          <FieldError id="site_code-error" errors={errors.site_code} />
        </div>
        <div className="flex flex-wrap gap-4">
          <div>
            <DatePicker id="from_date" name="from_date" label="From" country={DATE_COUNTRY} today={today} defaultValue={values.from_date ?? from} required invalid={Boolean(errors.from_date)} describedBy={errors.from_date ? "from_date-error" : undefined} />
            <FieldError id="from_date-error" errors={errors.from_date} />
          </div>
          <div>
            <DatePicker id="to_date" name="to_date" label="To" country={DATE_COUNTRY} today={today} defaultValue={values.to_date ?? to} required invalid={Boolean(errors.to_date)} describedBy={errors.to_date ? "to_date-error" : undefined} />
            <FieldError id="to_date-error" errors={errors.to_date} />
          </div>
        </div>
        <fieldset>
          <legend className="label">Format</legend>
          <div className="flex gap-4">
            {FORMATS.map((f) => (
              <label key={f} className="inline-flex items-center gap-1">
                <input type="radio" name="format" value={f} defaultChecked={(values.format ?? "csv") === f} />
                {f.toUpperCase()}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex gap-2">
          <button type="submit" className="btn-primary" disabled={busy}>
            Export
          </button>
          {newExport && (
            <button type="submit" name="new_export" value="true" className="btn" disabled={busy}>
              New Export
            </button>
          )}
        </div>
      </Form>
    </div>
  );
}

