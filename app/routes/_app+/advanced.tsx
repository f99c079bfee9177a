import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { DatePicker } from "~/components/DatePicker";
import { AdvancedResults } from "~/components/search/AdvancedResults";
import { requireUser } from "~/modules/auth/guard.server";
import { isSuperAdmin } from "~/modules/auth/roles";
import { displayDateToIso, formatDisplayDate, forPerson, parseDisplayDate } from "~/modules/calendar/display-date";
import { todayIn } from "~/modules/calendar/site-time";
import { SEARCH_STATES } from "~/modules/search/advanced-schema.server";
import { advancedSearch, searchOptions, type AdvancedResult } from "~/modules/search/advanced.server";
import { DESPATCH_TYPE_LABELS, DESPATCH_TYPES, SEARCH_FAILED, moveDates, stateText } from "~/modules/search/search";
import { AppError, firstErrorMessage, type FieldErrors } from "~/utils/errors";

export const meta: MetaFunction = () => [{ title: "Advanced search · FreightDesk" }];

const TEXT_FIELDS = [
  ["consignment_number", "Consignment number"],
  ["reference", "Reference"],
  ["custom_reference", "Custom reference"],
  ["receiver_name", "Receiver name"],
  ["postcode", "Postcode"],
  ["locality", "Locality"],
] as const;
const CRITERIA = ["from_date", "to_date", "despatch_type", "active", "state", "site", "carrier", "service", ...TEXT_FIELDS.map(([k]) => k), "admin", "sort", "dir"] as const;
type Criteria = Partial<Record<(typeof CRITERIA)[number], string>>;

