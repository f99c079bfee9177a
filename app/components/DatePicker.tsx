import { useCallback, useEffect, useId, useRef, useState } from "react";
import { dateFormatOf, displayDateToIso, formatDisplayDate } from "~/modules/calendar/display-date";
import { clampToWindow } from "~/modules/calendar/month-grid";
import { CalendarDialog } from "./CalendarDialog";

/**
 * A date field in the site's format (DD/MM/YYYY, MM/DD/YYYY for the United States; 10
 * characters). The text box is the field: it posts what is typed and the server reads it with
 * the site's country, so it works without JavaScript. With JavaScript a button beside it (or
 * Alt+Down in the box) opens a calendar; a pick writes the date in the site's format.
 */
export function DatePicker({
  id,
  name,
  label,
  country,
  today,
  value,
  defaultValue,
  onChange,
  notBefore,
  required,
  invalid,
  describedBy,
  className,
  buttonLabel,
}: {
  id: string;
  name: string;
  /** the visible label (the button is "Choose" plus it) */
  label: string;
  /** the site's country: its date format and first day of the week */
  country: string;
  /** today at the site (YYYY-MM-DD): where the calendar opens without a date */
  today: string;
  /** controlled: the text shown; else `defaultValue` starts it */
  value?: string;
  defaultValue?: string;
  onChange?: (text: string) => void;
  /** days before this (YYYY-MM-DD) cannot be picked: a despatch date's today */
  notBefore?: string | null;
  required?: boolean;
  invalid?: boolean;
  describedBy?: string;
  className?: string;
  /** the calendar button's name, when "Choose" plus the label does not read well */
  buttonLabel?: string;
}) {
  const [own, setOwn] = useState(defaultValue ?? "");
  const text = value ?? own;
  const [open, setOpen] = useState(false);
  const [hydrated, setHydrated] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const hintId = useId();
  const format = dateFormatOf(country);
  useEffect(() => setHydrated(true), []);

  const set = (next: string) => {
    if (value === undefined) setOwn(next);
    onChange?.(next);
  };
  const close = useCallback((returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus) button.current?.focus();
  }, []);

  const selected = displayDateToIso(text, country);
  const start = clampToWindow(selected ?? (notBefore && notBefore > today ? notBefore : today));

  return (
    <div className={`relative ${className ?? ""}`}>
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="flex gap-1">
        <input
          id={id}
          name={name}
          className="input"
          maxLength={10}
          inputMode="numeric"
          autoComplete="off"
          placeholder={format}
          value={text}
          required={required}
          onChange={(e) => set(e.target.value)}
          onKeyDown={(e) => {
            if (hydrated && e.altKey && e.key === "ArrowDown") {
              e.preventDefault();
              setOpen(true);
            }
          }}
          aria-invalid={invalid || undefined}
          aria-describedby={[hintId, describedBy].filter(Boolean).join(" ")}
        />
        {hydrated ? (
          <button ref={button} type="button" className="btn px-2" aria-haspopup="dialog" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
            <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 fill-current">
              <path d="M6 2a1 1 0 0 1 1 1v1h6V3a1 1 0 1 1 2 0v1h1a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h1V3a1 1 0 0 1 1-1Zm10 7H4v7h12V9Z" />
            </svg>
            <span className="sr-only">{buttonLabel ?? `Choose ${label.toLowerCase()}`}</span>
          </button>
        ) : null}
      </div>
      <span id={hintId} className="sr-only">
        {format}
      </span>
      {open ? (
        <CalendarDialog
          country={country}
          start={start}
          selected={selected}
          today={today}
          notBefore={notBefore}
          onClose={close}
          onPick={(iso) => {
            set(formatDisplayDate(iso, country));
            close(true);
          }}
        />
      ) : null}
    </div>
  );
}
