import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { type Alert } from "~/components/Alerts";
import { BookingJob, jobRunning } from "~/components/bookings/BookingJob";
import { requireUser } from "~/modules/auth/guard.server";
import { rebook } from "~/modules/bookings/book.server";
import { getBooking } from "~/modules/bookings/bookings.server";
import { formatDisplayDate } from "~/modules/calendar/display-date";
import { jobStatusFor } from "~/modules/jobs/jobs.server";
import { AppError } from "~/utils/errors";
import { throwIfAccessError } from "~/utils/ui.server";

export const meta: MetaFunction = () => [{ title: "Booking · FreightDesk" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const q = new URL(request.url).searchParams;
  try {
    const booking = await getBooking(context.db, user, params.id ?? "");
    const jobId = q.get("job");
    const status = jobId ? await jobStatusFor(context.db, user, jobId).catch(() => null) : null;
    return { booking, country: user.clock.dateFormat, job: status && jobId ? { id: jobId, status } : null, moved: q.get("moved") === "1" };
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** Rebook: works before JavaScript loads; the page then shows the job (?job=). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  try {
    const { job_id, booking_ids, warnings } = await rebook(context.db, context.queue, user, params.id ?? "", { rebook: true });
    return redirect(`/booking/${booking_ids[0]}?job=${job_id}${warnings.length ? "&moved=1" : ""}`);
  } catch (e) {
    throwIfAccessError(e);
    if (e instanceof AppError) return data({ message: e.message }, { status: e.status });
    throw e;
  }
}

export default function Booking() {
  const { booking: b, country, job, moved } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const running = jobRunning(job);
  const alerts: Alert[] = [...(result?.message ? [{ type: "error" as const, message: result.message }] : []), ...(b.error ? [{ type: "error" as const, message: b.error }] : [])];
  const fields: [string, string | number][] = [
    ["Booking number", b.booking_number ?? "—"],
    ["Carrier", b.carrier_name],
    ["Service", b.service_name ?? ""],
    ["Site", b.site_name],
    ["Booking date", formatDisplayDate(b.booking_date, country)],
    ["Ready at", b.ready_at],
    ["Closing at", b.closing_at],
    ["Total consignments", b.total_consignments],
    ["Total items", b.total_items],
    ["Total weight (kg)", b.total_weight],
    ["Total volume (m³)", b.total_volume],
    ["Hazardous goods", b.hazardous_goods ? "Yes" : "No"],
    ["Special requirements", b.special_requirements ?? ""],
  ];
  return (
    <div className="max-w-5xl space-y-4" data-testid="booking-screen">
      <div className="flex items-center justify-between gap-3">
        <h1 className="text-xl font-semibold">
          Booking {b.booking_number ?? b.id} <span className="ml-2 rounded bg-slate-100 px-2 py-0.5 text-base" data-testid="booking-state">{b.state_label}</span>
        </h1>
        <Link to="/bookings" className="btn">
          Back to bookings
        </Link>
      </div>
      <BookingJob job={job} moved={moved} alerts={alerts} />
      {b.booking_error ? (
        <div className="card border-red-300" id="booking_booking_error">
          <h2 className="font-semibold text-red-800">Booking error</h2>
          <p className="text-sm text-red-900">{b.booking_error}</p>
        </div>
      ) : null}
      <dl className="card grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        {fields.map(([label, value]) => (
          <div key={label} className="flex gap-2">
            <dt className="w-44 shrink-0 font-medium text-slate-600">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {b.additional_items.length ? (
        <section className="card" aria-labelledby="additional-items">
          <h2 id="additional-items" className="mb-2 font-semibold">
            Additional items
          </h2>
          <table className="w-full text-sm">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                {["Quantity", "Type", "Length", "Width", "Height", "Weight", "UN number", "Class", "Proper shipping name"].map((h) => (
                  <th key={h} className="py-1 pr-3">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {b.additional_items.map((i, n) => (
                <tr key={n} className="border-t border-slate-100">
                  {["quantity", "type", "length", "width", "height", "weight_in_uom", "un_number", "hazard_class", "proper_shipping_name"].map((f) => (
                    <td key={f} className="py-1 pr-3">
                      {String(i[f] ?? "")}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      <section className="card overflow-x-auto" aria-labelledby="booking-consignments">
        <h2 id="booking-consignments" className="mb-2 font-semibold">
          Consignments
        </h2>
        {b.consignments.length === 0 ? (
          <p className="text-sm text-slate-600">There are no consignments to display.</p>
        ) : (
          <table className="w-full text-sm" data-testid="booking-consignments">
            <thead className="text-left text-xs uppercase text-slate-500">
              <tr>
                <th className="py-1 pr-3">Consignment</th>
                <th className="py-1 pr-3">State</th>
                <th className="py-1 pr-3">Receiver</th>
                <th className="py-1 pr-3">Despatch date</th>
                <th className="py-1 pr-3 text-right">Items</th>
                <th className="py-1 pr-3 text-right">Weight</th>
                <th className="py-1 pr-3 text-right">Volume</th>
                <th className="py-1 pr-3">Dangerous</th>
              </tr>
            </thead>
            <tbody>
              {b.consignments.map((c) => (
                <tr key={c.id} className="border-t border-slate-100">
                  <td className="py-1 pr-3">
                    <Link to={`/consignment/${c.id}`} className="text-sky-700 underline">
                      {c.consignment_number ?? c.id}
                    </Link>
                  </td>
                  <td className="py-1 pr-3">{c.state.replace(/_/g, " ")}</td>
                  <td className="py-1 pr-3">{c.receiver_address}</td>
                  <td className="py-1 pr-3">{c.despatch_date ? formatDisplayDate(c.despatch_date, country) : ""}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{c.item_count}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{c.weight}</td>
                  <td className="py-1 pr-3 text-right tabular-nums">{c.volume}</td>
                  <td className="py-1 pr-3">{c.dangerous ? "Yes" : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {b.rebook && !running ? (
        <Form method="post">
          <button type="submit" className="btn-primary" disabled={busy || Boolean(b.error)}>
            Rebook
          </button>
        </Form>
      ) : null}
    </div>
  );
}
