import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import { ScopeFields } from "~/components/ScopeFields";
import { requireStaff } from "~/modules/auth/guard.server";
import { canSaveZones } from "~/modules/auth/roles";
import { referenceLists } from "~/modules/rating/lookups.server";
import { PRIVILEGE_MESSAGE, exportZones, importZones, listZones, saveZones } from "~/modules/rating/zones.server";
import { AppError } from "~/utils/errors";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "~/utils/upload-limits";
import { CsvFileInput } from "~/components/CsvFileInput";
import { readPageForm } from "~/utils/http.server";

export const meta: MetaFunction = () => [{ title: "Zones · FreightDesk" }];

const scopeFrom = (params: URLSearchParams | FormData) => ({
  carrier_code: String(params.get("carrier_code") ?? ""),
  customer_code: String(params.get("customer_code") ?? "") || null,
  site_code: String(params.get("site_code") ?? "") || null,
  service_code: String(params.get("service_code") ?? "") || null,
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const url = new URL(request.url);
  const lists = await referenceLists(context.db);
  const scope = scopeFrom(url.searchParams);
  let page: Awaited<ReturnType<typeof listZones>> | null = null;
  let error: string | null = null;
  if (scope.carrier_code) {
    try {
      page = await listZones(context.db, { ...scope, q: url.searchParams.get("q") ?? undefined, page: url.searchParams.get("page") ?? 1 });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      error = e.message;
    }
  }
  return { lists, page, error, canSave: canSaveZones(user) };
}

type ImportResult = Awaited<ReturnType<typeof importZones>>;

export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  // a file (the import form) from customer service is refused before it is read: only savers import
  if (request.headers.get("content-type")?.includes("multipart/form-data") && !canSaveZones(user)) {
    return data({ error: PRIVILEGE_MESSAGE, result: null as ImportResult | null }, { status: 403 });
  }
  if (Number(request.headers.get("content-length") ?? 0) > MAX_UPLOAD_BYTES) {
    return data({ error: FILE_TOO_LARGE, result: null as ImportResult | null }, { status: 422 });
  }
  const form = await readPageForm(request);
  const scope = scopeFrom(form);
  try {
    if (form.get("intent") === "save") {
      const rows: Array<Record<string, string | boolean>> = [];
      for (let i = 0; form.has(`zones.${i}.id`); i++) {
        rows.push({ id: String(form.get(`zones.${i}.id`)), code: String(form.get(`zones.${i}.code`) ?? ""), _destroy: form.get(`zones.${i}._destroy`) === "on" });
      }
      if (String(form.get("new.postcode") ?? "").trim()) {
        rows.push({ postcode: String(form.get("new.postcode")), locality: String(form.get("new.locality") ?? ""), code: String(form.get("new.code") ?? "") });
      }
      const saved = await saveZones(context.db, user, { ...scope, zones: rows });
      // savedAt keys the edit form, so after a save its inputs show the saved rows and the new row is empty
      return { error: null, result: null as ImportResult | null, saved, savedAt: Date.now() };
    }
    if (form.get("intent") === "export") {
      const csv = await exportZones(context.db, scope);
      return new Response(csv, {
        headers: { "Content-Type": "text/csv; charset=utf-8", "Content-Disposition": `attachment; filename="zones-${scope.carrier_code}.csv"` },
      });
    }
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return data({ error: "Choose a csv file to import.", result: null as ImportResult | null }, { status: 422 });
    if (!/\.csv$/i.test(file.name)) return data({ error: "Only csv files can be imported.", result: null as ImportResult | null }, { status: 422 });
    const result = await importZones(context.db, user, scope, await file.text());
    return { error: null, result };
  } catch (e) {
    if (e instanceof AppError) {
      const detail = Object.entries(e.fieldErrors).filter(([k]) => k.startsWith("zones.")).map(([k, v]) => `${k}: ${v[0]}`);
      return data({ error: [e.message, ...detail].join(" "), result: null as ImportResult | null }, { status: e.status });
    }
    throw e;
  }
}

