import { useRef, useState } from "react";
import type { ScreenItemType } from "~/modules/consignments/screen.server";

/** The Consolidate dialog: check the item lines to combine and choose the item type they become. */
export function ConsolidateButton({
  lines,
  itemTypes,
  onConsolidate,
}: {
  lines: { description: string }[];
  itemTypes: ScreenItemType[];
  onConsolidate: (checked: number[], typeId: number) => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [checked, setChecked] = useState<number[]>([]);
  const [typeId, setTypeId] = useState<string>(String(itemTypes.find((t) => t.name === "Pallet")?.id ?? itemTypes[0]?.id ?? ""));
  const open = () => {
    setChecked([]);
    dialog.current?.showModal();
  };
  return (
    <>
      <button type="button" className="btn" onClick={open} disabled={lines.length < 2}>
        Consolidate…
      </button>
      <dialog ref={dialog} className="w-full max-w-lg rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40" aria-labelledby="consolidate-title" data-testid="consolidate-dialog">
        <div className="space-y-3 p-4">
          <h2 id="consolidate-title" className="text-lg font-semibold">
            Consolidate items
          </h2>
          <fieldset className="space-y-1">
            <legend className="label">Item lines to combine</legend>
            {lines.map((l, i) => (
              <label key={i} className="flex items-center gap-2 text-sm">
                <input type="checkbox" checked={checked.includes(i)} onChange={(e) => setChecked((c) => (e.target.checked ? [...c, i] : c.filter((x) => x !== i)))} />
                Line {i + 1}: {l.description}
              </label>
            ))}
          </fieldset>
          <div>
            <label className="label" htmlFor="consolidate-type">
              Consolidate into
            </label>
            <select id="consolidate-type" className="input" value={typeId} onChange={(e) => setTypeId(e.target.value)}>
              {itemTypes.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.description}
                </option>
              ))}
            </select>
          </div>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button
              type="button"
              className="btn-primary"
              disabled={checked.length < 2 || !typeId}
              onClick={() => {
                onConsolidate([...checked].sort((a, b) => a - b), Number(typeId));
                dialog.current?.close();
              }}
            >
              Consolidate
            </button>
          </div>
        </div>
      </dialog>
    </>
  );
}
