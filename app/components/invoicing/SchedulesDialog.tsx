import { Link } from "@remix-run/react";
import { ServerDialog } from "~/components/finance/ServerDialog";
import type { ScheduleJson } from "~/modules/invoicing/schedules.server";
import { monthFirst } from "~/modules/calendar/display-date";
import { SCHEDULE_PERIOD_LABELS, type SchedulePeriod } from "~/modules/invoicing/schedule";

/** When a schedule runs next, on its own zone's clock in the reader's date format ("Mon 30/11/2026 09:00"). */
function nextRun(s: ScheduleJson, dateFormat: string): string {
  if (!s.next_run_at) return "Not again";
  const zone = s.options.invoicing_options.time_zone;
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-AU", { timeZone: zone, weekday: "short", day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23" })
      .formatToParts(new Date(s.next_run_at))
      .map((x) => [x.type, x.value]),
  );
  const date = monthFirst(dateFormat) ? `${p.month}/${p.day}/${p.year}` : `${p.day}/${p.month}/${p.year}`;
  return `${p.weekday} ${date} ${p.hour}:${p.minute}`;
}

/** The Invoicing schedules modal (spec 3): read only; schedules are added from Send invoice. */
export function SchedulesDialog({ schedules, closeHref, scheduled, dateFormat }: { schedules: ScheduleJson[]; closeHref: string; scheduled: boolean; dateFormat: string }) {
  return (
    <ServerDialog title="Invoicing schedules" closeHref={closeHref} returnFocusId="open-schedules" testId="schedules" wide>
      {scheduled ? (
        <p role="status" className="rounded border border-green-300 bg-green-50 px-3 py-2 text-sm">
          The invoicing schedule was added.
        </p>
      ) : null}
      {schedules.length === 0 ? (
        <p className="text-sm text-slate-600">There are no invoicing schedules. Choose lines under Invoice to schedule them.</p>
      ) : (
        <table className="w-full text-sm" data-testid="schedule-list">
          <caption className="sr-only">Invoicing schedules</caption>
          <thead className="border-y border-slate-200 text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="px-2 py-2">Period</th>
              <th className="px-2 py-2">Day</th>
              <th className="px-2 py-2">Hour</th>
              <th className="px-2 py-2">Time zone</th>
              <th className="px-2 py-2">Next run</th>
              <th className="px-2 py-2 text-right">Lines</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {schedules.map((s) => (
              <tr key={s.id} data-testid="schedule-row">
                <td className="px-2 py-1">{SCHEDULE_PERIOD_LABELS[s.period as SchedulePeriod] ?? s.period}</td>
                <td className="px-2 py-1">{s.options.invoicing_options.date ?? s.options.invoicing_options.day ?? "—"}</td>
                <td className="px-2 py-1">{s.options.invoicing_options.hour}</td>
                <td className="px-2 py-1">{s.options.invoicing_options.time_zone}</td>
                <td className="px-2 py-1">{nextRun(s, dateFormat)}</td>
                <td className="px-2 py-1 text-right tabular-nums">{s.options.invoice_detail_ids.length}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="flex justify-end">
        <Link to={closeHref} className="btn" replace>
          Close
        </Link>
      </div>
    </ServerDialog>
  );
}
