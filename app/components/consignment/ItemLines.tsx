import type { KeyboardEvent } from "react";
import { consolidate } from "~/modules/consignments/consolidate";
import type { ScreenData } from "~/modules/consignments/screen.server";
import { cleanWeight, itemVolume, itemWeight, typeDefaultsIn } from "~/modules/rating/measure";
import { ConsolidateButton } from "./ConsolidateDialog";
import { DangerousGoodsLines } from "./DangerousGoodsLines";
import { emptyDg, nextLineKey, str, type DgState } from "./form-values";
import type { ConsignmentFormState } from "./useConsignmentFormState";

/** The item lines grid: one row per line (its dangerous goods lines under it), Add item line and Consolidate. */
export function ItemLines({ f, data }: { f: ConsignmentFormState; data: ScreenData }) {
  const { v, som, lines, setLines, setLine, addLine, typeById, grid, errorFor, hydrated, unit, weightUnit } = f;

  const onWeightKey = (i: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" && i === lines.length - 1 && !e.altKey) {
      e.preventDefault();
      addLine();
    }
  };

  return (
    <section className="card space-y-2" aria-label="Item information">
      <h2 className="font-semibold">Item information</h2>
      {errorFor("items") && <p className="field-error">{errorFor("items")}</p>}
      <table className="w-full text-sm" data-testid="item-grid">
        <thead className="text-left text-xs text-slate-500">
          <tr>
            <th className="w-16">Qty</th>
            <th>Item type</th>
            <th>Ref</th>
            <th className="w-20">L ({unit})</th>
            <th className="w-20">W ({unit})</th>
            <th className="w-20">H ({unit})</th>
            <th className="w-24">Dead weight ({weightUnit})</th>
            <th className="w-24">Volume</th>
            <th>DG</th>
            <th>
              <span className="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {lines.map((l, i) => {
            const type = typeById.get(l.item_type_id);
            const volume = itemVolume(grid[i]!, som);
            const cell = (field: "quantity" | "length" | "width" | "height", label: string) => (
              <td className="pr-1 align-top">
                <input
                  aria-label={`${label} line ${i + 1}`}
                  name={`items.${i}.${field}`}
                  data-field={field}
                  className="input"
                  inputMode="numeric"
                  maxLength={field === "quantity" && v.isQuote ? 2 : 4}
                  value={l[field]}
                  onChange={(e) => setLine(i, { [field]: e.target.value.replace(/\D/g, "") })}
                  aria-invalid={Boolean(errorFor(`items.${i}.${field}`))}
                  title={errorFor(`items.${i}.${field}`)}
                />
              </td>
            );
            return [
              <tr key={l.key} data-testid="item-line">
                {cell("quantity", "Quantity")}
                <td className="pr-1 align-top">
                  <select
                    aria-label={`Item type line ${i + 1}`}
                    name={`items.${i}.item_type_id`}
                    className="input"
                    value={l.item_type_id}
                    onChange={(e) => {
                      const t = typeById.get(e.target.value);
                      // item type defaults: its dimensions, and its weight times the quantity, in the site's units
                      const d = t ? typeDefaultsIn(t, som) : null;
                      const weight = d ? itemWeight(Number(l.quantity) || 1, d.weight) : null;
                      setLine(i, {
                        item_type_id: e.target.value,
                        ...(d ? { length: str(d.length ?? ""), width: str(d.width ?? ""), height: str(d.height ?? ""), quantity: l.quantity || "1" } : {}),
                        ...(weight != null ? { weight_in_uom: str(weight) } : {}),
                      });
                    }}
                    aria-invalid={Boolean(errorFor(`items.${i}.item_type_id`))}
                  >
                    <option value="">Choose…</option>
                    {data.itemTypes.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.description}
                      </option>
                    ))}
                  </select>
                </td>
                <td className="pr-1 align-top">
                  <input aria-label={`Reference line ${i + 1}`} name={`items.${i}.reference`} className="input" maxLength={255} value={l.reference} onChange={(e) => setLine(i, { reference: e.target.value })} />
                  {l.consolidated ? <input type="hidden" name={`items.${i}.consolidated`} value="true" /> : null}
                </td>
                {cell("length", "Length")}
                {cell("width", "Width")}
                {cell("height", "Height")}
                <td className="pr-1 align-top">
                  <input
                    aria-label={`Dead weight line ${i + 1}`}
                    name={`items.${i}.weight_in_uom`}
                    className="input"
                    inputMode="decimal"
                    maxLength={5}
                    value={l.weight_in_uom}
                    onChange={(e) => setLine(i, { weight_in_uom: e.target.value })}
                    onBlur={(e) => {
                      const cleaned = cleanWeight(e.target.value, type?.increments);
                      setLine(i, { weight_in_uom: cleaned == null ? "" : String(cleaned) });
                    }}
                    onKeyDown={onWeightKey(i)}
                    aria-invalid={Boolean(errorFor(`items.${i}.weight_in_uom`))}
                    title={errorFor(`items.${i}.weight_in_uom`)}
                  />
                </td>
                <td className="pr-1 align-top tabular-nums" data-testid="line-volume">
                  {volume == null ? "" : volume}
                </td>
                <td className="pr-1 text-center align-top">
                  <input
                    type="checkbox"
                    aria-label={`Dangerous goods line ${i + 1}`}
                    name={`items.${i}.dangerous_goods`}
                    checked={l.dangerous_goods}
                    onChange={(e) => setLine(i, { dangerous_goods: e.target.checked, dg: e.target.checked && l.dg.length === 0 ? [emptyDg()] : l.dg })}
                  />
                </td>
                <td className="align-top">
                  <button type="button" className="btn px-2" aria-label={`Remove line ${i + 1}`} disabled={lines.length === 1} onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}>
                    ×
                  </button>
                </td>
              </tr>,
              l.dangerous_goods ? (
                <tr key={`${l.key}-dg`}>
                  <td colSpan={10} className="pb-2">
                    <DangerousGoodsLines index={i} lines={l.dg.length ? l.dg : [emptyDg()]} onChange={(dg) => setLine(i, { dg })} errorFor={errorFor} />
                  </td>
                </tr>
              ) : null,
            ];
          })}
        </tbody>
      </table>
      <div className="flex items-center gap-2">
        <button type="button" className="btn" onClick={addLine} aria-keyshortcuts="Alt+A">
          Add item line
        </button>
        {hydrated ? (
          <ConsolidateButton
            lines={lines.map((l) => ({ description: `${l.quantity || 0} x ${typeById.get(l.item_type_id)?.description ?? "no type"}, ${l.weight_in_uom || 0} ${weightUnit}` }))}
            itemTypes={data.itemTypes}
            onConsolidate={(checked, typeId) => {
              const type = data.itemTypes.find((t) => t.id === typeId);
              if (type) setLines((ls) => consolidate(ls, checked, type, (fields) => ({ ...fields, key: nextLineKey(), consolidated: true, dg: fields.dg as DgState[] })));
            }}
          />
        ) : null}
      </div>
    </section>
  );
}
