import { useEffect, useRef, useState } from "react";
import { apiFetch } from "~/utils/api-client";
import { localTime } from "~/modules/calendar/site-time";
import { AUTO_PRINT_EVERY_MS, dueForPrinting, type DateFilter } from "~/modules/consignments/list";
import { printMessages } from "~/modules/printing/messages";
import { printLabelDocument, printerFor } from "./printing";

interface Row {
  id: number;
  consignment_number: string;
  party_name: string;
  reference: string;
}

interface Printed {
  at: string;
  rows: Row[];
  url: string | null;
  labels: number;
  error?: string;
}

/**
 * Auto Labels (spec 1 sections 2 and 9): while open, every 2.5 s it asks for the consignments of
 * the list's site and date filter whose labels are still to print, and prints those it has not
 * printed in the last 45 s as one document, shown here and listed.
 */
export function AutoLabelsDialog({
  open,
  onClose,
  siteId,
  dateFilter,
  timeZone,
  country,
  onPrinted,
}: {
  open: boolean;
  onClose: () => void;
  siteId: number | "all";
  dateFilter: DateFilter;
  /** the list's site: the printed times are its clock's (HH:mm), not the browser's */
  timeZone: string | null;
  country: string;
  onPrinted: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [log, setLog] = useState<Printed[]>([]);
  const [status, setStatus] = useState("Waiting for consignments whose labels are still to print...");
  const [stopped, setStopped] = useState<string | null>(null);
  const printedAt = useRef(new Map<number, number>());
  const onPrintedRef = useRef(onPrinted);
  onPrintedRef.current = onPrinted;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  useEffect(() => {
    if (!open) return;
    const run = { stopped: false };
    let timer: ReturnType<typeof setTimeout>;
    setStopped(null);
    // the label printer decides the document's form; without one nothing is printed
    async function start() {
      const printer = await printerFor("Label", "consignment", [0]);
      if (run.stopped) return;
      if (!printer.ok) {
        setStopped(printer.message);
        return;
      }
      const loop = async () => {
        const res = await apiFetch<{ consignments: Row[] }>(
          `/api/consignments?filter=labels_to_print&auto_printing=1&siteId=${siteId}&dateFilter=${dateFilter}&timestamp=${Date.now()}`,
        );
        if (run.stopped) return;
        if (!res.ok) setStatus(res.message);
        else {
          const due = dueForPrinting(res.data.consignments.map((c) => c.id), printedAt.current, Date.now());
          if (due.length) {
            const now = Date.now();
            // remembered before printing: a failed print is not retried for 45 s either
            for (const id of due) printedAt.current.set(id, now);
            const doc = await printLabelDocument(due, printer.data.printer.format);
            if (run.stopped) return;
            const rows = res.data.consignments.filter((c) => due.includes(c.id));
            const at = localTime(new Date(), timeZone, country).slice(11);
            setLog((l) => [doc.ok ? { at, rows, url: doc.url, labels: doc.labels } : { at, rows, url: null, labels: 0, error: doc.message }, ...l].slice(0, 50));
            setStatus(doc.ok ? `${printMessages.sent(doc.labels)} (${printer.data.printer.name})` : doc.message);
            onPrintedRef.current();
          } else setStatus("Waiting for consignments whose labels are still to print...");
        }
        timer = setTimeout(() => void loop(), AUTO_PRINT_EVERY_MS);
      };
      await loop();
    }
    void start();
    return () => {
      run.stopped = true;
      clearTimeout(timer);
    };
  }, [open, siteId, dateFilter, timeZone, country]);

  const latest = log.find((p) => p.url);
  return (
    <dialog ref={ref} onClose={onClose} className="w-full max-w-3xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40" aria-labelledby="auto-labels-title" data-testid="auto-labels">
      <div className="space-y-3 p-4">
        <h2 id="auto-labels-title" className="text-lg font-semibold">
          Auto Labels
        </h2>
        {stopped ? (
          <p role="alert" className="rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
            {stopped}
          </p>
        ) : (
          <p role="status" className="text-sm text-slate-700" data-testid="auto-labels-status">
            {status}
          </p>
        )}
        {log.length ? (
          <ul className="max-h-48 divide-y divide-slate-100 overflow-auto rounded border border-slate-200 text-sm" aria-label="Printed" data-testid="auto-labels-log">
            {log.map((p, i) => (
              <li key={i} className="px-3 py-1.5">
                <span className="tabular-nums text-slate-500">{p.at}</span>{" "}
                {p.rows.map((r) => [r.party_name, r.reference].filter(Boolean).join(" ") || `#${r.id}`).join(", ")}
                {p.url ? (
                  <>
                    {" · "}
                    <a className="text-sky-700 underline" href={p.url} target="_blank" rel="noreferrer">
                      {printMessages.printed(p.labels)}
                    </a>
                  </>
                ) : (
                  <span className="text-red-700"> · {p.error}</span>
                )}
              </li>
            ))}
          </ul>
        ) : null}
        {latest?.url ? <iframe title="Last labels printed" src={latest.url} className="h-64 w-full rounded border border-slate-200" /> : null}
        <div className="flex justify-end">
          <button type="button" className="btn" onClick={onClose} autoFocus>
            Close
          </button>
        </div>
      </div>
    </dialog>
  );
}
