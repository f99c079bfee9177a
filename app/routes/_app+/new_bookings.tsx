import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { type Alert } from "~/components/Alerts";
import { BookingJob } from "~/components/bookings/BookingJob";
import { DatePicker } from "~/components/DatePicker";
import { FieldError, FormErrors, useFocusFirstInvalid } from "~/components/Field";
import { TimeSelect } from "~/components/TimeSelect";
import { requireUser } from "~/modules/auth/guard.server";
import { requestBookings } from "~/modules/bookings/book.server";
import { newBookings } from "~/modules/bookings/bookings.server";
import { bookingsFromForm, DG_FIELDS, ITEM_FIELDS, MAX_SPECIAL_REQUIREMENTS } from "~/modules/bookings/rules";
import { formatDisplayDate, forPerson, parseDisplayDate } from "~/modules/calendar/display-date";
import { jobStatusFor } from "~/modules/jobs/jobs.server";
import { AppError, type FieldErrors } from "~/utils/errors";
import { readPageForm } from "~/utils/http.server";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "New bookings · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const q = new URL(request.url).searchParams;
  // the date is typed and shown in the user's own format (their clock); the site's day decides "today"
  const dateFormat = user.clock.dateFormat;
  try {
    const day = await newBookings(context.db, user, { site_id: q.get("site_id"), date: q.get("date") ? parseDisplayDate(q.get("date")!, dateFormat) : null });
    const jobId = q.get("job");
    const status = jobId ? await jobStatusFor(context.db, user, jobId).catch(() => null) : null;
    return { day, dateError: null, dateFormat, sites: user.sites.map((s) => ({ id: s.id, name: s.name, country: s.country })), job: status && jobId ? { id: jobId, status } : null, moved: q.get("moved") === "1" };
  } catch (e) {
    throwIfAccessError(e);
    // a date that is not one: today's list with the date's message
    if (e instanceof AppError && e.fieldErrors.date) {
      const day = await newBookings(context.db, user, { site_id: q.get("site_id") });
      return { day, dateError: e.fieldErrors.date.map((m) => forPerson(m, dateFormat)), dateFormat, sites: user.sites.map((s) => ({ id: s.id, name: s.name, country: s.country })), job: null, moved: false };
    }
    throw e;
  }
}

type Values = Record<string, string | string[]>;

/** Book: works before JavaScript loads; the page then shows the job's progress (?job=). */
export async function action({ request, context }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const form = await readPageForm(request);
  const values: Values = {};
  for (const [k, v] of form) if (typeof v === "string") values[k] = k.endsWith(".c") ? [...((values[k] as string[]) ?? []), v] : v;
  try {
    const { job_id, warnings } = await requestBookings(context.db, context.queue, user, bookingsFromForm(form));
    const p = new URLSearchParams({ site_id: String(form.get("site_id") ?? ""), date: String(form.get("booking_date") ?? ""), job: job_id });
    if (warnings.length) p.set("moved", "1");
    return redirect(`/new_bookings?${p}`);
  } catch (e) {
    throwIfAccessError(e);
    if (e instanceof AppError) return data({ message: e.message, errors: e.fieldErrors as FieldErrors, values }, { status: e.status });
    throw e;
  }
}

