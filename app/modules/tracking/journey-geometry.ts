/**
 * The journey a consignment's map draws (issue 14 item 4): its stops in order, the great-circle
 * arcs between them, their bounds, and the view a map opens on. Pure (d3-geo's maths only), so
 * the server's vector map and the Google map draw the same journey.
 */
import { geoInterpolate } from "d3-geo";

export interface LatLng {
  lat: number;
  lng: number;
}

/** Each leg is drawn as this many straight segments (51 points): smooth at zoom 4, still small. */
export const ARC_SEGMENTS = 50;
/** Spec 1: zoom 14 on one address or event; zoom 4 on the road-route map. */
export const POINT_ZOOM = 14;
export const ROUTE_ZOOM = 4;

export interface StopSource {
  latitude: number | null;
  longitude: number | null;
}
export interface EventSource extends StopSource {
  id: number;
  event_time: string;
}

export type Stop = { kind: "sender" | "receiver"; point: LatLng } | { kind: "event"; eventId: number; point: LatLng };

/** A usable coordinate: finite, on the globe short of the poles, and not 0,0 (what a feed sends when it has none). */
export function pointOf(source: StopSource | null | undefined): LatLng | null {
  const lat = source?.latitude;
  const lng = source?.longitude;
  if (lat == null || lng == null || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (Math.abs(lat) >= 90 || Math.abs(lng) > 180 || (lat === 0 && lng === 0)) return null;
  return { lat, lng };
}

/**
 * Sender, then the events oldest first (the API lists them newest first), then receiver; a stop
 * without coordinates is left out. Every located event is a stop, even one at the same place as
 * the stop before: each gets its marker.
 */
export function journeyStops(sender: StopSource | null, events: readonly EventSource[], receiver: StopSource | null): Stop[] {
  const stops: Stop[] = [];
  const from = pointOf(sender);
  if (from) stops.push({ kind: "sender", point: from });
  const ordered = [...events].sort((a, b) => Date.parse(a.event_time) - Date.parse(b.event_time) || a.id - b.id);
  for (const e of ordered) {
    const point = pointOf(e);
    if (point) stops.push({ kind: "event", eventId: e.id, point });
  }
  const to = pointOf(receiver);
  if (to) stops.push({ kind: "receiver", point: to });
  return stops;
}

const samePoint = (a: LatLng, b: LatLng) => a.lat === b.lat && a.lng === b.lng;

/** The places the journey passes through: the stops' points without consecutive repeats (no zero-length leg). */
export function journeyPath(stops: readonly Stop[]): LatLng[] {
  const path: LatLng[] = [];
  for (const { point } of stops) if (!path.length || !samePoint(path[path.length - 1]!, point)) path.push(point);
  return path;
}

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

/** The great-circle arc from a to b as ARC_SEGMENTS segments (ends exact, 5 decimals: about a metre). */
export function greatCircleArc(a: LatLng, b: LatLng): LatLng[] {
  const along = geoInterpolate([a.lng, a.lat], [b.lng, b.lat]);
  const arc: LatLng[] = [a];
  for (let i = 1; i < ARC_SEGMENTS; i++) {
    const [lng, lat] = along(i / ARC_SEGMENTS);
    arc.push({ lat: round(lat, 5), lng: round(lng, 5) });
  }
  arc.push(b);
  return arc;
}

/** One arc per leg of the path. */
export const journeyArcs = (path: readonly LatLng[]): LatLng[][] => path.slice(1).map((to, i) => greatCircleArc(path[i]!, to));

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** The box around some points (null for none). Plain min and max: no journey here crosses 180°. */
export function boundsOf(points: readonly LatLng[]): Bounds | null {
  if (!points.length) return null;
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  return { west: Math.min(...lngs), south: Math.min(...lats), east: Math.max(...lngs), north: Math.max(...lats) };
}

const within = (inner: Bounds, outer: Bounds) => inner.west >= outer.west && inner.east <= outer.east && inner.south >= outer.south && inner.north <= outer.north;

/**
 * The route maps: the box a vector map fits and the centre and zoom a Google map opens on. The
 * three countries of the spec, then Australia with New Zealand for a Tasman journey; a journey
 * outside all of them gets the world.
 */
export const REGIONS = {
  AU: { box: { west: 112, south: -44.5, east: 154.5, north: -9.5 }, center: { lat: -25.2744, lng: 133.7751 }, zoom: ROUTE_ZOOM },
  NZ: { box: { west: 166, south: -47.6, east: 178.9, north: -34 }, center: { lat: -41, lng: 172.5 }, zoom: 5 },
  US: { box: { west: -125, south: 24, east: -66.5, north: 49.5 }, center: { lat: 39.8283, lng: -98.5795 }, zoom: ROUTE_ZOOM },
  TASMAN: { box: { west: 110, south: -48, east: 180, north: -9 }, center: { lat: -32, lng: 152 }, zoom: 3 },
} as const satisfies Record<string, { box: Bounds; center: LatLng; zoom: number }>;

export type RegionKey = keyof typeof REGIONS | "WORLD";

/** The country's route map; any other country, or none, is taken as Australia (spec 2). */
export function regionOfCountry(country: string | null | undefined): "AU" | "NZ" | "US" {
  if (country === "NEW ZEALAND") return "NZ";
  if (country === "UNITED STATES OF AMERICA") return "US";
  return "AU";
}

/** The country's own map when the journey fits it, else the Tasman map when it fits, else the world. */
export function regionFor(country: string | null | undefined, points: readonly LatLng[]): RegionKey {
  const bounds = boundsOf(points);
  const home = regionOfCountry(country);
  if (!bounds) return home;
  for (const key of [home, "TASMAN"] as const) if (within(bounds, REGIONS[key].box)) return key;
  return "WORLD";
}

/** The middle longitude of some points on the circle (so Sydney to Los Angeles centres on the Pacific). */
export function centreLongitude(points: readonly LatLng[]): number {
  const rad = Math.PI / 180;
  const x = points.reduce((s, p) => s + Math.cos(p.lng * rad), 0);
  const y = points.reduce((s, p) => s + Math.sin(p.lng * rad), 0);
  return x === 0 && y === 0 ? 0 : Math.atan2(y, x) / rad;
}

export interface MapView {
  mode: "route" | "point";
  center: LatLng;
  zoom: number;
}

/**
 * Where a map opens: on one point at zoom 14 (the event asked for, or the only place the journey
 * has), else on the route map of its region.
 */
export function mapView(region: RegionKey, path: readonly LatLng[], focus?: LatLng | null): MapView {
  const point = focus ?? (path.length === 1 ? path[0]! : null);
  if (point) return { mode: "point", center: point, zoom: POINT_ZOOM };
  if (region !== "WORLD") return { mode: "route", center: REGIONS[region].center, zoom: REGIONS[region].zoom };
  const b = boundsOf(path);
  return { mode: "route", center: { lat: b ? (b.south + b.north) / 2 : 0, lng: centreLongitude(path) }, zoom: 2 };
}
