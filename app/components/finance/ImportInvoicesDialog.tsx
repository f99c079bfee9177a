import { Link, useFetcher, useLocation, useSearchParams } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FieldError, fieldAria, FormErrors } from "../Field";
import { ServerDialog } from "./ServerDialog";

/**
 * The Import modal of /invoices_payable (spec 3 "Invoices payable"): a carrier invoice template
 * and one or more files; Import needs both. Opened by ?import=1, so the server renders it before
 * JavaScript loads; the form posts to /invoices_payable/import, which queues the job and comes
 * back with ?import_job=<id> for the page's progress.
 */
export interface ImportTemplateChoice {
  id: number;
  name: string;
  carrierName: string;
}

type ImportAnswer = { message?: string; errors?: Record<string, string[]> };

export function ImportInvoicesDialog({ templates, canImport }: { templates: ImportTemplateChoice[]; canImport: boolean }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const fetcher = useFetcher<ImportAnswer>();
  const [template, setTemplate] = useState("");
  const [files, setFiles] = useState(0);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!canImport) return null;
  const open = new URLSearchParams(params);
  open.set("import", "1");
  const closed = new URLSearchParams(params);
  closed.delete("import");
  const closeHref = `${location.pathname}${closed.size ? `?${closed}` : ""}`;
  const answer = fetcher.data;
  const errors = answer?.errors ?? {};
  const busy = fetcher.state !== "idle";
  return (
    <>
      <Link id="import-invoices" to={`?${open}`} className="btn" preventScrollReset>
        Import
      </Link>
      {params.get("import") === "1" ? (
        <ServerDialog title="Import invoices" closeHref={closeHref} returnFocusId="import-invoices" testId="import-dialog">
          <fetcher.Form method="post" action="/invoices_payable/import" encType="multipart/form-data" className="space-y-3">
            {answer?.message ? <FormErrors errors={[answer.message]} /> : null}
            {templates.length ? null : <p>There are no invoice templates yet: make one under Invoice Templates first.</p>}
            <div>
              <label htmlFor="import-config" className="block font-medium">
                Carrier invoice format
              </label>
              <select id="import-config" name="config_id" required value={template} onChange={(e) => setTemplate(e.target.value)} {...fieldAria(errors, "config_id")}>
                <option value="">Choose a template</option>
                {templates.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name} ({t.carrierName})
                  </option>
                ))}
              </select>
              <FieldError id="config_id-error" errors={errors.config_id} />
            </div>
            <div>
              <label htmlFor="import-files" className="block font-medium">
                Invoice files
              </label>
              <input id="import-files" type="file" name="files" multiple required accept=".csv,.xlsx,.xls" onChange={(e) => setFiles(e.target.files?.length ?? 0)} {...fieldAria(errors, "files")} />
              <FieldError id="files-error" errors={errors.files} />
            </div>
            <div className="flex gap-2">
              {/* Import needs a template and at least one file; before JavaScript, `required` says so */}
              <button type="submit" className="btn btn-primary" disabled={busy || (hydrated && (!template || !files))}>
                {busy ? "Importing..." : "Import"}
              </button>
              <Link to={closeHref} className="btn" replace preventScrollReset>
                Cancel
              </Link>
            </div>
          </fetcher.Form>
        </ServerDialog>
      ) : null}
    </>
  );
}
