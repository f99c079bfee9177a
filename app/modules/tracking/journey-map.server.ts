/**
 * A consignment's journey map (issue 14 item 4), worked out on the server as plain JSON: the
 * vector map (land, arcs and markers projected into an SVG viewBox from world-atlas's bundled
 * data, so it draws before any script and with no third-party call) and the same journey as
 * latitudes and longitudes for the Google map that may replace it in the browser.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { geoBounds, geoMercator, geoPath, type GeoProjection } from "d3-geo";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
import { localTime } from "../calendar/site-time";
import { stateLabel } from "../consignments/list";
import {
  centreLongitude,
  journeyArcs,
  journeyPath,
  journeyStops,
  mapView,
  pointOf,
  regionFor,
  REGIONS,
  type Bounds,
  type LatLng,
  type RegionKey,
} from "./journey-geometry";
import type { PlacedAddress, TrackingEventJson, TrackTraceJson } from "./track-trace.server";

export const VIEW_WIDTH = 960;
export const VIEW_HEIGHT = 600;
const PAD = 24;
/**
 * Longitude across a vector map zoomed on one point (about 1,000 km): Natural Earth's 1:50m
 * coastline still reads as coastline there; closer in, its few kilometres between vertices show.
 */
export const FOCUS_SPAN_DEGREES = 10;

export const NO_MAP = "No map: neither this consignment's addresses nor its tracking events have a location.";
export const FOCUS_WITHOUT_LOCATION = "The chosen event has no location, so the whole journey is shown.";

export interface MapMarker {
  key: string;
  kind: "sender" | "receiver" | "event";
  eventId: number | null;
  /** what the marker shows: From, To, or the event's number in time order */
  glyph: string;
  /** its full name (tooltip, SVG title, screen readers) */
  title: string;
  lat: number;
  lng: number;
  x: number;
  y: number;
  /** inside the vector map's viewBox (a zoomed map leaves some out) */
  inView: boolean;
  focused: boolean;
}

export interface JourneyArc {
  /** the leg into the receiver while the consignment is not delivered: drawn dashed */
  remaining: boolean;
  path: LatLng[];
  /** the same leg projected for the vector map */
  d: string;
}

export type JourneyMapData =
  | { available: false; message: string }
  | {
      available: true;
      /** names the map: from, to and the number of events */
      caption: string;
      /** the journey in words, in order: the map's text alternative */
      summary: string[];
      notice: string | null;
      focusEventId: number | null;
      markers: MapMarker[];
      arcs: JourneyArc[];
      vector: { viewBox: string; width: number; height: number; land: string; borders: string };
      google: { center: LatLng; zoom: number };
    };

interface Atlas {
  land: GeoJSON.FeatureCollection;
  borders: GeoJSON.MultiLineString;
  /** land polygons and border lines with their boxes, for a zoomed map to project only what it shows */
  pieces: { geometry: GeoJSON.Polygon | GeoJSON.LineString; bounds: [[number, number], [number, number]] }[];
}

const require = createRequire(import.meta.url);
const atlases = new Map<string, Atlas>();

/** world-atlas's countries at 1:50m or 1:110m, read from the package once (a server dependency, never bundled). */
function atlas(scale: "50m" | "110m"): Atlas {
  let a = atlases.get(scale);
  if (!a) {
    const topo = JSON.parse(readFileSync(require.resolve(`world-atlas/countries-${scale}.json`), "utf8")) as Topology<{ land: GeometryCollection; countries: GeometryCollection }>;
    const land = feature(topo, topo.objects.land);
    const borders = mesh(topo, topo.objects.countries, (x, y) => x !== y);
    const polygons = land.features.flatMap((f) => (f.geometry.type === "MultiPolygon" ? f.geometry.coordinates.map((coordinates) => ({ type: "Polygon" as const, coordinates })) : f.geometry.type === "Polygon" ? [f.geometry] : []));
    const lines = borders.coordinates.map((coordinates) => ({ type: "LineString" as const, coordinates }));
    const pieces = [...polygons, ...lines].map((geometry) => ({ geometry, bounds: geoBounds(geometry) }));
    a = { land, borders, pieces };
    atlases.set(scale, a);
  }
  return a;
}

const clip = (p: GeoProjection) => p.clipExtent([[0, 0], [VIEW_WIDTH, VIEW_HEIGHT]]);

