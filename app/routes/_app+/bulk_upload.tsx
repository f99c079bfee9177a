import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { CsvFileInput } from "~/components/CsvFileInput";
import { JobProgress, type JobStatusJson } from "~/components/JobProgress";
import { UploadErrors } from "~/components/UploadErrors";
import { requireUser } from "~/modules/auth/guard.server";
import { bulkUploadAction, bulkUploadScreen } from "~/modules/bulk-upload/screen.server";
import { AppError } from "~/utils/errors";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Bulk uploader · FreightDesk" }];

/** The bulk uploader (can_bulkupload or can_bulkquote); `?upload={id}` shows that upload's progress and result. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    return await bulkUploadScreen(context.db, user, new URL(request.url));
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** An upload goes to its progress (`?upload=`); a bulk redespatch answers its report here. */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    const outcome = await bulkUploadAction(context.db, context.queue, user, request);
    if (outcome.kind === "upload") return redirect(`/bulk_upload?upload=${outcome.started.bulk_upload_id}${outcome.started.duplicate ? "&again=1" : ""}`);
    return { redespatch: outcome.report, error: null, form: "redespatch" };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    throwIfAccessError(e);
    return data({ redespatch: null, error: e.fieldErrors.file?.[0] ?? e.fieldErrors.type?.[0] ?? e.message, form: e.fieldErrors.file ? "file" : "upload" }, { status: e.status });
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
const resultLine = (created: number, total: number, skipped: number, noun: string) =>
  `${plural(created, noun)} created of ${total} in the file${skipped ? `; ${plural(skipped, "line")} skipped` : ""}.`;

/** what a time column is called on the screen */
const TIME_LABEL: Record<string, string> = { pickup_at: "Pickup time", deliver_by: "Deliver-by time", deliver_at: "Delivery time" };

