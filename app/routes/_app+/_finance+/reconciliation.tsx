import { localTime } from "~/modules/calendar/site-time";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { CsvFileInput } from "~/components/CsvFileInput";
import { FieldError } from "~/components/Field";
import { UploadErrors } from "~/components/UploadErrors";
import { canAdministerInvoices } from "~/modules/invoices/access";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import {
  DEFAULT_THRESHOLD_AMOUNT,
  DEFAULT_THRESHOLD_PERCENTAGE,
  REPORT_COLUMNS,
  THRESHOLD_AMOUNT_LENGTH,
  THRESHOLD_PERCENTAGE_LENGTH,
  resultsCaption,
} from "~/modules/reconciliation/report-csv";
import { recentReports, runReport, type ReportAnswer } from "~/modules/reconciliation/report.server";
import { readCsvUpload } from "~/utils/csv.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Reconciliation report · FreightDesk" }];

/** /reconciliation (spec 3 section 2 "Reconciliation report"): thresholds, the CSV, and the result. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  // report times formatted here in the user's zone and format: the browser's locale and zone never differ from the server's render
  const recent = (await recentReports(context.db, user)).map((r) => ({ ...r, created_local: localTime(new Date(r.created_at), user.clock.timeZone, user.clock.dateFormat) }));
  return { canRerate: canAdministerInvoices(user), recent };
}

type ActionResult = { ok: true; report: ReportAnswer } | { ok: false; message: string; errors: FieldErrors; values: Record<string, string> };

/** The form posts here (works without JavaScript); the same module answers POST /api/old_reconciliations. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  let values: Record<string, string> = {};
  try {
    const upload = await readCsvUpload(request);
    values = { threshold_amount: upload.fields.threshold_amount ?? "", threshold_percentage: upload.fields.threshold_percentage ?? "" };
    const report = await runReport(context.db, user, { ...upload, fields: { ...values, rerate: upload.fields.intent === "rerate" } });
    return data<ActionResult>({ ok: true, report });
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    // the field's own message is shown at the field; the alert says what happened
    const message = e.code === "invalid" ? NOT_RUN : e.message;
    return data<ActionResult>({ ok: false, message, errors: e.fieldErrors, values }, { status: e.status });
  }
}

const NOT_RUN = "The report could not be run: see the fields marked below.";
const money = (cents: number) => (cents / 100).toFixed(2);

export default function ReconciliationReport() {
  const { canRerate, recent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const failed = result && !result.ok ? result : null;
  const report = result?.ok ? result.report : null;
  const errorOf = (field: string) => failed?.errors[field];
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Reconciliation report</h1>
      {failed ? <Alerts alerts={[{ type: "error", message: failed.message }]} /> : null}
      <Form method="post" encType="multipart/form-data" className="card space-y-3" aria-label="Reconciliation report upload">
        <p className="text-sm text-slate-600">
          A CSV of what the carrier charged, one consignment a line: {REPORT_COLUMNS.join(", ")} (the charged amount excluding GST; weight and zones optional).
        </p>
        <div className="flex flex-wrap items-end gap-3">
          <ThresholdInput
            name="threshold_percentage"
            label="Variance threshold percentage"
            maxLength={THRESHOLD_PERCENTAGE_LENGTH}
            value={failed?.values.threshold_percentage ?? report?.threshold_percentage ?? DEFAULT_THRESHOLD_PERCENTAGE}
            errors={errorOf("threshold_percentage")}
          />
          <ThresholdInput
            name="threshold_amount"
            label="Threshold amount"
            maxLength={THRESHOLD_AMOUNT_LENGTH}
            value={failed?.values.threshold_amount ?? report?.threshold_amount ?? DEFAULT_THRESHOLD_AMOUNT}
            errors={errorOf("threshold_amount")}
          />
          <div>
            <label htmlFor="report-file" className="label">
              File (csv)
            </label>
            <CsvFileInput id="report-file" describedBy={errorOf("file") ? "report-file-error" : undefined} />
            <FieldError id="report-file-error" errors={errorOf("file")} />
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <a className="btn" href="/api/reconciliations_template" download>
            Download Template
          </a>
          <button type="submit" name="intent" value="reconcile" className="btn-primary" disabled={busy}>
            {busy ? "Reconciling..." : "Reconcile"}
          </button>
          {canRerate ? (
            <button type="submit" name="intent" value="rerate" className="btn" disabled={busy}>
              Rerate
            </button>
          ) : null}
        </div>
      </Form>
      {report ? <ReportResult report={report} /> : null}
      {recent.length ? (
        <section className="card" aria-labelledby="recent-heading">
          <h2 id="recent-heading" className="font-medium">
            Your recent reports
          </h2>
          <ul className="mt-2 space-y-1 text-sm">
            {recent.map((r) => (
              <li key={r.id}>
                <a className="text-sky-800 underline" href={r.download_url} download>
                  {r.file_name}
                  {r.rerate ? " (rerate)" : ""}
                </a>{" "}
                <time dateTime={r.created_at}>{r.created_local}</time>: {r.summary.lines ?? 0} lines, {r.summary.within ?? 0} within, {r.summary.outside ?? 0} outside
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** A threshold field: its length limit (spec 3 section 9), its value kept across a refused upload, its own error. */
function ThresholdInput({ name, label, maxLength, value, errors }: { name: string; label: string; maxLength: number; value: string | number; errors?: string[] }) {
  return (
    <div>
      <label htmlFor={name} className="label">
        {label}
      </label>
      <input
        id={name}
        name={name}
        className="input w-24"
        inputMode="decimal"
        maxLength={maxLength}
        defaultValue={value}
        aria-invalid={errors ? true : undefined}
        aria-describedby={errors ? `${name}-error` : undefined}
      />
      <FieldError id={`${name}-error`} errors={errors} />
    </div>
  );
}

