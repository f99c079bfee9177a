import { useState } from "react";
import type { Alert } from "~/components/Alerts";
import { printMessages } from "~/modules/printing/messages";
import { apiFetch } from "~/utils/api-client";

/**
 * Prints a document through the user's printer of its kind (GET /api/printers/type/{type}): the
 * document opens in a new tab for that printer; without one, the spec's message says so.
 */
export function PrintButton({
  type,
  ids,
  label,
  noun,
  document,
  onAlert,
}: {
  type: "Connote" | "Manifest";
  ids: number[];
  label: string;
  noun: string;
  /** the dangerous goods documents go to the connote printer too */
  document?: "dangerous_goods";
  onAlert: (a: Alert) => void;
}) {
  const [busy, setBusy] = useState(false);
  const print = async () => {
    setBusy(true);
    // the tab is opened now, while the click still counts as the user's, and pointed at the document once known
    const tab = window.open("about:blank", "_blank");
    const res = await apiFetch<{ url: string; printer: { name: string } }>(`/api/printers/type/${type}?printable_type=consignment&printable_id=${ids.join(",")}`);
    setBusy(false);
    if (!res.ok) {
      tab?.close();
      onAlert({ type: "error", message: res.message });
      return;
    }
    const url = document === "dangerous_goods" ? `/print/dangerous_goods_documents?ids=${ids.join(",")}` : res.data.url;
    if (tab) tab.location.href = url;
    else window.open(url, "_blank");
    onAlert({ type: "info", message: `${printMessages.sent(ids.length, noun)} (${res.data.printer.name})` });
  };
  return (
    <button type="button" className="btn" disabled={busy} onClick={() => void print()}>
      {label}
    </button>
  );
}
