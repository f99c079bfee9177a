import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { clampToWindow, dayLabel, monthTitle, monthWeeks, moveByKey, plusMonths, weekStartOf, weekdayHeadings } from "~/modules/calendar/month-grid";

/**
 * The date picker's calendar (the APG date picker dialog pattern): a month grid where the arrow
 * keys move a day or a week, Page Up/Down a month (Shift: a year), Home/End to the week's ends,
 * Enter or Space picks, Escape closes. Tab stays inside the dialog. Days before `notBefore` are
 * shown but cannot be picked.
 */
export function CalendarDialog({
  country,
  start,
  selected,
  today,
  notBefore,
  onPick,
  onClose,
}: {
  country: string;
  /** the day focused when it opens */
  start: string;
  selected: string | null;
  today: string;
  notBefore?: string | null;
  onPick: (iso: string) => void;
  /** closed without a pick; `returnFocus` false when the user clicked elsewhere */
  onClose: (returnFocus: boolean) => void;
}) {
  const [focused, setFocused] = useState(start);
  // the grid's keys (and opening) move the focus with the day; the month buttons keep it
  const follow = useRef(true);
  const dialog = useRef<HTMLDivElement>(null);
  const grid = useRef<HTMLTableElement>(null);
  const titleId = useId();
  const weekStart = weekStartOf(country);
  const blocked = (iso: string) => Boolean(notBefore && iso < notBefore);

  // the focused day takes the focus when the grid's keys moved it (and on opening)
  useEffect(() => {
    if (!follow.current) return;
    follow.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`button[data-date="${focused}"]`)?.focus();
  }, [focused]);

  // a click outside closes it, leaving the focus where the click put it
  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      if (dialog.current && !dialog.current.parentElement?.contains(e.target as Node)) onClose(false);
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [onClose]);

  const pick = (iso: string) => {
    if (!blocked(iso)) onPick(iso);
  };

  const onGridKey = (e: KeyboardEvent<HTMLTableElement>) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      pick(focused);
      return;
    }
    const next = moveByKey(focused, e.key, e.shiftKey, weekStart);
    if (next) {
      e.preventDefault();
      follow.current = true;
      setFocused(next);
    }
  };

  // Escape closes; Tab cycles through the dialog's controls (the grid is one stop: its focused day)
  const onDialogKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onClose(true);
      return;
    }
    if (e.key !== "Tab" || !dialog.current) return;
    const stops = [...dialog.current.querySelectorAll<HTMLElement>("button:not([tabindex='-1'])")];
    const first = stops[0];
    const last = stops[stops.length - 1];
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last?.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first?.focus();
    }
  };

  const monthButton = (months: number, text: string, glyph: string) => (
    <button type="button" className="btn px-2 py-0.5" onClick={() => setFocused(clampToWindow(plusMonths(focused, months)))}>
      <span aria-hidden="true">{glyph}</span>
      <span className="sr-only">{text}</span>
    </button>
  );

  return (
    // Escape and Tab are handled for everything in the dialog
    <div
      ref={dialog}
      role="dialog"
      aria-modal="true"
      aria-label="Choose date"
      className="absolute left-0 top-full z-50 mt-1 w-72 rounded-lg border border-slate-300 bg-white p-3 text-sm shadow-lg"
      onKeyDown={onDialogKey}
      data-testid="calendar"
    >
      <div className="mb-2 flex items-center justify-between gap-2">
        {monthButton(-1, "Previous month", "‹")}
        <h2 id={titleId} className="font-semibold" aria-live="polite">
          {monthTitle(focused)}
        </h2>
        {monthButton(1, "Next month", "›")}
      </div>
      <table ref={grid} role="grid" aria-labelledby={titleId} className="w-full border-collapse text-center" onKeyDown={onGridKey}>
        <thead>
          <tr>
            {weekdayHeadings(weekStart).map((d) => (
              <th key={d.name} scope="col" abbr={d.name} className="py-1 text-xs font-medium text-slate-500">
                {d.short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(focused, weekStart).map((week, w) => (
            <tr key={w}>
              {week.map((iso, i) =>
                iso ? (
                  <td key={iso} aria-selected={iso === selected} className="p-0.5">
                    <button
                      type="button"
                      data-date={iso}
                      tabIndex={iso === focused ? 0 : -1}
                      aria-label={dayLabel(iso, country)}
                      aria-disabled={blocked(iso) || undefined}
                      aria-current={iso === today ? "date" : undefined}
                      onClick={() => pick(iso)}
                      className={`h-8 w-8 rounded tabular-nums focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500 ${
                        iso === selected ? "bg-sky-700 text-white" : blocked(iso) ? "cursor-not-allowed text-slate-400 line-through" : "hover:bg-sky-50"
                      } ${iso === today && iso !== selected ? "font-bold text-sky-800" : ""}`}
                    >
                      {Number(iso.slice(8))}
                    </button>
                  </td>
                ) : (
                  <td key={`blank-${i}`} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="mt-2 flex justify-end">
        <button type="button" className="btn px-2 py-0.5" onClick={() => onClose(true)}>
          Close
        </button>
      </div>
    </div>
  );
}