function ReportResult({ report }: { report: ReportAnswer }) {
  const s = report.summary;
  const counts: Array<[string, number]> = [
    ["Lines", s.lines],
    ["Within thresholds", s.within],
    ["Outside thresholds", s.outside],
    ["Consignment not found", s.not_found],
    ["Not rated", s.not_rated],
    ["Skipped", s.skipped],
  ];
  return (
    <section className="card space-y-3" aria-labelledby="result-heading">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="result-heading" className="font-medium">
          Result of {report.file_name}
          {report.rerate ? " (rerate)" : ""}
        </h2>
        <a className="btn-primary" href={report.download_url} download>
          Download results
        </a>
      </div>
      <p className="text-sm text-slate-600">
        Thresholds: {report.threshold_percentage} % or {report.threshold_amount.toFixed(2)} of the rated buy. Total variance {money(s.variance)}.
      </p>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-6" aria-label="Summary">
        {counts.map(([label, n]) => (
          <div key={label}>
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-lg font-semibold">{n}</dd>
          </div>
        ))}
      </dl>
      <UploadErrors lines={report.line_errors.map((e) => ({ line: e.line, errors: [e.message] }))} total={report.line_errors.length} />
      {report.results.length ? (
        <div className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="text-left text-sm text-slate-600">
              {resultsCaption(s, report.results.length)}
            </caption>
            <thead className="border-b border-slate-200 text-left text-xs uppercase text-slate-500">
              <tr>
                <th scope="col">Line</th>
                <th scope="col">Consignment</th>
                <th scope="col">Status</th>
                <th scope="col">Charged</th>
                <th scope="col">Rated buy</th>
                <th scope="col">Variance</th>
                <th scope="col">Variance %</th>
                <th scope="col">Differences</th>
                {report.rerate ? (
                  <>
                    <th scope="col">Rerated buy</th>
                    <th scope="col">Rerated sell</th>
                    <th scope="col">Original sell</th>
                    <th scope="col">Rerate error</th>
                  </>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {report.results.map((r) => (
                <tr key={r.line}>
                  <td>{r.line}</td>
                  <td>{r.consignment_number}</td>
                  <td>{r.status}</td>
                  <td>{r.charged_amount}</td>
                  <td>{r.rated_buy}</td>
                  <td>{r.variance}</td>
                  <td>{r.variance_percentage}</td>
                  <td>{r.differences}</td>
                  {report.rerate ? (
                    <>
                      <td>{r.rerated_buy}</td>
                      <td>{r.rerated_sell}</td>
                      <td>{r.original_sell}</td>
                      <td>{r.rerate_error}</td>
                    </>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
