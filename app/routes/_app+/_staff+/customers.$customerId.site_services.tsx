import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { requireStaff } from "~/modules/auth/guard.server";
import { canUpdateSiteServices } from "~/modules/auth/roles";
import { referenceLists } from "~/modules/rating/lookups.server";
import { deleteSiteServices, saveSiteServices, searchSiteServices } from "~/modules/rating/site-services.server";
import { AppError } from "~/utils/errors";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { throwIfAccessError } from "~/utils/ui.server";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";

export const meta: MetaFunction = () => [{ title: "Carriers & Services · FreightDesk" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const url = new URL(request.url);
  try {
    const customerId = pageId(params.customerId);
    const [result, lists, crumbs] = await Promise.all([
      searchSiteServices(context.db, user, customerId, { site_codes: url.searchParams.get("site") ?? "", group_by: url.searchParams.get("group_by") ?? "site" }),
      referenceLists(context.db),
      breadcrumbTrail(context.db, user, { model: "site_services", parent: "customer", parent_id: customerId }),
    ]);
    const customer = lists.customers.find((c) => c.id === customerId);
    return { ...result, customer, carriers: lists.carriers, mayUpdate: canUpdateSiteServices(user), crumbs };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const f = Object.fromEntries(await readPageForm(request)) as Record<string, string>;
  try {
    if (f.intent === "delete") {
      await deleteSiteServices(context.db, user, pageId(params.customerId), { ids: [f.id] });
      return { alerts: [{ type: "success", message: "Service removed from the site." }] as Alert[] };
    }
    await saveSiteServices(context.db, user, pageId(params.customerId), {
      site_code: f.site_code,
      carrier_code: f.carrier_code,
      service_code: f.service_code,
      rate_code: f.rate_code || null,
      markup: f.markup || 0,
      surcharges_markup: f.surcharges_markup || 0,
      enabled: f.enabled === "on",
    });
    return { alerts: [{ type: "success", message: `${f.carrier_code}:${f.service_code} at ${f.site_code} was saved.` }] as Alert[] };
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    return data({ alerts: [{ type: "error", message: e.message }] as Alert[] }, { status: e.status });
  }
}

export default function SiteServices() {
  const { site_services: rows, customer, carriers, mayUpdate, crumbs } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  return (
    <div className="space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">Carriers &amp; Services · {customer?.name}</h1>
      <Alerts alerts={actionData?.alerts ?? []} />
      <Form method="get" className="flex items-end gap-3">
        <div>
          <label htmlFor="site" className="label">
            Site
          </label>
          <select id="site" name="site" defaultValue={params.get("site") ?? ""} className="input">
            <option value="">All sites</option>
            {customer?.sites.map((s) => (
              <option key={s.code} value={s.code}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="group_by" className="label">
            Group by
          </label>
          <select id="group_by" name="group_by" defaultValue={params.get("group_by") ?? "site"} className="input">
            <option value="site">Site</option>
            <option value="service">Service</option>
          </select>
        </div>
        <button type="submit" className="btn">
          Show
        </button>
      </Form>
      <section className="card overflow-x-auto" aria-label="Site services">
        {rows.length === 0 ? (
          <p className="text-sm text-slate-500">No services are assigned to these sites.</p>
        ) : (
          <table className="w-full text-sm">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="py-1">Site</th>
                <th>Carrier service</th>
                <th>Account</th>
                <th>Rate code</th>
                <th>Markup %</th>
                <th>Surcharges markup %</th>
                <th>Enabled</th>
                <th>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.id} className="border-t border-slate-100">
                  <td className="py-1">{r.site_name}</td>
                  <td>
                    {r.carrier_name} · {r.service_name}
                  </td>
                  <td>{r.provider_account ?? "—"}</td>
                  {mayUpdate ? (
                    <td colSpan={5}>
                      <Form method="post" className="flex items-center gap-2" aria-label={`Edit ${r.code}`}>
                        <input type="hidden" name="site_code" value={r.site_code} />
                        <input type="hidden" name="carrier_code" value={r.carrier_code} />
                        <input type="hidden" name="service_code" value={r.service_code} />
                        <input name="rate_code" aria-label="Rate code" defaultValue={r.rate_code ?? ""} className="input w-24" />
                        <input name="markup" aria-label="Markup" inputMode="decimal" defaultValue={r.markup} className="input w-20" />
                        <input name="surcharges_markup" aria-label="Surcharges markup" inputMode="decimal" defaultValue={r.surcharges_markup} className="input w-20" />
                        <input type="checkbox" name="enabled" aria-label="Enabled" defaultChecked={r.enabled} />
                        <button type="submit" className="btn">
                          Save
                        </button>
                      </Form>
                    </td>
                  ) : (
                    <>
                      <td>{r.rate_code}</td>
                      <td>{r.markup}</td>
                      <td>{r.surcharges_markup}</td>
                      <td>{r.enabled ? "Yes" : "No"}</td>
                      <td />
                    </>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {mayUpdate && (
        <section className="card" aria-labelledby="assign">
          <h2 id="assign" className="mb-2 font-semibold">
            Assign a service to a site
          </h2>
          <Form method="post" className="flex flex-wrap items-end gap-3" aria-label="Assign a service">
            <div>
              <label htmlFor="new-site" className="label">
                Site
              </label>
              <select id="new-site" name="site_code" className="input">
                {customer?.sites.map((s) => (
                  <option key={s.code} value={s.code}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="new-service" className="label">
                Carrier service
              </label>
              <select
                id="new-service"
                name="carrier_service"
                className="input"
                onChange={(e) => {
                  const [carrier, service] = e.target.value.split(":");
                  const form = e.target.form!;
                  (form.elements.namedItem("carrier_code") as HTMLInputElement).value = carrier ?? "";
                  (form.elements.namedItem("service_code") as HTMLInputElement).value = service ?? "";
                }}
              >
                {carriers.flatMap((c) =>
                  c.services.map((s) => (
                    <option key={`${c.code}:${s.code}`} value={`${c.code}:${s.code}`}>
                      {c.name} · {s.name}
                    </option>
                  )),
                )}
              </select>
            </div>
            <input name="carrier_code" aria-label="Carrier code" defaultValue={carriers[0]?.code} className="input w-28" />
            <input name="service_code" aria-label="Service code" defaultValue={carriers[0]?.services[0]?.code} className="input w-20" />
            <div>
              <label htmlFor="new-rate" className="label">
                Rate code
              </label>
              <input id="new-rate" name="rate_code" defaultValue="STD" className="input w-24" />
            </div>
            <div>
              <label htmlFor="new-markup" className="label">
                Markup %
              </label>
              <input id="new-markup" name="markup" defaultValue="0" className="input w-20" />
            </div>
            <div>
              <label htmlFor="new-smarkup" className="label">
                Surcharges markup %
              </label>
              <input id="new-smarkup" name="surcharges_markup" defaultValue="0" className="input w-20" />
            </div>
            <label className="flex items-center gap-1 text-sm">
              <input type="checkbox" name="enabled" defaultChecked /> Enabled
            </label>
            <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
              Assign
            </button>
          </Form>
        </section>
      )}
    </div>
  );
}
