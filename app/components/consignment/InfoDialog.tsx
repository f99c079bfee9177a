import { useRef, useState } from "react";
import { localTime } from "~/modules/calendar/site-time";
import { apiFetch } from "~/utils/api-client";

export interface Change {
  version: number;
  field: string;
  from: string | null;
  to: string | null;
  by: string | null;
  at: string;
}

/** Info: the consignment's audit history (every saved change), for admins, super admins and devs. */
export function InfoButton({ consignmentId, timeZone, country }: { consignmentId: number; timeZone: string | null; country: string }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [changes, setChanges] = useState<Change[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = async () => {
    dialog.current?.showModal();
    const res = await apiFetch<{ changes: Change[] }>(`/api/consignment_changes?id=${consignmentId}`);
    if (res.ok) setChanges(res.data.changes);
    else setError(res.message);
  };
  return (
    <>
      <button type="button" className="btn" onClick={() => void open()}>
        Info
      </button>
      <dialog ref={dialog} className="w-full max-w-4xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40" aria-labelledby="info-title" data-testid="info-dialog">
        <div className="space-y-3 p-4">
          <div className="flex items-center justify-between">
            <h2 id="info-title" className="text-lg font-semibold">
              Consignment information
            </h2>
            <button type="button" className="btn" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
          {error ? <p className="field-error">{error}</p> : null}
          {!changes && !error ? <p className="text-sm text-slate-500">Loading…</p> : null}
          {changes ? <ChangesTable changes={changes} timeZone={timeZone} country={country} /> : null}
        </div>
      </dialog>
    </>
  );
}

/** The changes, newest as the /api answers them; each time as the site reads it (its zone and date format). */
export function ChangesTable({ changes, timeZone, country }: { changes: Change[]; timeZone: string | null; country: string }) {
  return (
    <div className="max-h-[60vh] overflow-auto">
      <table className="w-full text-sm">
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th className="py-1 pr-2">Version</th>
            <th className="py-1 pr-2">Field</th>
            <th className="py-1 pr-2">From</th>
            <th className="py-1 pr-2">To</th>
            <th className="py-1 pr-2">By</th>
            <th className="py-1">At</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {changes.map((c, i) => (
            <tr key={i}>
              <td className="py-1 pr-2">{c.version}</td>
              <td className="py-1 pr-2 font-mono text-xs">{c.field}</td>
              <td className="py-1 pr-2 break-all">{c.from}</td>
              <td className="py-1 pr-2 break-all">{c.to}</td>
              <td className="py-1 pr-2">{c.by}</td>
              <td className="py-1 whitespace-nowrap">
                <time dateTime={c.at}>{localTime(new Date(c.at), timeZone, country)}</time>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
