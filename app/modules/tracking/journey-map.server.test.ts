import { describe, expect, it } from "vitest";
import { FOCUS_WITHOUT_LOCATION, journeyMap, NO_MAP, VIEW_HEIGHT, VIEW_WIDTH, type JourneyMapData } from "./journey-map.server";
import type { PlacedAddress, TrackingEventJson, TrackTraceJson } from "./track-trace.server";

const address = (name: string, locality: string, region: string, postcode: string, latitude: number | null, longitude: number | null, extra: Partial<PlacedAddress> = {}): PlacedAddress => ({
  id: null,
  name,
  code: null,
  address_line_1: "1 Main St",
  address_line_2: null,
  address_line_3: null,
  address_line_4: null,
  sublocality: null,
  locality,
  region,
  postcode,
  country: "AUSTRALIA",
  phone: null,
  email: null,
  timezone: "Australia/Sydney",
  address_type: "business",
  special_instructions: null,
  site_id: null,
  som: "metric",
  latitude,
  longitude,
  ...extra,
});

const event = (id: number, kind: TrackingEventJson["event"], event_time: string, latitude: number | null, longitude: number | null, message: string | null = null): TrackingEventJson => ({
  id,
  event: kind,
  carrier_event: kind.toUpperCase(),
  event_time,
  event_date: event_time.slice(0, 10),
  message,
  latitude,
  longitude,
  images: [],
  pod_url: null,
  source: "carrier",
});

const SYDNEY = address("Acme Sydney", "SYDNEY", "NSW", "2000", -33.8688, 151.2093);
const MELBOURNE = address("Bloggs Melbourne", "MELBOURNE", "VIC", "3000", -37.8136, 144.9631);

/** Sydney to Melbourne: picked up at Goulburn, an update without a location, in transit at Albury (newest first, as the API lists them). */
function sydneyToMelbourne(overrides: Partial<TrackTraceJson["metadata"]> = {}, events?: TrackingEventJson[]): TrackTraceJson {
  return {
    events: events ?? [
      event(12, "in_transit", "2026-03-02T09:30:00Z", -36.0737, 146.9135, "Albury depot"),
      event(11, "in_transit", "2026-03-02T04:00:00Z", null, null, "Delayed by weather"),
      event(10, "picked_up", "2026-03-02T01:00:00Z", -34.7541, 149.7186),
    ],
    // cast: the map reads only addresses and state, and the rest of the metadata may grow
    metadata: {
      consignment_id: 1,
      site_id: 1,
      is_quote: false,
      active: true,
      consignment_number: "SXSYD0000001",
      consignment_state: "in_transit",
      carrier_name: "Simex",
      carrier_code: "SIMEX",
      estimated_delivery_date: null,
      sender_address: SYDNEY,
      receiver_address: MELBOURNE,
      web_url: null,
      pod_url: null,
      ...overrides,
    } as TrackTraceJson["metadata"],
  };
}

function shown(map: JourneyMapData) {
  if (!map.available) throw new Error(`no map: ${map.message}`);
  return map;
}

const inViewBox = (m: { x: number; y: number }) => m.x >= 0 && m.x <= VIEW_WIDTH && m.y >= 0 && m.y <= VIEW_HEIGHT;

