import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Breadcrumbs } from "~/components/Breadcrumbs";
import { requireStaff } from "~/modules/auth/guard.server";
import { referenceLists } from "~/modules/rating/lookups.server";
import { deleteSurcharges, saveSurcharges, searchSurcharges, type SurchargeSetJson } from "~/modules/rating/surcharges.server";
import { AppError } from "~/utils/errors";
import { breadcrumbTrail } from "~/modules/shell/breadcrumbs.server";
import { throwIfAccessError } from "~/utils/ui.server";
import { readPageForm } from "~/utils/http.server";
import { pageId } from "~/utils/ids";

export const meta: MetaFunction = () => [{ title: "Surcharges · FreightDesk" }];

const customerIdOf = (params: Record<string, string | undefined>) => pageId(params.customerId);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  try {
    const [{ surcharge_sets }, lists, crumbs] = await Promise.all([
      searchSurcharges(context.db, user, customerIdOf(params)),
      referenceLists(context.db),
      breadcrumbTrail(context.db, user, { model: "surcharges", parent: "customer", parent_id: customerIdOf(params) }),
    ]);
    const customer = lists.customers.find((c) => c.id === customerIdOf(params));
    return { sets: surcharge_sets, carriers: lists.carriers, customer, crumbs };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

const LEVELS = 4;

/** Reads the set form: amounts as "12.5" with a % box and a fuel box each. */
function setFromForm(f: FormData) {
  const amount = (prefix: string) => {
    const raw = String(f.get(`${prefix}.surcharge`) ?? "").trim();
    if (!raw) return null;
    return { surcharge: raw, is_percentage: f.get(`${prefix}.is_percentage`) === "on", add_fuel_levy: f.get(`${prefix}.add_fuel_levy`) === "on" };
  };
  const list = (name: string) =>
    String(f.get(name) ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
  const rows = (prefix: string, keys: string[]) =>
    Array.from({ length: LEVELS }, (_, i) => i)
      .map((i) => {
        const a = amount(`${prefix}.${i}`);
        if (!a) return null;
        return { ...a, ...Object.fromEntries(keys.map((k) => [k, String(f.get(`${prefix}.${i}.${k}`) ?? "").trim() || null])) };
      })
      .filter(Boolean);
  return {
    id: f.get("id") ? Number(f.get("id")) : undefined,
    name: f.get("name"),
    code: f.get("code"),
    carrier_code: f.get("carrier_code"),
    service_codes: list("service_codes"),
    site_codes: list("site_codes"),
    dg_surcharge: amount("dg"),
    return_surcharge: amount("return"),
    manual_handling_surcharge: amount("manual"),
    warranty_surcharge: amount("warranty"),
    residential_surcharge: amount("residential"),
    oversized_surcharges: rows("oversize", ["level", "from_m", "to_m", "from_kg", "to_kg"]),
    remote_surcharges: rows("remote", ["tier"]),
  };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireStaff(context, request);
  const f = await readPageForm(request);
  try {
    if (f.get("intent") === "delete") {
      await deleteSurcharges(context.db, user, customerIdOf(params), { ids: [f.get("id")] });
      return { alerts: [{ type: "success", message: "Surcharge set deleted." }] as Alert[], fieldErrors: {} as Record<string, string[]> };
    }
    const [saved] = (await saveSurcharges(context.db, user, customerIdOf(params), setFromForm(f))).surcharge_sets;
    return { alerts: [{ type: "success", message: `Surcharge set ${saved!.name} was saved.` }] as Alert[], fieldErrors: {} as Record<string, string[]> };
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    return data({ alerts: [{ type: "error", message: e.message }] as Alert[], fieldErrors: e.fieldErrors }, { status: e.status });
  }
}

const fmt = (a: { surcharge: number; is_percentage: boolean; add_fuel_levy?: boolean } | null) =>
  a ? `${a.is_percentage ? `${a.surcharge}%` : `$${Number(a.surcharge).toFixed(2)}`}${a.add_fuel_levy ? " + fuel" : ""}` : "—";

function AmountInput({ label, prefix, value, percentage = true }: { label: string; prefix: string; value?: SurchargeSetJson["dg_surcharge"]; percentage?: boolean }) {
  return (
    <fieldset className="flex flex-wrap items-end gap-2">
      <legend className="label">{label}</legend>
      <input name={`${prefix}.surcharge`} aria-label={`${label} amount`} inputMode="decimal" defaultValue={value?.surcharge ?? ""} className="input w-24" />
      {percentage && (
        <label className="flex items-center gap-1 text-xs">
          <input type="checkbox" name={`${prefix}.is_percentage`} defaultChecked={value?.is_percentage} /> %
        </label>
      )}
      <label className="flex items-center gap-1 text-xs">
        <input type="checkbox" name={`${prefix}.add_fuel_levy`} defaultChecked={value?.add_fuel_levy} /> add fuel levy
      </label>
    </fieldset>
  );
}

function SetForm({ set, carriers }: { set?: SurchargeSetJson; carriers: Array<{ code: string; name: string }> }) {
  const navigation = useNavigation();
  const oversize = set?.oversized_surcharges ?? [];
  const remote = set?.remote_surcharges ?? [];
  return (
    <Form method="post" className="space-y-3" aria-label={set ? `Edit ${set.name}` : "New surcharge set"}>
      {set && <input type="hidden" name="id" value={set.id} />}
      <div className="grid gap-3 sm:grid-cols-5">
        <div>
          <label className="label" htmlFor={`name-${set?.id ?? "new"}`}>
            Name
          </label>
          <input id={`name-${set?.id ?? "new"}`} name="name" defaultValue={set?.name} required className="input" />
        </div>
        <div>
          <label className="label" htmlFor={`code-${set?.id ?? "new"}`}>
            Code
          </label>
          <input id={`code-${set?.id ?? "new"}`} name="code" defaultValue={set?.code} required className="input" />
        </div>
        <div>
          <label className="label" htmlFor={`carrier-${set?.id ?? "new"}`}>
            Carrier
          </label>
          <select id={`carrier-${set?.id ?? "new"}`} name="carrier_code" defaultValue={set?.carrier_code} className="input">
            {carriers.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label className="label" htmlFor={`services-${set?.id ?? "new"}`}>
            Services (codes, blank = all)
          </label>
          <input id={`services-${set?.id ?? "new"}`} name="service_codes" defaultValue={set?.service_codes.join(", ")} className="input" />
        </div>
        <div>
          <label className="label" htmlFor={`sites-${set?.id ?? "new"}`}>
            Sites (codes, blank = all)
          </label>
          <input id={`sites-${set?.id ?? "new"}`} name="site_codes" defaultValue={set?.site_codes.join(", ")} className="input" />
        </div>
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        <AmountInput label="Dangerous goods" prefix="dg" value={set?.dg_surcharge} />
        <AmountInput label="Manual handling" prefix="manual" value={set?.manual_handling_surcharge} />
        <AmountInput label="Residential" prefix="residential" value={set?.residential_surcharge} />
        <AmountInput label="Warranty" prefix="warranty" value={set?.warranty_surcharge} />
        <AmountInput label="Return ($)" prefix="return" value={set?.return_surcharge} percentage={false} />
      </div>
      <div className="grid gap-4 md:grid-cols-2">
        <table className="text-sm">
          <caption className="text-left font-medium">Oversize levels (longest side in metres, or unit weight in kg)</caption>
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>Level</th>
              <th>From m</th>
              <th>To m</th>
              <th>From kg</th>
              <th>To kg</th>
              <th>Surcharge</th>
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: LEVELS }, (_, i) => (
              <tr key={i}>
                {(["level", "from_m", "to_m", "from_kg", "to_kg"] as const).map((k) => (
                  <td key={k}>
                    <input name={`oversize.${i}.${k}`} aria-label={`Oversize ${i + 1} ${k}`} defaultValue={oversize[i]?.[k] ?? (k === "level" ? i + 1 : "")} className="input w-16" />
                  </td>
                ))}
                <td className="flex items-center gap-1">
                  <input name={`oversize.${i}.surcharge`} aria-label={`Oversize ${i + 1} surcharge`} defaultValue={oversize[i]?.surcharge ?? ""} className="input w-20" />
                  <input type="checkbox" name={`oversize.${i}.is_percentage`} aria-label={`Oversize ${i + 1} is a percentage`} defaultChecked={oversize[i]?.is_percentage} />%
                  <input type="checkbox" name={`oversize.${i}.add_fuel_levy`} aria-label={`Oversize ${i + 1} adds fuel levy`} defaultChecked={oversize[i]?.add_fuel_levy} />
                  fuel
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <table className="text-sm">
          <caption className="text-left font-medium">Remote tiers (1 inner regional ... 4 very remote)</caption>
          <thead className="text-left text-xs text-slate-500">
            <tr>
              <th>Tier</th>
              <th>Surcharge</th>
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: LEVELS }, (_, i) => (
              <tr key={i}>
                <td>
                  <input name={`remote.${i}.tier`} aria-label={`Remote ${i + 1} tier`} defaultValue={remote[i]?.tier ?? i + 1} className="input w-16" />
                </td>
                <td className="flex items-center gap-1">
                  <input name={`remote.${i}.surcharge`} aria-label={`Remote ${i + 1} surcharge`} defaultValue={remote[i]?.surcharge ?? ""} className="input w-20" />
                  <input type="checkbox" name={`remote.${i}.is_percentage`} aria-label={`Remote ${i + 1} is a percentage`} defaultChecked={remote[i]?.is_percentage} />%
                  <input type="checkbox" name={`remote.${i}.add_fuel_levy`} aria-label={`Remote ${i + 1} adds fuel levy`} defaultChecked={remote[i]?.add_fuel_levy} />
                  fuel
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
        Save
      </button>
    </Form>
  );
}

export default function Surcharges() {
  const { sets, carriers, customer, crumbs } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const fieldErrors = Object.entries(actionData?.fieldErrors ?? {}).filter(([k]) => k !== "base");
  return (
    <div className="space-y-4">
      <Breadcrumbs crumbs={crumbs} />
      <h1 className="text-xl font-semibold">Surcharges · {customer?.name}</h1>
      <Alerts alerts={actionData?.alerts ?? []} />
      {fieldErrors.length > 0 && (
        <ul role="alert" className="card text-sm text-red-800">
          {fieldErrors.map(([field, messages]) => (
            <li key={field}>
              {field}: {messages.join("; ")}
            </li>
          ))}
        </ul>
      )}
      {sets.length === 0 && <p className="text-sm text-slate-500">This customer has no surcharge sets.</p>}
      {sets.map((set) => (
        <section key={set.id} className="card space-y-2" aria-label={set.name}>
          <header className="flex items-baseline justify-between">
            <h2 className="font-semibold">
              {set.name} <span className="text-sm text-slate-500">({set.code}) · {set.carrier_code}</span>
            </h2>
            <Form method="post">
              <input type="hidden" name="intent" value="delete" />
              <input type="hidden" name="id" value={set.id} />
              <button type="submit" className="text-sm text-red-700 hover:underline">
                Delete
              </button>
            </Form>
          </header>
          <p className="text-sm text-slate-600">
            Services: {set.service_codes.join(", ") || "all"} · Sites: {set.site_codes.join(", ") || "all"} · DG {fmt(set.dg_surcharge)} · Manual
            handling {fmt(set.manual_handling_surcharge)} · Residential {fmt(set.residential_surcharge)} · Warranty {fmt(set.warranty_surcharge)} · Return{" "}
            {fmt(set.return_surcharge)}
          </p>
          <p className="text-sm text-slate-600">
            {set.oversized_surcharges.length === 0
              ? "No length surcharges"
              : set.oversized_surcharges.map((o) => `Level ${o.level}: ${fmt(o)}`).join(" · ")}
            {" · "}
            {set.remote_surcharges.length === 0 ? "No remote surcharges" : set.remote_surcharges.map((r) => `Tier ${r.tier}: ${fmt(r)}`).join(" · ")}
          </p>
          <details>
            <summary className="cursor-pointer text-sm text-sky-700">Edit</summary>
            <SetForm set={set} carriers={carriers} />
          </details>
        </section>
      ))}
      <section className="card" aria-labelledby="new-set">
        <h2 id="new-set" className="mb-2 font-semibold">
          New surcharge set
        </h2>
        <SetForm carriers={carriers} />
      </section>
    </div>
  );
}
