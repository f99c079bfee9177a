import type { ComponentProps, ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it, vi } from "vitest";
import type { JourneyMapData, MapMarker } from "~/modules/tracking/journey-map.server";
import { GoogleJourneyLayer, type GoogleMapsLibrary } from "./GoogleJourneyLayer";
import { JourneyMap } from "./JourneyMap";

// the Google library is the browser's, loaded after hydration: importing it here (or at the top of
// any of the map's modules) fails this file
vi.mock("@vis.gl/react-google-maps", () => {
  throw new Error("@vis.gl/react-google-maps was imported outside an effect");
});

const line = (n: number) => Array.from({ length: n }, (_, i) => ({ lat: -33.9 - i * 0.08, lng: 151.2 - i * 0.12 }));
const marker = (over: Partial<MapMarker> & Pick<MapMarker, "key" | "kind" | "glyph" | "title">): MapMarker => ({ eventId: null, lat: -34, lng: 150, x: 500, y: 300, inView: true, focused: false, ...over });

const MAP: Extract<JourneyMapData, { available: true }> = {
  available: true,
  caption: "Map of the journey from SYDNEY NSW 2000 to MELBOURNE VIC 3000, 2 tracking events shown.",
  summary: ["From: SYDNEY NSW 2000", "1. Picked up, 02/03/2026 12:00", "2. In transit, 02/03/2026 20:30", "To: MELBOURNE VIC 3000 (not yet delivered)"],
  notice: null,
  focusEventId: 12,
  markers: [
    marker({ key: "sender", kind: "sender", glyph: "From", title: "From: Acme, SYDNEY NSW 2000", x: 720, y: 380 }),
    marker({ key: "event-10", kind: "event", eventId: 10, glyph: "1", title: "1. Picked up, 02/03/2026 12:00", x: 9999, inView: false }),
    marker({ key: "event-12", kind: "event", eventId: 12, glyph: "2", title: "2. In transit, 02/03/2026 20:30", focused: true }),
    marker({ key: "receiver", kind: "receiver", glyph: "To", title: "To: Bloggs, MELBOURNE VIC 3000", x: 640, y: 450 }),
  ],
  arcs: [
    { remaining: false, path: line(51), d: "M720,380L700,400" },
    { remaining: true, path: line(51), d: "M500,300L640,450" },
  ],
  vector: { viewBox: "0 0 960 600", width: 960, height: 600, land: "M1,1L2,2Z", borders: "" },
  google: { center: { lat: -36.07, lng: 146.91 }, zoom: 14 },
};

const attr = (html: string, selector: RegExp) => selector.exec(html)?.[1];

describe("JourneyMap, as the server renders it", () => {
  const html = renderToStaticMarkup(<JourneyMap map={MAP} />);

  it("is an image named by the caption and described by the journey in words", () => {
    const svg = /<svg[^>]*>/.exec(html)![0];
    expect(svg).toContain('role="img"');
    const named = attr(svg, /aria-labelledby="([^"]+)"/)!;
    const described = attr(svg, /aria-describedby="([^"]+)"/)!;
    expect(html).toContain(`<span id="${named}">${MAP.caption}</span>`);
    expect(html).toMatch(new RegExp(`<ol id="${described}" class="sr-only"><li>From: SYDNEY NSW 2000</li>.*<li>To: MELBOURNE VIC 3000 \\(not yet delivered\\)</li></ol>`));
  });

  it("labels every marker in view, and draws none outside it", () => {
    expect(html.match(/data-testid="map-marker"/g)).toHaveLength(3);
    for (const m of MAP.markers.filter((x) => x.inView)) expect(html).toContain(`<title>${m.title}</title>`);
    expect(html).not.toContain("1. Picked up, 02/03/2026 12:00</title>");
    expect(html).toMatch(/>From<\/text>/);
    expect(html).toMatch(/>To<\/text>/);
  });

  it("dashes the leg still to go, and rings the chosen event", () => {
    const legs = html.match(/<path[^>]*data-testid="map-leg"[^>]*>/g)!;
    expect(legs).toHaveLength(2);
    expect(legs[0]).not.toContain("stroke-dasharray");
    expect(legs[1]).toContain('stroke-dasharray="2 8"');
    expect(html.match(/data-testid="map-focus"/g)).toHaveLength(1);
  });

  it("with a Google key, still sends the vector map: Google comes only after hydration", () => {
    const keyed = renderToStaticMarkup(<JourneyMap map={MAP} googleMapsApiKey="test-key" />);
    expect(keyed).toBe(html);
    expect(keyed).not.toContain("test-key");
    expect(keyed).toContain('data-google="off"');
  });

  it("says why when there is no map", () => {
    const none = renderToStaticMarkup(<JourneyMap map={{ available: false, message: "No map: nothing has a location." }} googleMapsApiKey="k" />);
    expect(none).toContain("No map: nothing has a location.");
    expect(none).not.toContain("<svg");
  });

  it("shows the notice of an event without a location", () => {
    expect(renderToStaticMarkup(<JourneyMap map={{ ...MAP, notice: "The chosen event has no location." }} />)).toMatch(/role="status">The chosen event has no location.</);
  });
});

describe("GoogleJourneyLayer", () => {
  // stand-ins that print their props, so the markup shows what the Google map was given
  const show = (name: string) => (props: Record<string, unknown> & { children?: ReactNode }) => {
    const { children, ...rest } = props;
    const data = Object.fromEntries(Object.entries(rest).filter(([, v]) => typeof v !== "function"));
    return (
      <div data-c={name} data-props={JSON.stringify(data)}>
        {children}
      </div>
    );
  };
  const lib = {
    APIProvider: show("provider"),
    Map: show("map"),
    Marker: show("marker"),
    Polyline: show("polyline"),
    useApiLoadingStatus: () => "LOADING",
    APILoadingStatus: { FAILED: "FAILED", AUTH_FAILURE: "AUTH_FAILURE" },
  } as unknown as GoogleMapsLibrary;
  const props: ComponentProps<typeof GoogleJourneyLayer> = { lib, apiKey: "the-key", map: MAP, onReady: () => {}, onFailed: () => {} };
  const html = renderToStaticMarkup(<GoogleJourneyLayer {...props} />);
  const given = (name: string) => [...html.matchAll(new RegExp(`data-c="${name}" data-props="([^"]*)"`, "g"))].map((m) => JSON.parse(m[1]!.replaceAll("&quot;", '"')) as Record<string, unknown>);

  it("loads the API with the key and opens on the map's centre and zoom", () => {
    expect(given("provider")).toEqual([{ apiKey: "the-key" }]);
    expect(given("map")[0]).toMatchObject({ defaultCenter: MAP.google.center, defaultZoom: 14 });
  });

  it("draws each leg as its 51 points, the leg still to go dotted", () => {
    const lines = given("polyline");
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => (l.path as unknown[]).length)).toEqual([51, 51]);
    expect(lines[0]).not.toHaveProperty("icons");
    expect(lines[1]).toMatchObject({ strokeOpacity: 0, icons: [{ repeat: "12px" }] });
  });

  it("marks sender, every event and receiver (in view or not), with their names", () => {
    const markers = given("marker");
    expect(markers.map((m) => m.label)).toEqual(["F", "1", "2", "T"]);
    expect(markers.map((m) => m.title)).toEqual(MAP.markers.map((m) => m.title));
    expect(markers[2]).toMatchObject({ position: { lat: -34, lng: 150 }, zIndex: 10 });
  });
});