function ResultList({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <h3 className="text-sm font-semibold">
        {title}: {items.length}
      </h3>
      {items.length > 0 && (
        <ul className="mt-1 max-h-40 overflow-auto text-xs text-slate-700">
          {items.slice(0, 200).map((x, i) => (
            <li key={i}>{x}</li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default function Zones() {
  const { lists, page, error, canSave } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const values = Object.fromEntries(params) as Record<string, string>;
  const pageHref = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next}`;
  };
  // the export branch answers a file, so the page only ever sees the import's answer
  const outcome = actionData && "result" in actionData ? (actionData as { error: string | null; result: ImportResult | null; saved?: { created: number; updated: number; deleted: number }; savedAt?: number }) : null;
  const result = outcome?.result ?? null;
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Zones</h1>
        <Link to="/zones/localities" className="btn">
          Import localities
        </Link>
        <Link to="/zones/dangerous_goods" className="btn">
          Import dangerous goods
        </Link>
      </div>
      <Alerts
        alerts={[
          ...(error ? [{ type: "error" as const, message: error }] : []),
          ...(outcome?.error ? [{ type: "error" as const, message: outcome.error }] : []),
          ...(outcome?.saved
            ? [{ type: "success" as const, message: `Zones saved: ${outcome.saved.created} added, ${outcome.saved.updated} changed, ${outcome.saved.deleted} deleted.` }]
            : []),
          ...(result
            ? [{ type: "success" as const, message: `Zones imported: ${result.created.length} created, ${result.changed.length} changed, ${result.deleted.length} deleted, ${result.invalid.length} invalid.` }]
            : []),
        ]}
      />
      {result && (
        <section className="card grid gap-4 md:grid-cols-4" aria-label="Import result" data-testid="zone-import-result">
          <ResultList title="Created" items={result.created.map((z) => `${z.postcode} ${z.locality ?? ""} → ${z.zone}`)} />
          <ResultList title="Changed" items={result.changed.map((z) => `${z.postcode} ${z.locality ?? ""}: ${z.from} → ${z.to}`)} />
          <ResultList title="Deleted" items={result.deleted.map((z) => `${z.postcode} ${z.locality ?? ""} (${z.zone})`)} />
          <ResultList title="Invalid" items={result.invalid.map((z) => `line ${z.line}: ${z.errors.join("; ")}`)} />
        </section>
      )}

      <Form method="get" className="card space-y-3" aria-label="Zone filter">
        <ScopeFields lists={lists} values={values} idPrefix="filter" />
        <div className="flex items-end gap-3">
          <div className="w-64">
            <label htmlFor="q" className="label">
              Postcode or zone starts with
            </label>
            <input id="q" name="q" defaultValue={values.q ?? ""} className="input" />
          </div>
          <button type="submit" className="btn-primary">
            Show zones
          </button>
        </div>
      </Form>

      <div className="grid gap-4 md:grid-cols-2">
        <details className="card" open={Boolean(outcome?.error || result)}>
          <summary className="cursor-pointer font-semibold">Import zones</summary>
          {canSave ? (
            <Form method="post" encType="multipart/form-data" className="mt-3 space-y-3" aria-label="Import zones">
              <input type="hidden" name="intent" value="import" />
              <p className="text-sm text-slate-600">
                A csv file with the columns postcode, zone and optionally locality, sublocality, region, country (AUSTRALIA when blank). The file
                replaces the zones of the chosen scope. A zone of <code>-</code> stops the service rating there.
              </p>
              <ScopeFields lists={lists} values={values} idPrefix="import" />
              <div>
                <label htmlFor="zone-file" className="label">
                  File
                </label>
                <CsvFileInput id="zone-file" />
              </div>
              <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
                {navigation.state === "submitting" ? "Importing..." : "Import"}
              </button>
            </Form>
          ) : (
            <p className="mt-3 text-sm text-slate-600">Your privilege level does not allow this</p>
          )}
        </details>
        <details className="card">
          <summary className="cursor-pointer font-semibold">Export zones</summary>
          <Form method="post" reloadDocument className="mt-3 space-y-3" aria-label="Export zones">
            <input type="hidden" name="intent" value="export" />
            <ScopeFields lists={lists} values={values} idPrefix="export" />
            <button type="submit" className="btn">
              Export csv
            </button>
          </Form>
        </details>
      </div>

      {page && (
        <section className="card" aria-label="Zones">
          <p className="mb-2 text-sm text-slate-600">
            {page.total} zone row(s), page {page.page} of {page.pages}
          </p>
          {page.zones.length === 0 && !canSave ? (
            <p className="text-sm text-slate-500">There are no zones to display.</p>
          ) : (
            <Form method="post" aria-label="Edit zones" key={outcome?.savedAt ?? 0}>
              <input type="hidden" name="intent" value="save" />
              {(["carrier_code", "customer_code", "site_code", "service_code"] as const).map((k) => (
                <input key={k} type="hidden" name={k} value={values[k] ?? ""} />
              ))}
              {page.zones.length === 0 && <p className="text-sm text-slate-500">There are no zones to display.</p>}
              <table className="w-full text-sm">
                <thead className="text-left text-slate-500">
                  <tr>
                    <th className="py-1">Postcode</th>
                    <th>Locality</th>
                    <th>Region</th>
                    <th>Country</th>
                    <th>Zone</th>
                    {canSave && <th>Delete</th>}
                  </tr>
                </thead>
                <tbody>
                  {page.zones.map((z, i) => (
                    <tr key={z.id} className="border-t border-slate-100">
                      <td className="py-1">{z.postcode}</td>
                      <td>{z.locality ?? "All"}</td>
                      <td>{z.region}</td>
                      <td>{z.country}</td>
                      <td>
                        {canSave ? (
                          <>
                            <input type="hidden" name={`zones.${i}.id`} value={z.id} />
                            <input name={`zones.${i}.code`} defaultValue={z.code} aria-label={`Zone of ${z.postcode} ${z.locality ?? ""}`.trim()} className="input w-28 font-mono" />
                          </>
                        ) : (
                          <span className="font-mono">{z.code}</span>
                        )}
                      </td>
                      {canSave && (
                        <td>
                          <input type="checkbox" name={`zones.${i}._destroy`} aria-label={`Delete zone of ${z.postcode} ${z.locality ?? ""}`.trim()} />
                        </td>
                      )}
                    </tr>
                  ))}
                  {canSave && (
                    <tr className="border-t border-slate-300">
                      <td className="py-1">
                        <input name="new.postcode" aria-label="New zone postcode" placeholder="Postcode" className="input w-24" />
                      </td>
                      <td>
                        <input name="new.locality" aria-label="New zone locality" placeholder="All localities" className="input" />
                      </td>
                      <td />
                      <td>AUSTRALIA</td>
                      <td>
                        <input name="new.code" aria-label="New zone code" placeholder="Zone" className="input w-28 font-mono" />
                      </td>
                      <td />
                    </tr>
                  )}
                </tbody>
              </table>
              {canSave && (
                <button type="submit" className="btn-primary mt-3" disabled={navigation.state === "submitting"}>
                  Save zones
                </button>
              )}
            </Form>
          )}
          <div className="mt-3 flex gap-2">
            {page.page > 1 && (
              <Link to={pageHref(page.page - 1)} className="btn">
                Previous
              </Link>
            )}
            {page.page < page.pages && (
              <Link to={pageHref(page.page + 1)} className="btn">
                Next
              </Link>
            )}
          </div>
        </section>
      )}
    </div>
  );
}