/** A route map's projection: its region's box fitted into the viewBox (the world centred on the journey). */
function routeProjection(region: RegionKey, worldCentre: number): GeoProjection {
  if (region === "WORLD") {
    const fit = { type: "MultiPoint" as const, coordinates: [[worldCentre - 179, -56], [worldCentre + 179, 75]] };
    return clip(geoMercator().rotate([-worldCentre, 0]).fitExtent([[PAD, PAD], [VIEW_WIDTH - PAD, VIEW_HEIGHT - PAD]], fit));
  }
  const { west, south, east, north } = REGIONS[region].box;
  const fit = { type: "MultiPoint" as const, coordinates: [[west, south], [east, north]] };
  return clip(geoMercator().fitExtent([[PAD, PAD], [VIEW_WIDTH - PAD, VIEW_HEIGHT - PAD]], fit));
}

/** A map zoomed on one point: FOCUS_SPAN_DEGREES across, the point in the middle. */
const pointProjection = (p: LatLng) => clip(geoMercator().center([p.lng, p.lat]).scale(VIEW_WIDTH / ((FOCUS_SPAN_DEGREES * Math.PI) / 180)).translate([VIEW_WIDTH / 2, VIEW_HEIGHT / 2]));

// a route map's land is the same for every consignment of its region: projected once per region
// (projecting the world's 1:50m land takes over 100 ms); the world map's centre is rounded to 30°
// so that it has at most 12
const routeLand = new Map<string, { land: string; borders: string }>();

function landOf(region: RegionKey, worldCentre: number, projection: GeoProjection) {
  const key = region === "WORLD" ? `WORLD ${worldCentre}` : region;
  let drawn = routeLand.get(key);
  if (!drawn) {
    const { land, borders } = atlas(region === "WORLD" ? "110m" : "50m");
    const path = geoPath(projection).digits(1);
    drawn = { land: path(land) ?? "", borders: path(borders) ?? "" };
    routeLand.set(key, drawn);
  }
  return drawn;
}

const overlaps = ([[w, s], [e, n]]: [[number, number], [number, number]], box: Bounds) =>
  // a piece across 180° (w > e) is kept: rare, and clipping drops what is outside
  s <= box.north && n >= box.south && (w > e || (w <= box.east && e >= box.west));

