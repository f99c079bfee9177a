import type { JourneyMapData, MapMarker } from "~/modules/tracking/journey-map.server";

export type ShownMap = Extract<JourneyMapData, { available: true }>;

/** The journey in Tailwind's sky (route), emerald (from), rose (to) and amber (the chosen event). */
const LEG = "fill-none stroke-sky-700";
// a white outline keeps labels readable over land, sea and legs alike
const HALO = { paintOrder: "stroke", stroke: "white", strokeWidth: 3, strokeLinejoin: "round" } as const;

function Marker({ m, width }: { m: MapMarker; width: number }) {
  const end = m.kind !== "event";
  // near the right edge the word goes on the left, where it is not cut off
  const left = m.x > width - 60;
  return (
    <g data-testid="map-marker" data-kind={m.kind}>
      <title>{m.title}</title>
      {m.focused ? <circle cx={m.x} cy={m.y} r={17} className="fill-amber-300/60 stroke-amber-600" strokeWidth={3} data-testid="map-focus" /> : null}
      <circle cx={m.x} cy={m.y} r={end ? 7 : 10} className={m.kind === "sender" ? "fill-emerald-600" : m.kind === "receiver" ? "fill-rose-600" : "fill-sky-700"} stroke="white" strokeWidth={2} />
      {end ? (
        <text x={left ? m.x - 11 : m.x + 11} y={m.y + 5} textAnchor={left ? "end" : "start"} className="fill-slate-900 text-[15px] font-semibold" style={HALO}>
          {m.glyph}
        </text>
      ) : (
        <text x={m.x} y={m.y + 4} textAnchor="middle" className="fill-white text-[11px] font-bold">
          {m.glyph}
        </text>
      )}
    </g>
  );
}

/**
 * The vector journey map: world-atlas land projected on the server, so it is complete in the
 * server's HTML and needs no script and no other site. An image to assistive technology, named
 * and described by the figure's caption.
 */
export function JourneyMapSvg({ map, labelledBy, describedBy }: { map: ShownMap; labelledBy: string; describedBy: string }) {
  const { vector } = map;
  // events under the route's ends, the chosen event on top
  const markers = map.markers.filter((m) => m.inView).sort((a, b) => Number(a.kind !== "event") - Number(b.kind !== "event") || Number(a.focused) - Number(b.focused));
  return (
    <svg
      viewBox={vector.viewBox}
      role="img"
      aria-labelledby={labelledBy}
      aria-describedby={describedBy}
      // never wider than its 960 x 600 view: letterboxed, the land would stop short of the frame
      className="mx-auto block h-auto w-full max-w-[960px] bg-sky-50"
      data-testid="journey-map-vector"
    >
      <path d={vector.land} className="fill-stone-200 stroke-stone-400" strokeWidth={0.75} />
      <path d={vector.borders} className="fill-none stroke-stone-400" strokeWidth={0.75} strokeDasharray="4 3" />
      {map.arcs.map((arc, i) => (
        <path key={i} d={arc.d} className={LEG} strokeWidth={3} strokeLinecap="round" strokeDasharray={arc.remaining ? "2 8" : undefined} data-testid="map-leg" />
      ))}
      {markers.map((m) => (
        <Marker key={m.key} m={m} width={vector.width} />
      ))}
    </svg>
  );
}
