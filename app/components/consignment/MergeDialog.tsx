import { useNavigate } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { MergeCandidate } from "~/modules/consignments/merge.server";
import { formatWeight } from "~/modules/consignments/rules";
import { apiFetch } from "~/utils/api-client";

/** The merge check runs at most once every 5 s (spec 1 section 9). */
export const MERGE_THROTTLE_MS = 5000;
let lastCheck = 0;

/**
 * Mergeable consignments of a saved consignment: a notice with a Merge button, and the merge
 * dialog (pick one by radio; Merge or Cancel). Opens by itself right after a save.
 */
export function MergePanel({ consignmentId, openAfterSave, onError }: { consignmentId: number; openAfterSave: boolean; onError: (message: string) => void }) {
  const [candidates, setCandidates] = useState<MergeCandidate[]>([]);
  const [chosen, setChosen] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();

  useEffect(() => {
    const wait = Math.max(0, lastCheck + MERGE_THROTTLE_MS - Date.now());
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      lastCheck = Date.now();
      const res = await apiFetch<{ consignments: MergeCandidate[] }>("/api/consignments/mergeable_consignments", { json: { id: consignmentId }, signal: controller.signal }).catch(() => null);
      if (!res?.ok || controller.signal.aborted) return;
      setCandidates(res.data.consignments);
      setChosen(res.data.consignments[0]?.id ?? null);
      if (openAfterSave && res.data.consignments.length) dialog.current?.showModal();
    }, wait);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [consignmentId, openAfterSave]);

  if (!candidates.length) return null;

  const merge = async () => {
    if (!chosen || busy) return;
    setBusy(true);
    const res = await apiFetch<{ id: number }>(`/api/consignments/${chosen}/merge`, { json: { source_id: consignmentId } });
    setBusy(false);
    dialog.current?.close();
    if (res.ok) navigate(`/consignment/${chosen}?merged=${consignmentId}`);
    else onError(res.message);
  };

  return (
    <>
      <div className="flex items-center justify-between rounded border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900" data-testid="merge-notice">
        <span>
          {candidates.length} consignment{candidates.length === 1 ? "" : "s"} to the same receiver on this despatch date can be merged with this one.
        </span>
        <button type="button" className="btn" onClick={() => dialog.current?.showModal()}>
          Merge…
        </button>
      </div>
      <dialog ref={dialog} className="w-full max-w-2xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40" aria-labelledby="merge-title" data-testid="merge-dialog">
        <form
          method="dialog"
          className="space-y-3 p-4"
          onSubmit={(e) => {
            e.preventDefault();
            void merge();
          }}
        >
          <h2 id="merge-title" className="text-lg font-semibold">
            Mergeable consignments
          </h2>
          <p className="text-sm text-slate-600">These go to the same receiver address on the same despatch date. Merge this consignment into:</p>
          <div role="radiogroup" aria-label="Merge into" className="divide-y divide-slate-100 rounded border border-slate-200">
            {candidates.map((m) => (
              <label key={m.id} className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm">
                <input type="radio" name="merge_target" value={m.id} checked={chosen === m.id} onChange={() => setChosen(m.id)} />
                <span className="flex-1">
                  <span className="font-medium">{m.consignment_number ?? "Pending"}</span> · {m.reference ?? "no reference"} · {m.receiver_name}
                </span>
                <span className="text-xs text-slate-500" data-testid="merge-candidate-size">
                  {m.item_count} item{m.item_count === 1 ? "" : "s"} · {formatWeight(m.weight, m.som)}
                </span>
              </label>
            ))}
          </div>
          <div className="flex justify-end gap-2">
            <button type="button" className="btn" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className="btn-primary" disabled={!chosen || busy}>
              Merge
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
