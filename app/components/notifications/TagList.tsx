import { useId, useRef, useState, type KeyboardEvent } from "react";

/**
 * The dynamic tags a template may use (spec 2 section 9). With JavaScript, a toolbar of buttons
 * that insert a tag at the editor's cursor: one tab stop, the arrow keys (Home, End) choose, Enter
 * or Space inserts. Without it, the list to type from.
 */
export function TagList({ tags, enhanced, onInsert }: { tags: readonly string[]; enhanced: boolean; onInsert: (tag: string) => void }) {
  const id = useId();
  const [active, setActive] = useState(0);
  const buttons = useRef<Array<HTMLButtonElement | null>>([]);

  if (!enhanced) {
    return (
      <div>
        <p id={`${id}-label`} className="label">
          Tags (type them as shown)
        </p>
        <ul aria-labelledby={`${id}-label`} className="flex flex-wrap gap-2 text-xs">
          {tags.map((tag) => (
            <li key={tag}>
              <code className="rounded bg-slate-100 px-1.5 py-0.5">{`{{ ${tag} }}`}</code>
            </li>
          ))}
        </ul>
      </div>
    );
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const to = { ArrowRight: active + 1, ArrowDown: active + 1, ArrowLeft: active - 1, ArrowUp: active - 1, Home: 0, End: tags.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = (to + tags.length) % tags.length;
    setActive(next);
    buttons.current[next]?.focus();
  };

  return (
    <div>
      <p id={`${id}-label`} className="label">
        Insert a tag
      </p>
      <p id={`${id}-help`} className="mb-1 text-xs text-slate-600">
        At the cursor in the template: arrow keys choose a tag, Enter inserts it.
      </p>
      <div role="toolbar" aria-labelledby={`${id}-label`} aria-describedby={`${id}-help`} className="flex flex-wrap gap-1" onKeyDown={onKeyDown}>
        {tags.map((tag, i) => (
          <button
            key={tag}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            tabIndex={i === active ? 0 : -1}
            onFocus={() => setActive(i)}
            onClick={() => onInsert(tag)}
            className="rounded border border-slate-300 bg-white px-1.5 py-0.5 font-mono text-xs text-slate-800 hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-500"
          >
            {`{{ ${tag} }}`}
          </button>
        ))}
      </div>
    </div>
  );
}
