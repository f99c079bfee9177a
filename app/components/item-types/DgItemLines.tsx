import { useState } from "react";
import { Typeahead } from "~/components/Typeahead";
import type { DangerousGoodsTypeJson } from "~/modules/dangerous-goods/dangerous-goods.server";
import { apiFetch } from "~/utils/api-client";

const FIELDS = [
  ["un_number", "UN number"],
  ["proper_shipping_name", "Proper shipping name"],
  ["hazard_class", "Class"],
  ["packing_group", "Packing group"],
  ["sub_hazard", "Sub risk"],
  ["technical_name", "Technical name"],
  ["weight_in_uom", "Weight"],
] as const;
type Key = (typeof FIELDS)[number][0];
type Line = Record<Key, string>;

const blank = (): Line => ({ un_number: "", proper_shipping_name: "", hazard_class: "", packing_group: "", sub_hazard: "", technical_name: "", weight_in_uom: "" });
const fromStored = (d: Record<string, unknown>): Line => Object.fromEntries(FIELDS.map(([k]) => [k, d[k] == null ? "" : String(d[k])])) as Line;

async function searchDg(query: string, signal: AbortSignal): Promise<DangerousGoodsTypeJson[]> {
  const res = await apiFetch<{ dangerous_goods_types: DangerousGoodsTypeJson[] }>(`/api/dangerous_goods_types?query=${encodeURIComponent(query)}`, { signal });
  return res.ok ? res.data.dangerous_goods_types : [];
}

/**
 * The item type's preselected dangerous goods lines (spec 2 "Item type detail"): a UN number
 * typeahead fills the line from the dangerous goods list. One blank line is always there, so the
 * form takes a line before JavaScript loads; blank lines are not saved.
 */
export function DgItemLines({ initial, errors }: { initial: Array<Record<string, unknown>>; errors?: Record<string, string[] | undefined> }) {
  const [lines, setLines] = useState<Line[]>(() => [...initial.map(fromStored), blank()]);
  const set = (j: number, patch: Partial<Line>) => setLines((all) => all.map((l, k) => (k === j ? { ...l, ...patch } : l)));
  const pick = (j: number) => (s: DangerousGoodsTypeJson) =>
    set(j, { un_number: s.un_number, proper_shipping_name: s.proper_shipping_name, hazard_class: s.hazard_class ?? "", sub_hazard: s.sub_risk ?? "", packing_group: s.packing_group ?? "" });
  return (
    <fieldset className="space-y-2 rounded border border-amber-300 bg-amber-50 p-2">
      <legend className="text-sm font-medium">Preselected dangerous goods items (used when Dangerous goods is ticked)</legend>
      {lines.map((line, j) => {
        const name = (k: Key) => `preselected_dg_items[${j}].${k}`;
        const id = (k: Key) => `dg-${j}-${k}`;
        const error = errors?.[name("un_number")]?.[0];
        return (
          <div key={j} className="grid grid-cols-2 gap-2 md:grid-cols-7" data-testid="dg-item-line">
            {FIELDS.map(([k, text]) => (
              <div key={k}>
                <label htmlFor={id(k)} className="block text-xs text-slate-600">
                  {text}
                  <span className="sr-only">{` dangerous goods item ${j + 1}`}</span>
                </label>
                {k === "un_number" ? (
                  <Typeahead<DangerousGoodsTypeJson>
                    id={id(k)}
                    name={name(k)}
                    value={line.un_number}
                    onChange={(v) => set(j, { un_number: v })}
                    search={searchDg}
                    render={(s) => `UN${s.un_number} ${s.proper_shipping_name} (${s.hazard_class ?? "NIL"})`}
                    onPick={pick(j)}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id(k)}-error` : undefined}
                  />
                ) : (
                  <input id={id(k)} name={name(k)} className="input" value={line[k]} onChange={(e) => set(j, { [k]: e.target.value })} />
                )}
                {k === "un_number" && error ? (
                  <p id={`${id(k)}-error`} className="field-error">
                    {error}
                  </p>
                ) : null}
              </div>
            ))}
          </div>
        );
      })}
      <button type="button" className="btn" onClick={() => setLines((all) => [...all, blank()])}>
        Add dangerous goods item
      </button>
    </fieldset>
  );
}
