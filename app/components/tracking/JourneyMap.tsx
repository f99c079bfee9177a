import { useCallback, useEffect, useId, useState } from "react";
import type { JourneyMapData } from "~/modules/tracking/journey-map.server";
import { GoogleJourneyLayer, type GoogleMapsLibrary } from "./GoogleJourneyLayer";
import { JourneyMapSvg } from "./JourneyMapSvg";

/**
 * A consignment's journey map (issue 14 item 4). The server renders the vector map, so the
 * picture is there without JavaScript or any third-party call. With a Google Maps key, the
 * browser then loads @vis.gl/react-google-maps and lays the Google map over it once its tiles
 * have drawn; until then, or when it cannot load (offline, a refused key), the vector map stays.
 */
export function JourneyMap({ map, googleMapsApiKey }: { map: JourneyMapData; googleMapsApiKey?: string | null }) {
  const id = useId();
  const [lib, setLib] = useState<GoogleMapsLibrary | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const wantsGoogle = Boolean(googleMapsApiKey) && map.available;

  useEffect(() => {
    if (!wantsGoogle) return;
    let live = true;
    // client-only and on demand: neither the server render nor the first page load carries it
    import("@vis.gl/react-google-maps").then(
      (mod) => live && setLib(mod),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [wantsGoogle]);

  const onReady = useCallback(() => setReady(true), []);
  const onFailed = useCallback(() => setFailed(true), []);

  if (!map.available) {
    return (
      <p className="rounded border border-slate-200 bg-slate-50 px-3 py-6 text-center text-sm text-slate-600" data-testid="journey-map-none">
        {map.message}
      </p>
    );
  }
  const captionId = `${id}-caption`;
  const summaryId = `${id}-summary`;
  return (
    <figure className="w-full" data-testid="journey-map" data-google={lib && !failed ? (ready ? "shown" : "loading") : "off"}>
      {map.notice ? (
        <p className="mb-2 rounded border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900" role="status">
          {map.notice}
        </p>
      ) : null}
      <div className="relative overflow-hidden rounded border border-slate-200">
        <JourneyMapSvg map={map} labelledBy={captionId} describedBy={summaryId} />
        {lib && wantsGoogle && !failed ? (
          // laid over the vector map and hidden until its tiles draw: a map that never loads is never seen
          <div className={`absolute inset-0 ${ready ? "" : "invisible"}`} data-testid="journey-map-google">
            <GoogleJourneyLayer lib={lib} apiKey={googleMapsApiKey!} map={map} onReady={onReady} onFailed={onFailed} />
          </div>
        ) : null}
      </div>
      <figcaption className="mt-2 text-sm text-slate-600">
        <span id={captionId}>{map.caption}</span>
        <ol id={summaryId} className="sr-only">
          {map.summary.map((line, i) => (
            <li key={i}>{line}</li>
          ))}
        </ol>
      </figcaption>
    </figure>
  );
}
