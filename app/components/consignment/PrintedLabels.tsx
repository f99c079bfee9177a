import { useEffect, useState } from "react";
import { printMessages } from "~/modules/printing/messages";
import { apiFetch } from "~/utils/api-client";

/**
 * After Save + Print: the labels go to the user's label printer (a PDF opens in a new tab, a ZPL
 * printer's file downloads); without a configured printer the spec's message says so. The link
 * stays, should a pop-up blocker stop the tab.
 */
export function PrintedLabels({ id, count }: { id: number; count: number }) {
  const [state, setState] = useState<{ href: string; message: string; ok: boolean }>({ href: `/print/${id}/labels`, message: "", ok: true });
  useEffect(() => {
    let live = true;
    void apiFetch<{ url: string; printer: { name: string } }>(`/api/printers/type/Label?printable_type=consignment&printable_id=${id}`).then((res) => {
      if (!live) return;
      if (!res.ok) return setState((s) => ({ ...s, ok: false, message: res.message }));
      window.open(res.data.url, "_blank", "noopener");
      setState({ href: res.data.url, ok: true, message: `${printMessages.sent(count)} (${res.data.printer.name})` });
    });
    return () => {
      live = false;
    };
  }, [id, count]);
  return (
    <div role="status" className={`flex items-center justify-between rounded border px-3 py-2 text-sm ${state.ok ? "border-green-300 bg-green-50 text-green-900" : "border-red-300 bg-red-50 text-red-900"}`} data-testid="printed-labels">
      <span>{state.message || printMessages.sent(count)}</span>
      <span className="flex gap-2">
        {!state.ok ? (
          <a className="btn" href="/configure_printers">
            Configure printers
          </a>
        ) : null}
        <a className="btn" href={state.href} target="_blank" rel="noreferrer">
          Open the labels
        </a>
      </span>
    </div>
  );
}