/**
 * /advanced (spec 1 and 2, "Advanced search"): the criteria are the URL (a GET form), so a search
 * can be kept, shared and run without JavaScript. Without criteria the form shows today to today
 * and runs nothing: a search may take a while, so it runs when asked.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const params = new URL(request.url).searchParams;
  // typed and shown in the user's own format, today in their own zone (their clock)
  const dates = { country: user.clock.dateFormat, today: todayIn(user.clock.timeZone) };
  const criteria: Criteria = {};
  for (const k of CRITERIA) {
    const v = params.get(k);
    if (v != null && v !== "") criteria[k] = v;
  }
  const asked = params.has("from_date") || params.has("to_date");
  let result: AdvancedResult | null = null;
  let errors: FieldErrors = {};
  if (asked) {
    try {
      // dates are typed in the site's format; the module reads YYYY-MM-DD
      const query = { ...criteria, from_date: parseDisplayDate(criteria.from_date ?? "", dates.country), to_date: parseDisplayDate(criteria.to_date ?? "", dates.country) };
      if (query.admin !== "true") delete query.admin;
      result = await advancedSearch(context.db, user, query);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      errors = Object.fromEntries(Object.entries(e.fieldErrors).map(([k, list]) => [k, list.map((m) => forPerson(m, dates.country))]));
    }
  }
  return {
    criteria,
    asked,
    result,
    errors,
    dates,
    superAdmin: isSuperAdmin(user),
    sites: user.sites.map((s) => ({ code: s.code, name: s.name, country: s.country })),
    options: await searchOptions(context.db, user),
    states: SEARCH_STATES,
  };
}

export default function AdvancedSearch() {
  const { criteria, asked, result, errors, dates, superAdmin, sites, options, states } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const searching = navigation.state === "loading" && navigation.location.pathname === "/advanced";
  const shown = (v: string | undefined) => {
    if (!v) return formatDisplayDate(dates.today, dates.country);
    const iso = displayDateToIso(v, dates.country);
    return iso ? formatDisplayDate(iso, dates.country) : v;
  };
  const [range, setRange] = useState({ from: shown(criteria.from_date), to: shown(criteria.to_date) });
  useEffect(() => setRange({ from: shown(criteria.from_date), to: shown(criteria.to_date) }), [criteria.from_date, criteria.to_date]); // eslint-disable-line react-hooks/exhaustive-deps

  // Moving one date past the other moves the other (spec 2 section 5), once both are whole dates.
  const onDate = (k: "from" | "to", text: string) => {
    const next = { ...range, [k]: text };
    const [from, to] = [displayDateToIso(next.from, dates.country), displayDateToIso(next.to, dates.country)];
    if (!from || !to) return setRange(next);
    const moved = moveDates({ from, to }, k, k === "from" ? from : to);
    setRange({ from: formatDisplayDate(moved.from, dates.country), to: formatDisplayDate(moved.to, dates.country) });
  };

  const dateError = errors.to_date?.[0] ?? errors.from_date?.[0];
  const otherError = Object.entries(errors).find(([k]) => k !== "from_date" && k !== "to_date")?.[1]?.[0];
  const select = (name: keyof Criteria, label: string, choices: Array<[string, string]>, fallback = "") => (
    <div>
      <label className="label" htmlFor={`adv-${name}`}>
        {label}
      </label>
      <select id={`adv-${name}`} name={name} className="input" defaultValue={criteria[name] ?? fallback} key={`${name}-${criteria[name] ?? ""}`}>
        {choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <div className="space-y-4" data-testid="advanced-search">
      <h1 className="text-xl font-semibold">Advanced search</h1>
      <Form method="get" className="card space-y-3" aria-label="Advanced search criteria">
        <div className="flex flex-wrap items-start gap-3">
          {(["from", "to"] as const).map((k) => (
            <DatePicker
              key={k}
              className="w-48"
              id={`adv-${k}_date`}
              name={`${k}_date`}
              label={k === "from" ? "From despatch date" : "To despatch date"}
              buttonLabel={`Choose the ${k} date`}
              country={dates.country}
              today={dates.today}
              required
              value={range[k]}
              onChange={(text) => onDate(k, text)}
              invalid={Boolean(errors[`${k}_date`])}
              describedBy={dateError ? "adv-date-error" : undefined}
            />
          ))}
          {select("despatch_type", "Despatch type", DESPATCH_TYPES.map((t) => [t, DESPATCH_TYPE_LABELS[t]]), "normal")}
          {select("active", "Active", [["true", "Active"], ["false", "Inactive"]], "true")}
          {select("state", "State", [["", "Any"], ...states.map((s): [string, string] => [s, stateText(s)])])}
          {select("site", "Site", [["", "All"], ...sites.map((s): [string, string] => [s.code, s.name])])}
          {select("carrier", "Carrier", [["", "Any"], ...options.carriers.map((c): [string, string] => [c.code, c.name])])}
          {select("service", "Service", [["", "Any"], ...options.services.map((s): [string, string] => [s.code, `${s.carrier} · ${s.name}`])])}
        </div>
        {dateError ? (
          <p id="adv-date-error" className="field-error" role="alert" data-testid="date-error">
            {dateError}
          </p>
        ) : null}
        <div className="flex flex-wrap items-end gap-3">
          {TEXT_FIELDS.map(([name, label]) => (
            <div key={name} className="w-48">
              <label className="label" htmlFor={`adv-${name}`}>
                {label}
              </label>
              <input id={`adv-${name}`} name={name} className="input" maxLength={100} defaultValue={criteria[name] ?? ""} key={`${name}-${criteria[name] ?? ""}`} />
            </div>
          ))}
          {superAdmin ? (
            <label className="flex items-center gap-2 pb-2 text-sm">
              <input type="checkbox" name="admin" value="true" defaultChecked={criteria.admin === "true"} key={`admin-${criteria.admin ?? ""}`} />
              Admin: changed by staff
            </label>
          ) : null}
          {criteria.sort ? <input type="hidden" name="sort" value={criteria.sort} /> : null}
          {criteria.dir ? <input type="hidden" name="dir" value={criteria.dir} /> : null}
          <button type="submit" className="btn-primary">
            {searching ? "Searching…" : "Search"}
          </button>
          <Link to="/advanced" className="btn">
            Clear
          </Link>
        </div>
        {otherError ? (
          <p className="field-error" role="alert">
            {otherError}
          </p>
        ) : null}
      </Form>
      {asked && !result && !dateError && !otherError ? (
        <p role="alert" className="field-error">
          {firstErrorMessage(errors) ?? SEARCH_FAILED}
        </p>
      ) : null}
      {result ? <AdvancedResults result={result} criteria={criteria} country={dates.country} /> : null}
    </div>
  );
}
