import { Link } from "@remix-run/react";
import { localTime } from "~/modules/calendar/site-time";
import { stateLabel } from "~/modules/consignments/list";
import { NO_EVENTS, safeHref } from "~/modules/tracking/public-link";
import type { TrackingEventJson } from "~/modules/tracking/track-trace.server";


/**
 * The events, newest first (spec 1 section 2): Date (where the site reads it), Event (the
 * carrier's words, with its own code), Status, a map link for an event with a place, and images.
 */
export function EventsTable({ events, timeZone, country, mapLinks }: { events: TrackingEventJson[]; timeZone: string | null; country: string; mapLinks: boolean }) {
  if (!events.length) {
    return (
      <p className="rounded border border-slate-200 bg-slate-50 px-3 py-6 text-center text-sm text-slate-600" data-testid="no-events">
        {NO_EVENTS}
      </p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm" data-testid="tracking-events">
        <caption className="sr-only">Track and trace events, newest first</caption>
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-3">
              Date
            </th>
            <th scope="col" className="py-1 pr-3">
              Event
            </th>
            <th scope="col" className="py-1 pr-3">
              Status
            </th>
            <th scope="col" className="py-1 pr-3">
              Map
            </th>
            <th scope="col" className="py-1">
              Images
            </th>
          </tr>
        </thead>
        <tbody>
          {events.map((e) => {
            const images = e.images.map(safeHref).filter((u): u is string => Boolean(u));
            const pod = safeHref(e.pod_url);
            return (
              <tr key={e.id} className="border-t border-slate-100 align-top" data-testid="tracking-event" data-event={e.event}>
                <td className="whitespace-nowrap py-1.5 pr-3 tabular-nums">
                  <time dateTime={e.event_time}>{localTime(new Date(e.event_time), timeZone, country)}</time>
                </td>
                <td className="py-1.5 pr-3">
                  {e.message ?? e.carrier_event}
                  {e.message && e.carrier_event !== e.event ? <span className="ml-1 text-xs text-slate-500">({e.carrier_event})</span> : null}
                </td>
                <td className="whitespace-nowrap py-1.5 pr-3">{stateLabel(e.event, true)}</td>
                <td className="py-1.5 pr-3">
                  {mapLinks && e.latitude != null && e.longitude != null ? (
                    <Link to={`?event=${e.id}#map`} preventScrollReset={false} className="text-sky-700 underline" aria-label={`Show ${stateLabel(e.event, true).toLowerCase()} on the map`}>
                      Map
                    </Link>
                  ) : (
                    <span className="text-slate-400">—</span>
                  )}
                </td>
                <td className="py-1.5">
                  {pod ? (
                    <a href={pod} target="_blank" rel="noreferrer" className="mr-2 text-sky-700 underline">
                      POD
                    </a>
                  ) : null}
                  {images.map((url, i) => (
                    <a key={url} href={url} target="_blank" rel="noreferrer noopener" className="mr-2 text-sky-700 underline">
                      Image {i + 1}
                    </a>
                  ))}
                  {!pod && !images.length ? <span className="text-slate-400">—</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