describe("journey map: the route", () => {
  const map = shown(journeyMap(sydneyToMelbourne()));

  it("marks sender, the located events in time order, and receiver, all inside the viewBox", () => {
    expect(map.vector.viewBox).toBe(`0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`);
    expect(map.markers.map((m) => m.glyph)).toEqual(["From", "1", "3", "To"]);
    expect(map.markers.map((m) => m.eventId)).toEqual([null, 10, 12, null]);
    for (const m of map.markers) {
      expect(inViewBox(m)).toBe(true);
      expect(m.inView).toBe(true);
    }
    // east is right, south is down: Sydney right of and above Melbourne
    const [from, , , to] = map.markers;
    expect(from!.x).toBeGreaterThan(to!.x);
    expect(from!.y).toBeLessThan(to!.y);
  });

  it("leaves out the event without coordinates and says so", () => {
    expect(map.markers.some((m) => m.eventId === 11)).toBe(false);
    expect(map.caption).toBe("Map of the journey from SYDNEY NSW 2000 to MELBOURNE VIC 3000, 2 tracking events shown (1 without a location left out).");
    expect(map.summary).toContain("2. In transit, 02/03/2026 15:00: Delayed by weather (no location)");
  });

  it("draws three legs of 50 great-circle segments each, for both maps", () => {
    expect(map.arcs).toHaveLength(3);
    for (const arc of map.arcs) {
      expect(arc.path).toHaveLength(51);
      expect(arc.d.match(/M/g)).toHaveLength(1);
      expect(arc.d.match(/L/g)).toHaveLength(50);
    }
    expect(map.arcs[0]!.path[0]).toEqual({ lat: SYDNEY.latitude, lng: SYDNEY.longitude });
    expect(map.arcs[2]!.path[50]).toEqual({ lat: MELBOURNE.latitude, lng: MELBOURNE.longitude });
  });

  it("names events and times as the sending site reads them", () => {
    expect(map.markers[1]!.title).toBe("1. Picked up, 02/03/2026 12:00");
    expect(map.markers[2]!.title).toBe("3. In transit, 02/03/2026 20:30: Albury depot");
    expect(map.markers[0]!.title).toBe("From: Acme Sydney, SYDNEY NSW 2000");
    expect(map.summary).toEqual([
      "From: SYDNEY NSW 2000",
      "1. Picked up, 02/03/2026 12:00",
      "2. In transit, 02/03/2026 15:00: Delayed by weather (no location)",
      "3. In transit, 02/03/2026 20:30: Albury depot",
      "To: MELBOURNE VIC 3000 (not yet delivered)",
    ]);
  });

  it("reads times in the zone and country the caller names (the site's), else the sender's", () => {
    const la = shown(journeyMap(sydneyToMelbourne(), { timeZone: "America/Los_Angeles", country: "UNITED STATES OF AMERICA" }));
    expect(la.markers[1]!.title).toBe("1. Picked up, 03/01/2026 17:00");
    const utc = shown(journeyMap(sydneyToMelbourne({ sender_address: { ...SYDNEY, timezone: null } })));
    expect(utc.markers[1]!.title).toBe("1. Picked up, 02/03/2026 01:00");
  });

  it("opens the Google map on the centre of Australia at zoom 4, and draws Australia's land", () => {
    expect(map.google).toEqual({ center: { lat: -25.2744, lng: 133.7751 }, zoom: 4 });
    expect(map.vector.land.length).toBeGreaterThan(1000);
    expect(map.vector.land.startsWith("M")).toBe(true);
  });

  it("is plain JSON", () => {
    expect(JSON.parse(JSON.stringify(map))).toEqual(map);
  });
});

describe("journey map: the leg still to go", () => {
  it("the leg into the receiver is dashed until delivery", () => {
    expect(shown(journeyMap(sydneyToMelbourne())).arcs.map((a) => a.remaining)).toEqual([false, false, true]);
    expect(shown(journeyMap(sydneyToMelbourne({ consignment_state: "delivered" }))).arcs.map((a) => a.remaining)).toEqual([false, false, false]);
    expect(shown(journeyMap(sydneyToMelbourne({}, []))).arcs.map((a) => a.remaining)).toEqual([true]);
  });

  it("no leg is still to go when the newest event is at the receiver", () => {
    const events = [event(20, "failed_delivery", "2026-03-03T01:00:00Z", MELBOURNE.latitude, MELBOURNE.longitude), event(10, "picked_up", "2026-03-02T01:00:00Z", -34.7541, 149.7186)];
    expect(shown(journeyMap(sydneyToMelbourne({}, events))).arcs.map((a) => a.remaining)).toEqual([false, false]);
  });
});

