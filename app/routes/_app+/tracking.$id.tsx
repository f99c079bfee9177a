import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Alerts } from "~/components/Alerts";
import { EventsTable } from "~/components/tracking/EventsTable";
import { JourneyMap } from "~/components/tracking/JourneyMap";
import { TrackingUrlDialog } from "~/components/tracking/TrackingUrlDialog";
import { requireUser } from "~/modules/auth/guard.server";
import { formatDisplayDate } from "~/modules/calendar/display-date";
import { stateLabel } from "~/modules/consignments/list";
import { JOURNEY_OVER, LOADING_EVENTS, safeHref } from "~/modules/tracking/public-link";
import { replaceTrackingLink } from "~/modules/tracking/public-link.server";
import { trackingScreen } from "~/modules/tracking/screen.server";
import { AppError } from "~/utils/errors";
import { linkBase, readPageForm } from "~/utils/http.server";
import { throwIfAccessError } from "~/utils/ui.server";
import { idParam } from "~/utils/validation";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Track and trace ${data?.track.metadata.consignment_number ?? ""} · FreightDesk` }];

/** While the journey goes on, the screen asks for news this often (the loader again, in the background). */
const POLL_MS = 15_000;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const url = new URL(request.url);
  try {
    return await trackingScreen(context.db, user, idParam(params.id, "Consignment id"), {
      baseUrl: linkBase(request),
      wantLink: url.searchParams.get("link") === "1",
      // an event's map link (?event=): the map centred on it; anything else is the whole journey
      focusEventId: /^\d{1,9}$/.test(url.searchParams.get("event") ?? "") ? Number(url.searchParams.get("event")) : undefined,
    });
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** New link without JavaScript: replaces the public link and shows the modal with the new one. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const form = await readPageForm(request);
  const id = idParam(params.id, "Consignment id");
  if (form.get("intent") !== "replace_link") return { error: "Unknown action." };
  try {
    await replaceTrackingLink(context.db, user, id, linkBase(request));
    return redirect(`/tracking/${id}?link=1`);
  } catch (e) {
    throwIfAccessError(e);
    if (e instanceof AppError) return { error: e.message };
    throw e;
  }
}

export default function TrackAndTrace() {
  const { track, site, link, map, googleMapsApiKey } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  const m = track.metadata;
  const location = useLocation();
  const revalidator = useRevalidator();
  const over = JOURNEY_OVER.includes(m.consignment_state);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);

  // live updates while the journey goes on: the loader again, only while the page is in view
  useEffect(() => {
    if (over) return;
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [over, revalidator]);

  const wantsLink = new URLSearchParams(location.search).get("link") === "1";
  const pod = safeHref(m.pod_url);
  const website = safeHref(m.web_url);
  const place = (a: typeof m.sender_address) => (a ? [a.name, [a.locality, a.region, a.postcode].filter(Boolean).join(" ")].filter(Boolean).join(", ") : "—");

  return (
    <div className="space-y-4" data-testid="tracking-screen" data-hydrated={hydrated ? "true" : undefined}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold" data-testid="tracking-title">
          Track and trace {m.consignment_number ?? "Pending"} <span className="text-base font-normal text-slate-600">· {stateLabel(m.consignment_state, true)}</span>
        </h1>
        <div className="flex flex-wrap gap-2">
          {pod ? (
            <a href={pod} target="_blank" rel="noreferrer" className="btn">
              POD
            </a>
          ) : null}
          {website ? (
            <a href={website} target="_blank" rel="noreferrer noopener" className="btn">
              Carrier Website
            </a>
          ) : null}
          {link.offered ? <TrackingUrlDialog consignmentId={m.consignment_id} open={wantsLink} url={link.url} closeHref={location.pathname} /> : null}
          <Link to={`/consignment/${m.consignment_id}`} className="btn">
            Back to the consignment
          </Link>
        </div>
      </div>

      {failed?.error ? <Alerts alerts={[{ type: "error", message: failed.error }]} /> : null}
      <dl className="card grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="text-slate-500">Carrier</dt>
        <dd>{m.carrier_name ?? "—"}</dd>
        <dt className="text-slate-500">From</dt>
        <dd>{place(m.sender_address)}</dd>
        <dt className="text-slate-500">To</dt>
        <dd>{place(m.receiver_address)}</dd>
        <dt className="text-slate-500">Estimated delivery</dt>
        <dd>{m.estimated_delivery_date ? formatDisplayDate(m.estimated_delivery_date, site.country) : "—"}</dd>
      </dl>

      <section aria-labelledby="events-heading" className="card space-y-2">
        <div className="flex items-center justify-between">
          <h2 id="events-heading" className="font-semibold">
            Events
          </h2>
          <p role="status" className="text-sm text-slate-500" data-testid="tracking-loading">
            {revalidator.state === "loading" ? LOADING_EVENTS : null}
          </p>
        </div>
        <EventsTable events={track.events} timeZone={site.timeZone} country={site.country} mapLinks={Boolean(map?.available)} />
      </section>

      {map ? (
        <section id="map" aria-labelledby="map-heading" className="card space-y-2">
          <div className="flex items-center justify-between">
            <h2 id="map-heading" className="font-semibold">
              Journey map
            </h2>
            {map.available && map.focusEventId ? (
              <Link to="?" preventScrollReset className="text-sm text-sky-700 underline">
                Show the whole journey
              </Link>
            ) : null}
          </div>
          <JourneyMap map={map} googleMapsApiKey={googleMapsApiKey} />
        </section>
      ) : null}
    </div>
  );
}
