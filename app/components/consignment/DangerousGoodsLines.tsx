import { Typeahead } from "~/components/Typeahead";
import type { DangerousGoodsTypeJson } from "~/modules/dangerous-goods/dangerous-goods.server";
import { apiFetch } from "~/utils/api-client";
import type { DgState } from "./form-values";

type DgSuggestion = DangerousGoodsTypeJson;

async function searchDg(query: string, signal: AbortSignal): Promise<DgSuggestion[]> {
  const res = await apiFetch<{ dangerous_goods_types: DgSuggestion[] }>(`/api/dangerous_goods_types?query=${encodeURIComponent(query)}`, { signal });
  return res.ok ? res.data.dangerous_goods_types : [];
}

export function DangerousGoodsLines({ index, lines, onChange, errorFor }: { index: number; lines: DgState[]; onChange: (dg: DgState[]) => void; errorFor: (key: string) => string | undefined }) {
  const set = (j: number, patch: Partial<DgState>) => onChange(lines.map((d, k) => (k === j ? { ...d, ...patch } : d)));
  const pick = (j: number) => (s: DgSuggestion) =>
    set(j, { un_number: s.un_number, proper_shipping_name: s.proper_shipping_name, hazard_class: s.hazard_class ?? "", sub_hazard: s.sub_risk ?? "", packing_group: s.packing_group ?? "", nos: s.nos });
  const name = (j: number, f: string) => `items.${index}.dangerous_goods_items.${j}.${f}`;
  const id = (j: number, f: string) => `dg-${index}-${j}-${f}`;
  // every field has a label (a placeholder vanishes once typed in): the spec's field name on
  // screen, and for screen readers which item line and dangerous goods line it belongs to
  const label = (j: number, f: string, text: string) => (
    <label htmlFor={id(j, f)} className="block text-xs text-slate-600">
      {text}
      <span className="sr-only">{` line ${index + 1} dangerous goods ${j + 1}`}</span>
    </label>
  );
  return (
    <div className="space-y-2 rounded border border-amber-300 bg-amber-50 p-2" data-testid="dg-lines">
      {errorFor(`items.${index}.dangerous_goods_items`) && <p className="field-error">{errorFor(`items.${index}.dangerous_goods_items`)}</p>}
      {lines.map((d, j) => (
        <div key={j} className="grid grid-cols-2 gap-2 md:grid-cols-8" data-testid="dg-line">
          <div>
            {label(j, "un_number", "UN number")}
            <Typeahead<DgSuggestion>
              id={id(j, "un_number")}
              name={name(j, "un_number")}
              value={d.un_number}
              onChange={(v) => set(j, { un_number: v })}
              search={searchDg}
              render={(s) => `UN${s.un_number} ${s.proper_shipping_name} (${s.hazard_class ?? "NIL"})`}
              onPick={pick(j)}
            />
          </div>
          <div className="md:col-span-2">
            {label(j, "proper_shipping_name", "Proper shipping name")}
            <Typeahead<DgSuggestion>
              id={id(j, "proper_shipping_name")}
              name={name(j, "proper_shipping_name")}
              value={d.proper_shipping_name}
              onChange={(v) => set(j, { proper_shipping_name: v })}
              search={searchDg}
              render={(s) => `${s.proper_shipping_name} (UN${s.un_number})`}
              onPick={pick(j)}
            />
          </div>
          {d.nos ? (
            <div>
              {label(j, "technical_name", "Technical name")}
              <input id={id(j, "technical_name")} name={name(j, "technical_name")} className="input" value={d.technical_name} onChange={(e) => set(j, { technical_name: e.target.value })} title={errorFor(`items.${index}.dangerous_goods_items.${j}.technical_name`)} aria-invalid={Boolean(errorFor(`items.${index}.dangerous_goods_items.${j}.technical_name`))} />
            </div>
          ) : (
            <span />
          )}
          <div>
            {label(j, "hazard_class", "Hazard class")}
            <input id={id(j, "hazard_class")} name={name(j, "hazard_class")} className="input" maxLength={6} value={d.hazard_class} onChange={(e) => set(j, { hazard_class: e.target.value })} />
          </div>
          <div>
            {label(j, "packing_group", "Packing group")}
            <input id={id(j, "packing_group")} name={name(j, "packing_group")} className="input" maxLength={6} value={d.packing_group} onChange={(e) => set(j, { packing_group: e.target.value })} />
          </div>
          <div>
            {label(j, "sub_hazard", "Sub risk")}
            <input id={id(j, "sub_hazard")} name={name(j, "sub_hazard")} className="input" maxLength={6} value={d.sub_hazard} onChange={(e) => set(j, { sub_hazard: e.target.value })} />
          </div>
          <div>
            {label(j, "weight_in_uom", "Aggregate quantity")}
            <input id={id(j, "weight_in_uom")} name={name(j, "weight_in_uom")} className="input" maxLength={5} value={d.weight_in_uom} onChange={(e) => set(j, { weight_in_uom: e.target.value })} />
          </div>
          {d.nos ? <input type="hidden" name={name(j, "nos")} value="true" /> : null}
        </div>
      ))}
    </div>
  );
}