describe("journey map: one event", () => {
  const route = shown(journeyMap(sydneyToMelbourne()));
  const map = shown(journeyMap(sydneyToMelbourne(), { focusEventId: 12 }));

  it("centres on the event: zoom 14 for Google, the marked point in the middle of the vector map", () => {
    expect(map.google).toEqual({ center: { lat: -36.0737, lng: 146.9135 }, zoom: 14 });
    expect(map.focusEventId).toBe(12);
    const albury = map.markers.find((m) => m.eventId === 12)!;
    expect(albury.focused).toBe(true);
    expect([albury.x, albury.y]).toEqual([VIEW_WIDTH / 2, VIEW_HEIGHT / 2]);
    expect(map.markers.filter((m) => m.focused)).toHaveLength(1);
    expect(map.notice).toBeNull();
  });

  it("zooms the vector map in: Albury to Melbourne spans several times more of it", () => {
    const span = (m: typeof map) => {
      const [a, b] = [m.markers.find((x) => x.eventId === 12)!, m.markers.find((x) => x.kind === "receiver")!];
      return Math.hypot(a.x - b.x, a.y - b.y);
    };
    expect(span(map)).toBeGreaterThan(3 * span(route));
    expect(map.vector.land).not.toBe(route.vector.land);
    expect(map.vector.land.length).toBeGreaterThan(100);
  });

  it("an event without a location shows the whole journey, and says why", () => {
    const unlocated = shown(journeyMap(sydneyToMelbourne(), { focusEventId: 11 }));
    expect(unlocated.google).toEqual(route.google);
    expect(unlocated.focusEventId).toBeNull();
    expect(unlocated.notice).toBe(FOCUS_WITHOUT_LOCATION);
    expect(unlocated.markers.some((m) => m.focused)).toBe(false);
  });
});

describe("journey map: other journeys", () => {
  it("no coordinates anywhere: a clear no-map answer, not an error", () => {
    const nowhere = sydneyToMelbourne(
      { sender_address: { ...SYDNEY, latitude: null, longitude: null }, receiver_address: null },
      [event(1, "picked_up", "2026-03-02T01:00:00Z", null, null)],
    );
    expect(journeyMap(nowhere)).toEqual({ available: false, message: NO_MAP });
  });

  it("only the receiver located: one marker at zoom 14, no legs", () => {
    const map = shown(journeyMap(sydneyToMelbourne({ sender_address: { ...SYDNEY, latitude: null, longitude: null } }, [])));
    expect(map.markers.map((m) => m.glyph)).toEqual(["To"]);
    expect(map.arcs).toEqual([]);
    expect(map.google.zoom).toBe(14);
    expect(map.caption).toBe("Map of the journey from SYDNEY NSW 2000 (not on the map) to MELBOURNE VIC 3000, 0 tracking events shown.");
  });

  it("a United States journey uses the United States map", () => {
    const us = { country: "UNITED STATES OF AMERICA", timezone: "America/Los_Angeles" };
    const map = shown(
      journeyMap(
        sydneyToMelbourne({ sender_address: address("LA", "LOS ANGELES", "CA", "90001", 34.0522, -118.2437, us), receiver_address: address("NY", "NEW YORK", "NY", "10001", 40.7128, -74.006, us) }, []),
      ),
    );
    expect(map.google.center).toEqual({ lat: 39.8283, lng: -98.5795 });
    expect(map.markers.every(inViewBox)).toBe(true);
  });

  it("Sydney to Los Angeles: the world map, centred on the Pacific, the leg unbroken", () => {
    const la = address("LA", "LOS ANGELES", "CA", "90001", 34.0522, -118.2437, { country: "UNITED STATES OF AMERICA" });
    const map = shown(journeyMap(sydneyToMelbourne({ receiver_address: la }, [])));
    expect(map.google.zoom).toBe(2);
    expect(map.markers.every(inViewBox)).toBe(true);
    expect(map.arcs[0]!.d.match(/M/g)).toHaveLength(1);
    expect(map.markers[0]!.x).toBeLessThan(map.markers[1]!.x);
  });
});
