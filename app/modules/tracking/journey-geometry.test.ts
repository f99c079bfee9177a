import { geoDistance } from "d3-geo";
import { describe, expect, it } from "vitest";
import {
  ARC_SEGMENTS,
  boundsOf,
  centreLongitude,
  greatCircleArc,
  journeyArcs,
  journeyPath,
  journeyStops,
  mapView,
  pointOf,
  regionFor,
  REGIONS,
  type LatLng,
} from "./journey-geometry";

const SYDNEY = { latitude: -33.8688, longitude: 151.2093 };
const MELBOURNE = { latitude: -37.8136, longitude: 144.9631 };
const ALBURY = { latitude: -36.0737, longitude: 146.9135 };
const GOULBURN = { latitude: -34.7541, longitude: 149.7186 };
const LOS_ANGELES = { latitude: 34.0522, longitude: -118.2437 };
const AUCKLAND = { latitude: -36.8485, longitude: 174.7633 };
const at = (lat: number, lng: number): LatLng => ({ lat, lng });
const ev = (id: number, event_time: string, p: { latitude: number | null; longitude: number | null }) => ({ id, event_time, ...p });

describe("journey stops", () => {
  it("run sender, events oldest first (whatever order they come in), receiver", () => {
    // newest first, as the API lists them
    const events = [ev(3, "2026-03-03T01:00:00Z", ALBURY), ev(2, "2026-03-02T01:00:00Z", GOULBURN)];
    const stops = journeyStops(SYDNEY, events, MELBOURNE);
    expect(stops.map((s) => (s.kind === "event" ? s.eventId : s.kind))).toEqual(["sender", 2, 3, "receiver"]);
  });

  it("order events at the same time by id", () => {
    const events = [ev(9, "2026-03-02T01:00:00Z", ALBURY), ev(4, "2026-03-02T01:00:00Z", GOULBURN)];
    expect(journeyStops(null, events, null).map((s) => (s.kind === "event" ? s.eventId : 0))).toEqual([4, 9]);
  });

  it("leave out whatever has no usable coordinates", () => {
    const none = { latitude: null, longitude: null };
    const events = [ev(1, "2026-03-01T01:00:00Z", none), ev(2, "2026-03-02T01:00:00Z", { latitude: 0, longitude: 0 }), ev(3, "2026-03-03T01:00:00Z", { latitude: 95, longitude: 10 }), ev(4, "2026-03-04T01:00:00Z", ALBURY)];
    const stops = journeyStops(none, events, MELBOURNE);
    expect(stops.map((s) => (s.kind === "event" ? s.eventId : s.kind))).toEqual([4, "receiver"]);
  });

  it("a latitude without a longitude is no point", () => {
    expect(pointOf({ latitude: -33, longitude: null })).toBeNull();
    expect(pointOf({ latitude: Number.NaN, longitude: 151 })).toBeNull();
    // the poles: Mercator has no place for them
    expect(pointOf({ latitude: -90, longitude: 151 })).toBeNull();
    expect(pointOf(SYDNEY)).toEqual(at(-33.8688, 151.2093));
  });
});

