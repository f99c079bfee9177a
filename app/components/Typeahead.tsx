import { useEffect, useId, useRef, useState, type InputHTMLAttributes, type ReactNode } from "react";

/** Typeahead timing of spec 1 sections 5 and 9: from 3 characters, 500 ms after the last key. */
export const TYPEAHEAD_MIN = 3;
export const TYPEAHEAD_WAIT_MS = 500;

/**
 * A text input that is an ARIA combobox: after 3 characters and 500 ms it asks `search` for
 * suggestions; Arrow keys move through them, Enter (or Tab) accepts, Escape closes. Without
 * JavaScript it is a plain input that posts what was typed.
 */
export function Typeahead<T>({
  value,
  onChange,
  search,
  render,
  onPick,
  label,
  inputClassName = "input",
  testId,
  failureText,
  listClassName = "w-full min-w-64",
  ...rest
}: {
  value: string;
  onChange: (text: string) => void;
  search: (query: string, signal: AbortSignal) => Promise<T[]>;
  render: (item: T) => ReactNode;
  onPick: (item: T) => void;
  label?: string;
  inputClassName?: string;
  testId?: string;
  /** when given, a failed search opens the list with this message (else a failure shows nothing) */
  failureText?: (error: unknown) => string;
  listClassName?: string;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange">) {
  const listId = useId();
  const [items, setItems] = useState<T[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [query, setQuery] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const searchRef = useRef(search);
  searchRef.current = search;
  const failureRef = useRef(failureText);
  failureRef.current = failureText;
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (query == null || query.trim().length < TYPEAHEAD_MIN) {
      setItems([]);
      setOpen(false);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      searchRef
        .current(query.trim(), controller.signal)
        .then((found) => {
          // results for a field the user has left must not open over the next one
          if (controller.signal.aborted || document.activeElement !== inputRef.current) return;
          setFailure(null);
          setItems(found);
          setActive(found.length ? 0 : -1);
          setOpen(true);
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted || !failureRef.current || document.activeElement !== inputRef.current) return;
          setFailure(failureRef.current(error));
          setItems([]);
          setActive(-1);
          setOpen(true);
        });
    }, TYPEAHEAD_WAIT_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  const pick = (item: T) => {
    onPick(item);
    setOpen(false);
    setQuery(null);
  };

  return (
    <div className="relative">
      <input
        {...rest}
        ref={inputRef}
        role="combobox"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-label={label ?? rest["aria-label"]}
        autoComplete="off"
        className={inputClassName}
        value={value}
        data-testid={testId}
        onChange={(e) => {
          onChange(e.target.value);
          setQuery(e.target.value);
        }}
        onBlur={(e) => {
          // leaving cancels the pending wait and any search in flight (the effect's cleanup)
          setQuery(null);
          setOpen(false);
          rest.onBlur?.(e);
        }}
        onKeyDown={(e) => {
          if (open && items.length) {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              setActive((a) => (a + 1) % items.length);
              return;
            }
            if (e.key === "ArrowUp") {
              e.preventDefault();
              setActive((a) => (a <= 0 ? items.length - 1 : a - 1));
              return;
            }
            if ((e.key === "Enter" || e.key === "Tab") && active >= 0) {
              if (e.key === "Enter") e.preventDefault();
              pick(items[active]!);
              return;
            }
          }
          if (e.key === "Escape") {
            // Escape also cancels a search still waiting, so no list opens afterwards
            setQuery(null);
            if (open) {
              e.preventDefault();
              setOpen(false);
              return;
            }
          }
          rest.onKeyDown?.(e);
        }}
      />
      {open ? (
        <ul id={listId} role="listbox" aria-label={label ?? rest["aria-label"]} className={`absolute z-30 mt-1 max-h-72 overflow-auto rounded border border-slate-200 bg-white py-1 text-sm text-slate-900 shadow-lg ${listClassName}`}>
          {failure ? (
            <li className="px-2 py-1 text-red-700" role="option" aria-selected={false} aria-disabled data-testid="typeahead-failure">
              {failure}
            </li>
          ) : items.length === 0 ? (
            <li className="px-2 py-1 text-slate-500" role="option" aria-selected={false} aria-disabled>
              No matches found
            </li>
          ) : (
            items.map((item, i) => (
              <li
                key={i}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={i === active}
                className={`cursor-pointer px-2 py-1 ${i === active ? "bg-sky-100 text-sky-900" : ""}`}
                // mousedown, not click: it must run before the input's blur closes the list
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(item);
                }}
              >
                {render(item)}
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
