/**
 * The track and trace screen, /tracking/{id} (spec 1 section 2; issue 14 item 3): the events and
 * metadata of GET /api/track_trace/{id}, read at the sending site (its zone, its date format), the
 * public link when it is offered and asked for (?link=1, so the modal works before JavaScript
 * loads), and the journey map where maps are offered.
 */
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { env } from "../../utils/env.server";
import { AppError } from "../../utils/errors";
import { journeyMap, type JourneyMapData } from "./journey-map.server";
import { mapsAvailable } from "./maps";
import { linkOffered } from "./public-link";
import { trackingLinkFor } from "./public-link.server";
import { trackTrace, type TrackTraceJson } from "./track-trace.server";

export interface TrackingScreen {
  track: TrackTraceJson;
  site: { timeZone: string | null; country: string };
  link: { offered: boolean; url: string | null };
  /** where maps are offered (spec 1: developer users, or QA and development environments) */
  map: JourneyMapData | null;
  googleMapsApiKey: string | null;
}

export async function trackingScreen(db: DbOrTx, user: CurrentUser, id: number, options: { baseUrl: string; wantLink: boolean; focusEventId?: number }): Promise<TrackingScreen> {
  const track = await trackTrace(db, user, id);
  const site = user.sites.find((s) => s.id === track.metadata.site_id);
  const offered = linkOffered({ state: track.metadata.consignment_state, isQuote: track.metadata.is_quote, active: track.metadata.active });
  let url: string | null = null;
  if (offered && options.wantLink) {
    try {
      url = (await trackingLinkFor(db, user, id, options.baseUrl)).url;
    } catch (e) {
      // the consignment changed between the two reads (deleted meanwhile): no link, the rest stands
      if (!(e instanceof AppError && e.code === "conflict")) throw e;
    }
  }
  const at = { timeZone: site?.timezone ?? null, country: site?.country ?? track.metadata.sender_address?.country ?? "AUSTRALIA" };
  const config = env();
  const map = mapsAvailable(user, config.APP_ENV) ? journeyMap(track, { focusEventId: options.focusEventId, ...at }) : null;
  return { track, site: at, link: { offered, url }, map, googleMapsApiKey: map ? (config.GOOGLE_MAPS_API_KEY ?? null) : null };
}
