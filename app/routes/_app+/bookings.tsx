import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { DatePicker } from "~/components/DatePicker";
import { FieldError } from "~/components/Field";
import { requireUser } from "~/modules/auth/guard.server";
import { listBookings, type BookingSort } from "~/modules/bookings/bookings.server";
import { formatDisplayDate, parseDisplayDate } from "~/modules/calendar/display-date";
import { isRealDate } from "~/modules/calendar/dates";
import { userToday } from "~/modules/calendar/site-time";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Bookings · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const q = new URL(request.url).searchParams;
  // the user's clock: their format and today in their zone (a staff user's first site is not theirs)
  const dates = { country: user.clock.dateFormat, today: userToday(user) };
  // typed in the user's format (the address may carry YYYY-MM-DD too)
  const typed = (k: string) => (q.get(k) == null ? null : parseDisplayDate(q.get(k)!, dates.country));
  try {
    const list = await listBookings(context.db, user, { site_id: q.get("site_id"), from_date: typed("from_date"), to_date: typed("to_date"), sort: q.get("sort"), direction: q.get("direction") });
    return { list, dates, sites: user.sites.map((s) => ({ id: s.id, name: s.name })) };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

const COLUMNS: { key: BookingSort; label: string; numeric?: boolean }[] = [
  { key: "booking_date", label: "Booking date" },
  { key: "booking_number", label: "Booking number" },
  { key: "state", label: "State" },
  { key: "site_name", label: "Site" },
  { key: "carrier_name", label: "Carrier" },
  { key: "service_name", label: "Service" },
  { key: "total_consignments", label: "Consignments", numeric: true },
];

/** A filter date in the site's format; one in error stays as it was entered. */
const shown = (v: string, country: string) => (isRealDate(v) ? formatDisplayDate(v, country) : v);

export default function Bookings() {
  const { list, dates, sites } = useLoaderData<typeof loader>();
  const { filters, errors } = list;
  const sortHref = (key: BookingSort) => {
    const p = new URLSearchParams({ from_date: filters.from_date, to_date: filters.to_date, sort: key, direction: filters.sort === key && filters.direction === "asc" ? "desc" : "asc" });
    if (filters.site_id) p.set("site_id", filters.site_id);
    return `/bookings?${p}`;
  };
  const dateError = errors.to_date ?? errors.from_date;
  return (
    <div className="space-y-4" data-testid="bookings-screen">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Bookings</h1>
        <Link to="/new_bookings" className="btn-primary">
          New booking
        </Link>
      </div>

      <Form method="get" className="card flex flex-wrap items-start gap-3" aria-label="Booking filter">
        <div className="w-56">
          <label htmlFor="site_id" className="label">
            Site
          </label>
          <select id="site_id" name="site_id" defaultValue={filters.site_id} className="input" aria-invalid={errors.site_id ? true : undefined} aria-describedby={errors.site_id ? "site_id-error" : undefined}>
            <option value="">All</option>
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <FieldError id="site_id-error" errors={errors.site_id} />
        </div>
        <div>
          <div className="flex gap-3">
            {(["from_date", "to_date"] as const).map((k) => (
              <DatePicker
                key={`${k}-${filters[k]}`}
                className="w-48"
                id={k}
                name={k}
                label={k === "from_date" ? "From" : "To"}
                buttonLabel={`Choose the ${k === "from_date" ? "from" : "to"} date`}
                country={dates.country}
                today={dates.today}
                required
                defaultValue={shown(filters[k], dates.country)}
                invalid={Boolean(errors[k] || dateError)}
                describedBy={dateError ? "date-error" : undefined}
              />
            ))}
          </div>
          <FieldError id="date-error" errors={dateError} />
        </div>
        {filters.sort !== "booking_date" || filters.direction !== "asc" ? (
          <>
            <input type="hidden" name="sort" value={filters.sort} />
            <input type="hidden" name="direction" value={filters.direction} />
          </>
        ) : null}
        <button type="submit" className="btn-primary mt-6">
          Show
        </button>
      </Form>

      {Object.keys(errors).length ? null : list.bookings.length === 0 ? (
        <div className="card">
          <p className="text-sm text-slate-600">{list.message}</p>
        </div>
      ) : (
        <div className="card overflow-x-auto p-0">
          <table className="w-full text-sm" data-testid="bookings">
            <caption className="sr-only">Bookings, sorted by {COLUMNS.find((c) => c.key === filters.sort)!.label.toLowerCase()}</caption>
            <thead className="border-b border-slate-200 text-left text-xs uppercase text-slate-500">
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c.key} className={`px-3 py-2 ${c.numeric ? "text-right" : ""}`} aria-sort={filters.sort === c.key ? (filters.direction === "asc" ? "ascending" : "descending") : undefined}>
                    <Link to={sortHref(c.key)} className="underline-offset-2 hover:underline">
                      {c.label}
                      {filters.sort === c.key ? <span aria-hidden>{filters.direction === "asc" ? " ▲" : " ▼"}</span> : null}
                    </Link>
                  </th>
                ))}
                <th className="px-3 py-2">Ready / closing</th>
                <th className="px-3 py-2 text-right">Items</th>
                <th className="px-3 py-2 text-right">Weight (kg)</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.bookings.map((b) => (
                <tr key={b.id} data-testid="booking-row" className={b.failed_booking ? "bg-red-50" : undefined}>
                  <td className="whitespace-nowrap px-3 py-2">
                    <Link to={`/booking/${b.id}`} className="text-sky-700 underline">
                      {formatDisplayDate(b.booking_date, dates.country)}
                    </Link>
                  </td>
                  <td className="px-3 py-2">{b.booking_number ?? "—"}</td>
                  <td className="px-3 py-2">{b.state_label}</td>
                  <td className="px-3 py-2">{b.site_name}</td>
                  <td className="px-3 py-2">{b.carrier_name}</td>
                  <td className="px-3 py-2">{b.service_name}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{b.total_consignments}</td>
                  <td className="whitespace-nowrap px-3 py-2 tabular-nums">
                    {b.ready_at} – {b.closing_at}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums">{b.total_items}</td>
                  <td className="px-3 py-2 text-right tabular-nums">{b.total_weight}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.truncated ? <p className="p-3 text-sm text-slate-600">Only the first 1000 bookings are shown: choose a site or fewer days.</p> : null}
        </div>
      )}
    </div>
  );
}
