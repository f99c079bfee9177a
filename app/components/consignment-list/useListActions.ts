import { useCallback, useEffect, useRef, useState, type Dispatch, type MutableRefObject, type SetStateAction } from "react";
import type { Alert } from "~/components/Alerts";
import { DESPATCH_PAUSE_MS, NO_MANIFESTS, canDespatchIn, canPrintLabelsIn, manifestFailed, type ListFilter } from "~/modules/consignments/list";
import { printMessages } from "~/modules/printing/messages";
import { apiFetch } from "~/utils/api-client";
import { printLabelDocument, printerFor, showIn, waitForManifests } from "./printing";
import type { Job } from "./types";

/**
 * The list's actions on the selection: Print Labels, Despatch (and Despatch + Print Manifest) with
 * the despatch job it starts and what follows its end, and their Alt shortcuts.
 */
export function useListActions({
  filter,
  selectedRef,
  setSelected,
  addAlerts,
  revalidator,
  autoOpen,
}: {
  filter: ListFilter;
  selectedRef: MutableRefObject<Set<number>>;
  setSelected: Dispatch<SetStateAction<Set<number>>>;
  addAlerts: (...more: Alert[]) => void;
  revalidator: { revalidate: () => unknown };
  autoOpen: boolean;
}) {
  const [job, setJob] = useState<{ id: string; printManifest: boolean; tab: Window | null } | null>(null);
  const [manifestUrl, setManifestUrl] = useState<string | null>(null);
  const [paused, setPaused] = useState(false);

  const printLabels = useCallback(async () => {
    if (!canPrintLabelsIn(filter)) return;
    const ids = [...selectedRef.current];
    if (!ids.length) return addAlerts({ type: "error", message: "No consignments have been selected." });
    // opened now, while the key press or click still counts as the user's
    const tab = window.open("about:blank", "_blank");
    const printer = await printerFor("Label", "consignment", ids);
    if (!printer.ok) {
      tab?.close();
      return addAlerts({ type: "error", message: printer.message });
    }
    const doc = await printLabelDocument(ids, printer.data.printer.format);
    if (!doc.ok) {
      tab?.close();
      return addAlerts({ type: "error", message: doc.message });
    }
    showIn(tab, doc.url);
    addAlerts({ type: "info", message: `${printMessages.sent(doc.labels)} (${printer.data.printer.name})` });
    revalidator.revalidate();
  }, [filter, selectedRef, addAlerts, revalidator]);

  const despatch = useCallback(
    async (printManifest: boolean) => {
      if (!canDespatchIn(filter) || paused) return;
      const ids = [...selectedRef.current];
      const tab = printManifest && ids.length ? window.open("about:blank", "_blank") : null;
      setPaused(true);
      setTimeout(() => setPaused(false), DESPATCH_PAUSE_MS);
      const res = await apiFetch<{ job_id: string }>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
      if (!res.ok) {
        tab?.close();
        // a selection that cannot all be despatched is refused with a warning (spec 1 section 5)
        return addAlerts({ type: res.status === 409 ? "warning" : "error", message: res.message });
      }
      setManifestUrl(null);
      setJob({ id: res.data.job_id, printManifest, tab });
    },
    [filter, paused, selectedRef, addAlerts],
  );

  /** The end of a despatch: its errors, the no-manifest warning, then the manifests to print. */
  const despatchDone = async (done: Job, printManifest: boolean, tab: Window | null) => {
    const info = done.info ?? {};
    const manifests = info.manifest_ids ?? [];
    // the All view keeps despatched rows listed: untick them so Despatch is not offered for them again
    const gone = new Set(Array.isArray(info.despatched) ? info.despatched : []);
    if (gone.size) setSelected((s) => new Set([...s].filter((id) => !gone.has(id))));
    const next: Alert[] = [];
    if (done.status === "failed") {
      next.push({ type: "error", message: done.message || "Despatch failed." }, ...done.errors.map((message) => ({ type: "error" as const, message })));
      setJob(null);
    }
    if (!manifests.length) next.push({ type: "warning", message: NO_MANIFESTS });
    addAlerts(...next);
    revalidator.revalidate();
    if (!printManifest || !manifests.length) {
      tab?.close();
      return;
    }
    const { failed } = await waitForManifests(info.auspost_manifest_ids ?? [], { stopped: false });
    if (failed.length) addAlerts(...failed.map((id) => ({ type: "error" as const, message: manifestFailed(id) })));
    const printer = await printerFor("Manifest", "manifest", manifests);
    if (!printer.ok) {
      tab?.close();
      return addAlerts({ type: "error", message: printer.message });
    }
    if (tab) showIn(tab, printer.data.url);
    else setManifestUrl(printer.data.url);
    addAlerts({ type: "info", message: `${printMessages.sent(manifests.length, "manifest")} (${printer.data.printer.name})` });
  };

  // Alt shortcuts work anywhere on the list (not while the Auto Labels dialog is open)
  const keys = useRef({ printLabels, despatch, autoOpen });
  keys.current = { printLabels, despatch, autoOpen };
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || keys.current.autoOpen) return;
      const key = e.code.replace(/^Key/, "").toLowerCase() || e.key.toLowerCase();
      if (key === "d" || key === "m") {
        e.preventDefault();
        void keys.current.despatch(key === "m");
      } else if (key === "l") {
        e.preventDefault();
        void keys.current.printLabels();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  return { job, manifestUrl, paused, printLabels, despatch, despatchDone };
}