/** A zoomed map's land: only the pieces near the point are projected (a few ms rather than 100). */
function landNear(point: LatLng, projection: GeoProjection) {
  const half = FOCUS_SPAN_DEGREES / 2;
  const box = { west: point.lng - half, east: point.lng + half, south: point.lat - half, north: point.lat + half };
  const near = atlas("50m").pieces.filter((p) => overlaps(p.bounds, box));
  const path = geoPath(projection).digits(1);
  const of = (type: string) => near.filter((p) => p.geometry.type === type).map((p) => path(p.geometry) ?? "").join("");
  return { land: of("Polygon"), borders: of("LineString") };
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/** An arc as an SVG path; a jump across the map's edge (the world map's back meridian) starts a new line. */
function arcPath(path: LatLng[], projection: GeoProjection): string {
  let d = "";
  let last: [number, number] | null = null;
  for (const p of path) {
    const xy = projection([p.lng, p.lat]);
    if (!xy) continue;
    const [x, y] = [round1(xy[0]), round1(xy[1])];
    d += `${last && Math.abs(x - last[0]) < VIEW_WIDTH / 2 ? "L" : "M"}${x},${y}`;
    last = [x, y];
  }
  return d;
}

const place = (a: PlacedAddress | null) => (a ? [a.locality, a.region, a.postcode].filter(Boolean).join(" ") || a.name : "an unknown address");
const DELIVERED = new Set(["delivered", "delivered_with_pod"]);

export interface JourneyMapOptions {
  /** the event to open the map on (the screen's ?event=) */
  focusEventId?: number;
  /** the zone and country event times are read in: the sending site's (default: the sender address's) */
  timeZone?: string | null;
  country?: string;
}

/**
 * The journey map of a consignment's track and trace. With focusEventId naming an event that
 * has a location, the map opens on that event (zoom 14 on Google; zoomed in and marked on the
 * vector map); otherwise on the route map of the sending country.
 */
export function journeyMap(track: TrackTraceJson, options: JourneyMapOptions = {}): JourneyMapData {
  const { sender_address: sender, receiver_address: receiver, consignment_state: state } = track.metadata;
  const timeZone = options.timeZone !== undefined ? options.timeZone : (sender?.timezone ?? null);
  const country = options.country ?? sender?.country ?? "AUSTRALIA";
  const stops = journeyStops(sender, track.events, receiver);
  if (!stops.length) return { available: false, message: NO_MAP };

  const oldestFirst = [...track.events].sort((a, b) => Date.parse(a.event_time) - Date.parse(b.event_time) || a.id - b.id);
  const number = new Map(oldestFirst.map((e, i) => [e.id, i + 1]));
  const byId = new Map(track.events.map((e) => [e.id, e]));
  // times as the sending site reads them (as the events table does), whatever zone the server runs in
  const when = (e: TrackingEventJson) => localTime(new Date(e.event_time), timeZone, country);
  const eventText = (e: TrackingEventJson) => `${number.get(e.id)}. ${stateLabel(e.event, true)}, ${when(e)}${e.message ? `: ${e.message}` : ""}`;

  const wanted = options.focusEventId == null ? undefined : byId.get(options.focusEventId);
  const focus = wanted ? pointOf(wanted) : null;
  const path = journeyPath(stops);
  const region = regionFor(sender?.country ?? receiver?.country, path);
  const view = mapView(region, path, focus);
  const worldCentre = Math.round(centreLongitude(path) / 30) * 30;
  const projection = view.mode === "point" ? pointProjection(view.center) : routeProjection(region, worldCentre);
  const drawn = view.mode === "point" ? landNear(view.center, projection) : landOf(region, worldCentre, projection);

  const markers: MapMarker[] = stops.map((stop) => {
    // Mercator is finite everywhere pointOf lets through (latitudes short of the poles)
    const [x, y] = projection([stop.point.lng, stop.point.lat])!.map(round1) as [number, number];
    const base = { ...stop.point, x, y, inView: x >= 0 && x <= VIEW_WIDTH && y >= 0 && y <= VIEW_HEIGHT };
    if (stop.kind !== "event") {
      const a = stop.kind === "sender" ? sender : receiver;
      const glyph = stop.kind === "sender" ? "From" : "To";
      return { ...base, key: stop.kind, kind: stop.kind, eventId: null, glyph, title: `${glyph}: ${a?.name ? `${a.name}, ` : ""}${place(a)}`, focused: false };
    }
    const e = byId.get(stop.eventId)!;
    return { ...base, key: `event-${e.id}`, kind: "event", eventId: e.id, glyph: String(number.get(e.id)), title: eventText(e), focused: e.id === wanted?.id && !!focus };
  });

  // the leg into the receiver is still to go until delivery (none when the last event is already there)
  const [before, last] = [stops.at(-2), stops.at(-1)!];
  const receiverLeg = last.kind === "receiver" && !!before && (before.point.lat !== last.point.lat || before.point.lng !== last.point.lng);
  const lastLeg = path.length - 2;
  const arcs = journeyArcs(path).map((arc, i) => ({
    remaining: i === lastLeg && receiverLeg && !DELIVERED.has(state),
    path: arc,
    d: arcPath(arc, projection),
  }));

  const located = stops.filter((s) => s.kind === "event").length;
  const unlocated = track.events.length - located;
  const where = (a: PlacedAddress | null) => `${place(a)}${a && !pointOf(a) ? " (not on the map)" : ""}`;
  const caption =
    `Map of the journey from ${where(sender)} to ${where(receiver)}, ${located} tracking event${located === 1 ? "" : "s"} shown` +
    (unlocated ? ` (${unlocated} without a location left out).` : ".");
  const summary = [
    `From: ${where(sender)}`,
    ...oldestFirst.map((e) => `${eventText(e)}${pointOf(e) ? "" : " (no location)"}`),
    `To: ${where(receiver)}${arcs.at(-1)?.remaining ? " (not yet delivered)" : ""}`,
  ];

  return {
    available: true,
    caption,
    summary,
    notice: options.focusEventId != null && !focus ? FOCUS_WITHOUT_LOCATION : null,
    focusEventId: focus ? wanted!.id : null,
    markers,
    arcs,
    vector: { viewBox: `0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}`, width: VIEW_WIDTH, height: VIEW_HEIGHT, ...drawn },
    google: { center: view.center, zoom: view.zoom },
  };
}
