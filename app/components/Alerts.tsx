import { useCallback, useEffect, useRef, useState } from "react";

export type AlertType = "success" | "info" | "warning" | "error";
export interface Alert {
  type: AlertType;
  message: string;
}

/** Success and info alerts leave by themselves after this long (spec 1 section 9). */
export const AUTO_DISMISS_MS = 8000;

const STYLE: Record<AlertType, string> = {
  success: "border-green-300 bg-green-50 text-green-900",
  info: "border-sky-300 bg-sky-50 text-sky-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
};

function AlertItem({ alert, onClose }: { alert: Alert; onClose: (alert: Alert) => void }) {
  // the timer starts once per alert: re-renders of the page must not restart it
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    if (alert.type !== "success" && alert.type !== "info") return;
    const timer = setTimeout(() => close.current(alert), AUTO_DISMISS_MS);
    return () => clearTimeout(timer);
  }, [alert]);
  return (
    <div
      role={alert.type === "error" || alert.type === "warning" ? "alert" : "status"}
      data-alert-type={alert.type}
      className={`flex items-start justify-between gap-3 rounded border px-3 py-2 text-sm ${STYLE[alert.type]}`}
    >
      <span>{alert.message}</span>
      <button type="button" className="text-lg leading-none opacity-60 hover:opacity-100" aria-label="Dismiss" onClick={() => onClose(alert)}>
        ×
      </button>
    </div>
  );
}

/** The alerts area: server-rendered from loader or action data, dismissed in the browser. */
export function Alerts({ alerts }: { alerts: Alert[] }) {
  const [visible, setVisible] = useState(alerts);
  useEffect(() => setVisible(alerts), [alerts]);
  const dismiss = useCallback((alert: Alert) => setVisible((v) => v.filter((a) => a !== alert)), []);
  if (!visible.length) return null;
  return (
    <div className="space-y-2" aria-live="polite">
      {visible.map((alert, i) => (
        <AlertItem key={`${i}-${alert.message}`} alert={alert} onClose={dismiss} />
      ))}
    </div>
  );
}