export default function NewBookings() {
  const { day, dateError, dateFormat, sites, job, moved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const errors: FieldErrors = result?.errors ?? {};
  const values: Values = result?.values ?? {};
  const text = (k: string, fallback = "") => (typeof values[k] === "string" ? (values[k] as string) : fallback);
  const ticked = (g: number, id: number) => (Array.isArray(values[`g${g}.c`]) ? (values[`g${g}.c`] as string[]).includes(String(id)) : false);
  const formRef = useRef<HTMLFormElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [selected, setSelected] = useState(false);
  const [times, setTimes] = useState({ ready_at: text("ready_at", day.ready_at), closing_at: text("closing_at", day.closing_at) });
  const [rows, setRows] = useState(() => day.groups.map((_, g) => Math.max(1, Number(text(`g${g}.rows`, "1")))));
  useFocusFirstInvalid(result?.errors);

  // Book is enabled only with something selected: a consignment ticked or an additional item field filled
  const recount = () => {
    const form = formRef.current;
    if (!form) return;
    const fields = [...new FormData(form).entries()];
    setSelected(fields.some(([k, v]) => (/\.c$/.test(k) || /\.items\./.test(k)) && String(v).trim() !== ""));
  };
  useEffect(() => {
    setHydrated(true);
    recount();
  }, []);
  useEffect(() => setRows(day.groups.map((_, g) => Math.max(1, Number(text(`g${g}.rows`, "1"))))), [day]); // eslint-disable-line react-hooks/exhaustive-deps

  const alerts: Alert[] = result?.message && !Object.keys(errors).some((k) => k.includes(".")) ? [{ type: "error", message: result.message }] : [];
  const groupError = (g: number) => [...new Set(Object.entries(errors).filter(([k]) => k.startsWith(`bookings.${g}.`) && !k.includes(".additional_items_attributes.")).flatMap(([, m]) => m))];
  const itemError = (g: number, n: number, f: string) => errors[`bookings.${g}.additional_items_attributes.${n}.${f}`];
  const anyItemError = Object.keys(errors).some((k) => k.includes(".additional_items_attributes."));

  return (
    <div className="max-w-6xl space-y-4" data-testid="new-bookings-screen" data-hydrated={hydrated ? "true" : undefined}>
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">New bookings</h1>
        <Link to="/bookings" className="btn">
          Bookings
        </Link>
      </div>
      <BookingJob job={job} moved={moved} alerts={alerts} />

      <Form method="get" className="card flex flex-wrap items-end gap-3" aria-label="Booking day">
        <div className="w-56">
          <label htmlFor="site_id" className="label">
            Site
          </label>
          <select id="site_id" name="site_id" defaultValue={day.site.id} key={`site-${day.site.id}`} className="input">
            {sites.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div>
          <DatePicker key={`date-${day.date}`} className="w-48" id="date" name="date" label="Despatch date" buttonLabel="Choose the despatch date" country={dateFormat} today={day.today} defaultValue={formatDisplayDate(day.date, dateFormat)} invalid={Boolean(dateError)} describedBy={dateError ? "date-error" : undefined} />
          <FieldError id="date-error" errors={dateError ?? undefined} />
        </div>
        <button type="submit" className="btn">
          Show
        </button>
      </Form>

      {day.groups.length === 0 ? (
        <div className="card">
          <p className="text-sm text-slate-600">{day.message}</p>
        </div>
      ) : (
        <Form method="post" ref={formRef} onChange={recount} aria-label="Bookings to make" className="space-y-4">
          <input type="hidden" name="site_id" value={day.site.id} />
          <input type="hidden" name="booking_date" value={day.date} />
          <input type="hidden" name="groups" value={day.groups.length} />
          <div className="card flex flex-wrap gap-4">
            <TimeSelect id="ready_at" name="ready_at" label="Pickup ready at" value={times.ready_at} blank={false} onChange={(t) => setTimes((s) => ({ ...s, ready_at: t }))} invalid={Boolean(errors["bookings.0.ready_at"])} describedBy={errors["bookings.0.ready_at"] ? "ready_at-error" : undefined} />
            <TimeSelect id="closing_at" name="closing_at" label="Closing at" value={times.closing_at} blank={false} onChange={(t) => setTimes((s) => ({ ...s, closing_at: t }))} invalid={Boolean(errors["bookings.0.closing_at"])} describedBy={errors["bookings.0.closing_at"] ? "closing_at-error" : undefined} />
            <FieldError id="ready_at-error" errors={errors["bookings.0.ready_at"]} />
            <FieldError id="closing_at-error" errors={errors["bookings.0.closing_at"]} />
            {day.site.closing_time ? <p className="self-end text-sm text-slate-600">The site closes at {day.site.closing_time}.</p> : null}
          </div>

          {day.groups.map((group, g) => (
            <fieldset key={`${group.carrier_code}-${group.service_code}`} className="card space-y-3" data-testid="service-group">
              <legend className="px-1 font-semibold">
                {`${group.carrier_name} — ${group.service_name}`}
              </legend>
              <input type="hidden" name={`g${g}.service_code`} value={group.service_code} />
              <input type="hidden" name={`g${g}.carrier_code`} value={group.carrier_code} />
              <input type="hidden" name={`g${g}.rows`} value={rows[g] ?? 1} />
              <FormErrors errors={groupError(g).filter((m) => m !== errors["bookings.0.ready_at"]?.[0] && m !== errors["bookings.0.closing_at"]?.[0] && m !== errors["bookings.0.special_requirements"]?.[0])} />
              <table className="w-full text-sm">
                <thead className="text-left text-xs uppercase text-slate-500">
                  <tr>
                    <th className="w-8 py-1">
                      <span className="sr-only">Book</span>
                    </th>
                    <th className="py-1 pr-3">Consignment</th>
                    <th className="py-1 pr-3">Receiver</th>
                    <th className="py-1 pr-3 text-right">Items</th>
                    <th className="py-1 pr-3 text-right">Weight</th>
                    <th className="py-1 pr-3">Dangerous</th>
                  </tr>
                </thead>
                <tbody>
                  {group.consignments.map((c) => (
                    <tr key={c.id} className="border-t border-slate-100">
                      <td className="py-1">
                        <input type="checkbox" name={`g${g}.c`} value={c.id} defaultChecked={ticked(g, c.id)} disabled={!c.bookable} aria-label={`Book consignment ${c.consignment_number ?? c.id}`} aria-describedby={c.warning ? `warning-${c.id}` : undefined} />
                      </td>
                      <td className="py-1 pr-3">
                        {c.consignment_number ?? c.id}
                        {c.warning ? (
                          <span id={`warning-${c.id}`} className="ml-2 text-xs text-amber-800">
                            {c.warning}
                          </span>
                        ) : null}
                      </td>
                      <td className="py-1 pr-3">{c.receiver_address}</td>
                      <td className="py-1 pr-3 text-right tabular-nums">{c.item_count}</td>
                      <td className="py-1 pr-3 text-right tabular-nums">{c.weight}</td>
                      <td className="py-1 pr-3">{c.dangerous ? "Yes" : ""}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <details open={anyItemError || Boolean(text(`g${g}.items.0.quantity`))}>
                <summary className="cursor-pointer text-sm font-medium">Additional items</summary>
                <div className="mt-2 space-y-2">
                  {Array.from({ length: rows[g] ?? 1 }, (_, n) => (
                    <div key={n} className="flex flex-wrap gap-2" role="group" aria-label={`Additional item ${n + 1}`}>
                      {[...ITEM_FIELDS, ...DG_FIELDS].map((f) => {
                        const name = `g${g}.items.${n}.${f}`;
                        const err = itemError(g, n, f);
                        return (
                          <div key={f} className="w-28">
                            <label htmlFor={name} className="label text-xs">
                              {f.replace(/_in_uom$/, "").replace(/_/g, " ")}
                            </label>
                            <input id={name} name={name} className="input" defaultValue={text(name)} aria-invalid={err ? true : undefined} aria-describedby={err ? `${name}-error` : undefined} />
                            <FieldError id={`${name}-error`} errors={err} />
                          </div>
                        );
                      })}
                    </div>
                  ))}
                  {hydrated ? (
                    <button type="button" className="btn" onClick={() => setRows((r) => r.map((v, i) => (i === g ? v + 1 : v)))}>
                      Add item
                    </button>
                  ) : null}
                </div>
              </details>
            </fieldset>
          ))}

          <div className="card">
            <label htmlFor="special_requirements" className="label">
              Special requirements
            </label>
            <textarea
              id="special_requirements"
              name="special_requirements"
              className="input"
              rows={3}
              maxLength={MAX_SPECIAL_REQUIREMENTS}
              defaultValue={text("special_requirements")}
              aria-invalid={errors["bookings.0.special_requirements"] ? true : undefined}
              aria-describedby={errors["bookings.0.special_requirements"] ? "special_requirements-error" : undefined}
            />
            <FieldError id="special_requirements-error" errors={errors["bookings.0.special_requirements"]} />
          </div>
          <div className="sticky bottom-0 flex items-center gap-3 border-t border-slate-200 bg-white py-3">
            <button type="submit" className="btn-primary" disabled={busy || (hydrated && !selected)}>
              Book
            </button>
            {hydrated && !selected ? <span className="text-sm text-slate-600">Select consignments or add items to book.</span> : null}
          </div>
        </Form>
      )}
    </div>
  );
}
