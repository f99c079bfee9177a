import { useEffect } from "react";
import type { ShownMap } from "./JourneyMapSvg";

/** The module's type only: JourneyMap imports it in the browser, after hydration. */
export type GoogleMapsLibrary = typeof import("@vis.gl/react-google-maps");

const LEG_COLOUR = "#0369a1"; // sky-700, as on the vector map
// the leg still to go: dots drawn along an invisible line (a Polyline has no dash option)
const DOTS = [{ icon: { path: "M 0,-1 0,1", strokeOpacity: 0.9, strokeColor: LEG_COLOUR, scale: 2 }, offset: "0", repeat: "12px" }];

/** Reports a key Google refuses (AUTH_FAILURE) or a script that failed, so the vector map comes back. */
function StatusWatch({ lib, onFailed }: { lib: GoogleMapsLibrary; onFailed: () => void }) {
  const status = lib.useApiLoadingStatus();
  useEffect(() => {
    if (status === lib.APILoadingStatus.FAILED || status === lib.APILoadingStatus.AUTH_FAILURE) onFailed();
  }, [status, lib, onFailed]);
  return null;
}

/**
 * The journey on a Google map: sender, receiver and events as markers, the legs as the same
 * 50-segment great-circle polylines the vector map draws. `onReady` when its tiles have drawn.
 */
export function GoogleJourneyLayer({ lib, apiKey, map, onReady, onFailed }: { lib: GoogleMapsLibrary; apiKey: string; map: ShownMap; onReady: () => void; onFailed: () => void }) {
  const { APIProvider, Map: GoogleMap, Marker, Polyline } = lib;
  const { center, zoom } = map.google;
  return (
    <APIProvider apiKey={apiKey} onError={onFailed}>
      <StatusWatch lib={lib} onFailed={onFailed} />
      {/* a new view (another event chosen) is a new map: its centre and zoom are only defaults */}
      <GoogleMap key={`${center.lat},${center.lng},${zoom}`} defaultCenter={center} defaultZoom={zoom} gestureHandling="cooperative" onTilesLoaded={onReady} style={{ width: "100%", height: "100%" }}>
        {map.arcs.map((arc, i) => (
          <Polyline key={i} path={arc.path} geodesic={false} strokeColor={LEG_COLOUR} strokeWeight={3} strokeOpacity={arc.remaining ? 0 : 0.9} icons={arc.remaining ? DOTS : undefined} />
        ))}
        {map.markers.map((m) => (
          <Marker key={m.key} position={{ lat: m.lat, lng: m.lng }} title={m.title} label={m.kind === "event" ? m.glyph : m.glyph.charAt(0)} zIndex={m.focused ? 10 : m.kind === "event" ? 1 : 2} />
        ))}
      </GoogleMap>
    </APIProvider>
  );
}