describe("journey path and arcs", () => {
  it("drop consecutive repeats, keep a return to an earlier place", () => {
    const stops = journeyStops(SYDNEY, [ev(1, "2026-03-01T01:00:00Z", SYDNEY), ev(2, "2026-03-02T01:00:00Z", ALBURY), ev(3, "2026-03-03T01:00:00Z", SYDNEY)], SYDNEY);
    expect(stops).toHaveLength(5);
    expect(journeyPath(stops)).toEqual([at(SYDNEY.latitude, SYDNEY.longitude), at(ALBURY.latitude, ALBURY.longitude), at(SYDNEY.latitude, SYDNEY.longitude)]);
  });

  it(`each leg is ${ARC_SEGMENTS} segments from its start exactly to its end`, () => {
    expect(ARC_SEGMENTS).toBe(50);
    const a = at(SYDNEY.latitude, SYDNEY.longitude);
    const b = at(MELBOURNE.latitude, MELBOURNE.longitude);
    const arc = greatCircleArc(a, b);
    expect(arc).toHaveLength(51);
    expect(arc[0]).toEqual(a);
    expect(arc[50]).toEqual(b);
    // equal steps along the great circle
    const step = (i: number) => geoDistance([arc[i]!.lng, arc[i]!.lat], [arc[i + 1]!.lng, arc[i + 1]!.lat]);
    for (let i = 0; i < 50; i++) expect(step(i)).toBeCloseTo(geoDistance([a.lng, a.lat], [b.lng, b.lat]) / 50, 6);
  });

  it("legs follow the great circle: Sydney to Los Angeles crosses the Pacific, not the long way round", () => {
    const arc = greatCircleArc(at(SYDNEY.latitude, SYDNEY.longitude), at(LOS_ANGELES.latitude, LOS_ANGELES.longitude));
    expect(arc.some((p) => p.lng > 175) && arc.some((p) => p.lng < -175)).toBe(true);
  });

  it("one arc per leg between consecutive places", () => {
    const path = journeyPath(journeyStops(SYDNEY, [ev(1, "2026-03-01T01:00:00Z", GOULBURN), ev(2, "2026-03-02T01:00:00Z", ALBURY)], MELBOURNE));
    const arcs = journeyArcs(path);
    expect(arcs).toHaveLength(3);
    arcs.forEach((arc, i) => {
      expect(arc).toHaveLength(ARC_SEGMENTS + 1);
      expect(arc[0]).toEqual(path[i]);
      expect(arc[ARC_SEGMENTS]).toEqual(path[i + 1]);
    });
    expect(journeyArcs(path.slice(0, 1))).toEqual([]);
  });
});

describe("bounds and views", () => {
  const sydney = at(SYDNEY.latitude, SYDNEY.longitude);
  const melbourne = at(MELBOURNE.latitude, MELBOURNE.longitude);

  it("bounds enclose the points", () => {
    expect(boundsOf([sydney, melbourne])).toEqual({ west: 144.9631, south: -37.8136, east: 151.2093, north: -33.8688 });
    expect(boundsOf([])).toBeNull();
  });

  it("the route map is the country's: centre of Australia at zoom 4 for an Australian journey", () => {
    expect(regionFor("AUSTRALIA", [sydney, melbourne])).toBe("AU");
    expect(mapView("AU", [sydney, melbourne])).toEqual({ mode: "route", center: REGIONS.AU.center, zoom: 4 });
    expect(REGIONS.AU.center).toEqual({ lat: -25.2744, lng: 133.7751 });
  });

  it("a country outside the three, or none, is taken as Australia", () => {
    expect(regionFor(null, [])).toBe("AU");
    expect(regionFor("FIJI", [sydney])).toBe("AU");
    expect(regionFor("NEW ZEALAND", [at(AUCKLAND.latitude, AUCKLAND.longitude)])).toBe("NZ");
    expect(regionFor("UNITED STATES OF AMERICA", [at(LOS_ANGELES.latitude, LOS_ANGELES.longitude)])).toBe("US");
  });

  it("a journey leaving its country's map gets a wider one", () => {
    expect(regionFor("AUSTRALIA", [sydney, at(AUCKLAND.latitude, AUCKLAND.longitude)])).toBe("TASMAN");
    expect(regionFor("AUSTRALIA", [sydney, at(LOS_ANGELES.latitude, LOS_ANGELES.longitude)])).toBe("WORLD");
  });

  it("the world map of a trans-Pacific journey centres on the Pacific", () => {
    const lng = centreLongitude([sydney, at(LOS_ANGELES.latitude, LOS_ANGELES.longitude)]);
    expect(Math.abs(lng)).toBeGreaterThan(150);
    expect(mapView("WORLD", [sydney, at(LOS_ANGELES.latitude, LOS_ANGELES.longitude)]).zoom).toBe(2);
  });

  it("one event, or a journey of one place, opens at zoom 14 on it", () => {
    expect(mapView("AU", [sydney, melbourne], melbourne)).toEqual({ mode: "point", center: melbourne, zoom: 14 });
    expect(mapView("AU", [sydney])).toEqual({ mode: "point", center: sydney, zoom: 14 });
  });
});
