/**
 * The list's printing in the browser: labels of a selection as one document, and the despatch
 * manifests once Australia Post says they are ready. The user's printer of each kind decides the
 * document's form (PDF, or ZPL for a thermal label printer); without one the spec's message shows.
 */
import { apiFetch } from "~/utils/api-client";
import { MANIFEST_POLL_MS } from "~/modules/consignments/list";

type Outcome<T> = ({ ok: true } & T) | { ok: false; message: string };

interface PrinterAnswer {
  url: string;
  printer: { name: string; format: "pdf" | "zpl" };
}

/** The user's printer of a kind for these documents (GET /api/printers/type/{type}). */
export function printerFor(type: "Label" | "Manifest", printable: "consignment" | "manifest", ids: number[]) {
  return apiFetch<PrinterAnswer>(`/api/printers/type/${type}?printable_type=${printable}&printable_id=${ids.join(",")}`);
}

/**
 * Prints the labels of `ids` (POST /print/labels: numbers and SSCCs are allocated the first time)
 * and answers the document as an object URL, with the number of labels in it.
 */
export async function printLabelDocument(ids: number[], format: "pdf" | "zpl"): Promise<Outcome<{ url: string; labels: number }>> {
  const res = await fetch(`/print/labels?ids=${ids.join(",")}${format === "zpl" ? "&format=zpl" : ""}`, {
    method: "POST",
    headers: { "X-Requested-With": "XMLHttpRequest" },
  });
  if (res.status === 401) {
    window.location.assign(`/login?redirectTo=${encodeURIComponent(window.location.pathname + window.location.search)}`);
    return { ok: false, message: "You need to sign in again." };
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { errors?: Record<string, string[]> };
    const first = body.errors ? Object.values(body.errors)[0]?.[0] : undefined;
    return { ok: false, message: first ?? `Request failed (${res.status} POST /print/labels)` };
  }
  const labels = Number(res.headers.get("X-Label-Count") ?? 0);
  return { ok: true, url: URL.createObjectURL(await res.blob()), labels };
}

/** Sends a document to a tab opened while the key press or click still counted as the user's. */
export function showIn(tab: Window | null, url: string) {
  if (tab && !tab.closed) tab.location.href = url;
  else window.open(url, "_blank");
}

/**
 * Polls GET /api/manifests/{id}/ready_for_print every second until each manifest is ready or
 * failed (at most `limit` polls each). Answers the ones that failed.
 */
export async function waitForManifests(ids: number[], signal: { stopped: boolean }, limit = 120): Promise<{ failed: number[] }> {
  const failed: number[] = [];
  for (const id of ids) {
    for (let i = 0; i < limit && !signal.stopped; i++) {
      const res = await apiFetch<{ status: "pending" | "ready" | "failed"; ready: boolean }>(`/api/manifests/${id}/ready_for_print`);
      if (!res.ok || res.data.status === "failed") {
        failed.push(id);
        break;
      }
      if (res.data.ready || res.data.status === "ready") break;
      await new Promise((resolve) => setTimeout(resolve, MANIFEST_POLL_MS));
    }
  }
  return { failed };
}
