import type { PlaceChoice } from "~/modules/localities/places";

/**
 * The places a typed locality matches (no JavaScript: the server found several), as a labelled
 * radio group: Tab reaches it, the arrow keys choose, and the next Get rates or Save takes the
 * choice. With JavaScript a choice also fills the address at once (`onPick`).
 */
export function PlaceChoiceList({ choice, legend, onPick, testId }: { choice: PlaceChoice; legend: string; onPick?: (place: PlaceChoice["places"][number]) => void; testId?: string }) {
  return (
    <fieldset className="rounded border border-amber-300 bg-amber-50 p-2" data-testid={testId}>
      <legend className="px-1 text-sm font-medium">{legend}</legend>
      <div className="grid gap-1 sm:grid-cols-2 lg:grid-cols-3">
        {choice.places.map((p) => (
          <label key={p.id} className="flex items-center gap-2 text-sm">
            <input type="radio" name={choice.name} value={p.id} onChange={() => onPick?.(p)} />
            {p.label}
          </label>
        ))}
      </div>
      {choice.more ? <p className="mt-1 text-xs text-slate-600">More places match: type more of the name, or the postcode, to narrow them.</p> : null}
    </fieldset>
  );
}