/** The file's columns and the codes it may name, as tables a person reads. */
function FileGuide({ columns, services }: { columns: Array<{ column: string; level: string; required: boolean; description: string; aliases: string[] }>; services: Array<{ site_code: string; carrier_code: string; carrier_name: string; service_code: string; service_name: string; needs: string[] }> }) {
  return (
    <>
      <section id="bulk-columns" className="card space-y-2" aria-labelledby="bulk-columns-heading" tabIndex={-1}>
        <h2 id="bulk-columns-heading" className="font-semibold">
          Column mappings
        </h2>
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead>
              <tr>
                <th scope="col">Column</th>
                <th scope="col">Fills</th>
                <th scope="col">Required</th>
                <th scope="col">What it holds</th>
                <th scope="col">Also named</th>
              </tr>
            </thead>
            <tbody>
              {columns.map((c) => (
                <tr key={c.column}>
                  <td className="font-mono">{c.column}</td>
                  <td>{c.level === "item" ? "Item line" : "Consignment"}</td>
                  <td>{c.required ? "Yes" : "No"}</td>
                  <td>{c.description}</td>
                  <td className="font-mono">{c.aliases.join(", ")}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section id="bulk-services" className="card space-y-2" aria-labelledby="bulk-services-heading" tabIndex={-1}>
        <h2 id="bulk-services-heading" className="font-semibold">
          Carrier and service codes
        </h2>
        {services.length ? (
          <div className="overflow-x-auto">
            <table className="w-full text-left text-sm">
              <thead>
                <tr>
                  <th scope="col">Site</th>
                  <th scope="col">Carrier</th>
                  <th scope="col">carrier_code</th>
                  <th scope="col">Service</th>
                  <th scope="col">service_code</th>
                  <th scope="col">Also needs</th>
                </tr>
              </thead>
              <tbody>
                {services.map((s) => (
                  <tr key={`${s.site_code}|${s.carrier_code}|${s.service_code}`}>
                    <td className="font-mono">{s.site_code}</td>
                    <td>{s.carrier_name}</td>
                    <td className="font-mono">{s.carrier_code}</td>
                    <td>{s.service_name}</td>
                    <td className="font-mono">{s.service_code}</td>
                    <td>{s.needs.length ? s.needs.map((n) => `${TIME_LABEL[n] ?? n} (${n})`).join(", ") : "Nothing more"}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ) : (
          <p className="text-sm text-slate-600">None of your sites offers a carrier service yet.</p>
        )}
      </section>
    </>
  );
}

const KIND_LABEL = { consignment: "Consignments", quote: "Quotes" } as const;

export default function BulkUpload() {
  const screen = useLoaderData<typeof loader>();
  const posted = useActionData<typeof action>();
  const revalidator = useRevalidator();
  const busy = useNavigation().state === "submitting";
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const upload = screen.upload;
  const alerts: Alert[] = [];
  if (upload?.duplicate) alerts.push({ type: "info", message: `This file was uploaded before: its consignments are not created again. Showing the first upload of ${upload.fileName}.` });
  if (posted?.error) alerts.push({ type: "error", message: posted.error });
  const result = upload?.result;
  const listPath = upload?.kind === "quote" ? "/quotes" : "/consignments";
  return (
    <div className="space-y-4" data-testid="bulk-upload-screen" data-hydrated={hydrated ? "true" : "false"}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">Bulk uploader</h1>
        {screen.kinds.length ? (
          <div className="flex flex-wrap gap-2">
          <a href="/api/bulk_upload_template" className="btn" download>
            Download template
          </a>
          <a href="#bulk-columns" className="btn">
            Column mappings
          </a>
          <a href="#bulk-services" className="btn">
            Carrier and service codes
          </a>
          </div>
        ) : null}
      </div>
      <Alerts alerts={alerts} />

      {upload && !result ? (
        <section className="card space-y-2" aria-label="Upload progress">
          <h2 className="font-semibold">{`Uploading ${upload.fileName}`}</h2>
          <JobProgress jobId={upload.job.id} initial={upload.job as JobStatusJson} onDone={() => revalidator.revalidate()} />
          <p className="text-sm text-slate-600">
            The file is being processed. <Link to={`/bulk_upload?upload=${upload.id}`}>Refresh</Link> to see the progress and the result.
          </p>
        </section>
      ) : null}
      {upload && result ? (
        <section className="card space-y-2" aria-label="Upload result" data-testid="bulk-upload-result">
          <h2 className="font-semibold">{`Result of ${upload.fileName}`}</h2>
          <p role="status">{resultLine(result.created, result.total, result.skipped_total, upload.kind === "quote" ? "quote" : "consignment")}</p>
          <Link to={listPath} className="btn-primary">
            {upload.kind === "quote" ? "Go to the quotes" : "Go to the consignment list"}
          </Link>
        </section>
      ) : null}
      {result ? <UploadErrors lines={result.skipped} total={result.skipped_total} /> : null}

      {screen.kinds.length ? (
      <Form method="post" encType="multipart/form-data" className="card space-y-3" aria-label="Upload a file">
        <h2 className="font-semibold">Upload a file</h2>
        <p className="text-sm text-slate-600">
          A CSV file, one row per item line: a row with a site code starts a consignment, rows without one add items to it. Despatch dates are DD/MM/YYYY or DD-MM-YYYY. Each consignment is checked and
          rated as the consignment screen would; a consignment with any bad line is skipped whole, and every skipped line is listed with its reason.
        </p>
        <input type="hidden" name="intent" value="import" />
        <div>
          <label htmlFor="bulk-type" className="label">
            Type
          </label>
          <select id="bulk-type" name="type" className="input" defaultValue={screen.kinds[0]}>
            {screen.kinds.map((k) => (
              <option key={k} value={k}>
                {KIND_LABEL[k]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="bulk-file" className="label">
            File
          </label>
          <CsvFileInput id="bulk-file" />
          {posted?.form === "file" && !posted.redespatch ? (
            <p className="text-sm text-red-700" id="bulk-file-error">
              {posted.error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Uploading..." : "Upload"}
        </button>
      </Form>
      ) : null}

      {screen.kinds.length ? <FileGuide columns={screen.columns} services={screen.services} /> : null}

      {screen.canRedespatch ? (
        <Form method="post" encType="multipart/form-data" className="card space-y-3" aria-label="Bulk redespatch">
          <h2 className="font-semibold">Bulk redespatch</h2>
          <p className="text-sm text-slate-600">A CSV file with a consignment_number column: each consignment whose despatch failed is sent to its carrier again, with its manifest.</p>
          <input type="hidden" name="intent" value="redespatch" />
          <div>
            <label htmlFor="redespatch-file" className="label">
              Consignment numbers file
            </label>
            <CsvFileInput id="redespatch-file" />
          </div>
          <button type="submit" className="btn" disabled={busy}>
            Redespatch
          </button>
        </Form>
      ) : null}
      {posted?.redespatch ? (
        <section className="card space-y-2" aria-label="Redespatch result">
          <p role="status">{posted.redespatch.redespatched ? `${posted.redespatch.redespatched} consignment(s) are being redespatched.` : "No consignment was redespatched."}</p>
          {posted.redespatch.job_id ? <JobProgress jobId={posted.redespatch.job_id} /> : null}
          <UploadErrors lines={posted.redespatch.skipped} total={posted.redespatch.skipped_total} />
        </section>
      ) : null}
    </div>
  );
}
