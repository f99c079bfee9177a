import { useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { trapTab } from "~/components/trap-tab";

/**
 * A dialog the server renders when the URL (or an action's answer) asks for it, so it works
 * before JavaScript loads (as an open, non-modal <dialog>). Once hydrated it becomes modal:
 * Tab stays inside, Escape goes to `closeHref`, and when it goes away focus returns to the
 * control with id `returnFocusId` (the one that opened it).
 */
export function ServerDialog({ title, closeHref, returnFocusId, children, testId, wide = false }: { title: ReactNode; closeHref: string; returnFocusId: string; children: ReactNode; testId?: string; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const navigate = useNavigate();
  useEffect(() => {
    const d = ref.current;
    if (d && !d.matches(":modal")) {
      // the server sent it open (non-modal): reopen as modal so the page behind is inert
      if (d.open) d.close();
      d.showModal();
    }
    return () => document.getElementById(returnFocusId)?.focus();
  }, [returnFocusId]);
  return (
    <dialog
      ref={ref}
      open
      aria-labelledby={titleId}
      data-testid={testId}
      className={`z-50 max-h-[90vh] overflow-y-auto rounded-lg border border-slate-300 bg-white p-0 shadow-xl ${wide ? "w-[min(64rem,95vw)]" : "w-[min(32rem,95vw)]"}`}
      onKeyDown={trapTab}
      onCancel={(e) => {
        e.preventDefault();
        navigate(closeHref, { preventScrollReset: true, replace: true });
      }}
    >
      <div className="space-y-3 p-4">
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        {children}
      </div>
    </dialog>
  );
}
