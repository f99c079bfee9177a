import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ChartFigure, formatValue } from "~/components/charts";
import { DatePicker } from "~/components/DatePicker";
import { FieldError, fieldAria, FormErrors } from "~/components/Field";
import { requireUser } from "~/modules/auth/guard.server";
import { formatDisplayDate } from "~/modules/calendar/display-date";
import { userToday } from "~/modules/calendar/site-time";
import { filterParams, SECTIONS, type InsightFilters, type Section } from "~/modules/insight/filters";
import { insightScreen } from "~/modules/insight/screen.server";

export const meta: MetaFunction = () => [{ title: "Insight · FreightDesk" }];

/** /insight?section&from&to&customer_id&site_id&carrier_id&service_id&lane&currency: the dashboards, filters in the URL. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const screen = await insightScreen(context.db, user, new URL(request.url));
  const clock = { dateFormat: user.clock.dateFormat, today: userToday(user) };
  return screen.ok ? { ...screen, clock } : data({ ...screen, clock }, { status: screen.status });
}

const SECTION_LABELS: Record<Section, string> = { performance: "Carrier performance", spend: "Spend", audit: "Audit", emissions: "Emissions" };

type Loaded = ReturnType<typeof useLoaderData<typeof loader>>;

function Filters({ screen }: { screen: Loaded }) {
  const errors: Record<string, string[] | undefined> = screen.ok ? {} : screen.errors;
  const f = screen.ok ? screen.filters : null;
  const raw = screen.ok ? {} : screen.values;
  const value = (name: string, fromFilters: string | number | null | undefined) => (f ? (fromFilters == null ? "" : String(fromFilters)) : (raw[name] ?? ""));
  const date = (name: "from" | "to") => (f ? formatDisplayDate(f[name], screen.clock.dateFormat) : (raw[name] ?? ""));
  const { options } = screen;
  const select = (name: string, label: string, items: { id: number; name: string }[], current: string, all: string) => (
    <div>
      <label htmlFor={`insight-${name}`} className="label">
        {label}
      </label>
      <select id={`insight-${name}`} name={name} defaultValue={current} className="input" {...fieldAria(errors, name)}>
        <option value="">{all}</option>
        {items.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>
      <FieldError id={`${name}-error`} errors={errors[name]} />
    </div>
  );
  return (
    <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Insight filters">
      <input type="hidden" name="section" value={f?.section ?? raw.section ?? "performance"} />
      <div>
        <DatePicker id="insight-from" name="from" label="From" country={screen.clock.dateFormat} today={screen.clock.today} defaultValue={date("from")} invalid={Boolean(errors.from)} describedBy={errors.from ? "from-error" : undefined} />
        <FieldError id="from-error" errors={errors.from} />
      </div>
      <div>
        <DatePicker id="insight-to" name="to" label="To" country={screen.clock.dateFormat} today={screen.clock.today} defaultValue={date("to")} invalid={Boolean(errors.to)} describedBy={errors.to ? "to-error" : undefined} />
        <FieldError id="to-error" errors={errors.to} />
      </div>
      {options.customers && select("customer_id", "Customer", options.customers, value("customer_id", f?.customerId), "All customers")}
      {options.sites.length > 0 && select("site_id", "Site", options.sites, value("site_id", f?.siteId), "All sites")}
      {select("carrier_id", "Carrier", options.carriers, value("carrier_id", f?.carrierId), "All carriers")}
      {options.services.length > 0 && select("service_id", "Service", options.services, value("service_id", f?.serviceId), "All services")}
      <div>
        <label htmlFor="insight-lane" className="label">
          Lane
        </label>
        <input id="insight-lane" name="lane" className="input w-32" placeholder="VIC-NSW" defaultValue={value("lane", f?.lane ? `${f.lane.from}-${f.lane.to}` : null)} {...fieldAria(errors, "lane", true)} />
        <p id="lane-hint" className="sr-only">
          From state to state, for example VIC-NSW
        </p>
        <FieldError id="lane-error" errors={errors.lane} />
      </div>
      {screen.ok && screen.page.currencies.length > 1 && (
        <div>
          <label htmlFor="insight-currency" className="label">
            Currency
          </label>
          <select id="insight-currency" name="currency" defaultValue={screen.page.currency} className="input">
            {screen.page.currencies.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
      )}
      <button type="submit" className="btn btn-primary">
        Show
      </button>
    </Form>
  );
}

function Tabs({ filters }: { filters: InsightFilters }) {
  return (
    <nav aria-label="Insight sections" className="flex gap-1 border-b border-slate-200">
      {SECTIONS.map((s) => (
        <Link
          key={s}
          to={`/insight?${filterParams({ ...filters, section: s })}`}
          aria-current={filters.section === s ? "page" : undefined}
          className={`rounded-t px-3 py-2 text-sm ${filters.section === s ? "border border-b-white border-slate-200 bg-white font-semibold" : "text-sky-800 hover:underline"}`}
        >
          {SECTION_LABELS[s]}
        </Link>
      ))}
    </nav>
  );
}

function Headline({ page }: { page: Extract<Loaded, { ok: true }>["page"] }) {
  const h = page.headline;
  const tiles = [
    // the charts' own formats, so a tile and its charts' tables read alike
    { label: "Consignments", value: formatValue(h.consignments, "number") },
    { label: "On time", value: formatValue(h.on_time_pct, "percent") },
    { label: `Spend (${page.currency}, ex GST)`, value: formatValue(h.sell, "money", { currency: page.currency }) },
    { label: "Emissions", value: `${formatValue(h.kg_co2e, "kg")} CO2e` },
  ];
  return (
    <div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4" data-testid="insight-headline">
        {tiles.map((t) => (
          <div key={t.label} className="rounded border border-slate-200 bg-white p-3">
            <dt className="text-xs text-slate-600">{t.label}</dt>
            <dd className="text-lg font-semibold">{t.value}</dd>
          </div>
        ))}
      </dl>
      {h.without_emissions > 0 && (
        <p className="mt-1 text-xs text-slate-600">{`${h.without_emissions.toLocaleString("en-AU")} consignment(s) have no emissions figure (no weight or no coordinates for a locality); each consignment says why.`}</p>
      )}
    </div>
  );
}

export default function Insight() {
  const screen = useLoaderData<typeof loader>();
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Insight</h1>
      <Filters screen={screen} />
      {!screen.ok ? (
        <FormErrors errors={[screen.message]} />
      ) : (
        <>
          <Tabs filters={screen.filters} />
          <Headline page={screen.page} />
          {screen.filters.section === "audit" && !screen.page.auditAllowed ? (
            <p className="text-sm text-slate-600">The audit figures are for finance users. Ask an administrator for finance permission (can reconcile).</p>
          ) : (
            <div className="grid gap-6 xl:grid-cols-2">
              {screen.page.charts.map((c) => (
                <ChartFigure
                  key={c.id}
                  id={c.id}
                  title={c.title}
                  description={c.description}
                  kind={c.kind}
                  data={c.data}
                  categoryLabel={c.category}
                  csvHref={`/insight.csv?${filterParams(screen.filters, { chart: c.id })}`}
                />
              ))}
            </div>
          )}
        </>
      )}
    </div>
  );
}
