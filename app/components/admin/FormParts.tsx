import { Link } from "@remix-run/react";

/** A field's server errors under it, with the id its input's aria-describedby names (`${field}-error`). */
export function FieldError({ field, errors }: { field: string; errors?: Record<string, string[]> }) {
  const messages = errors?.[field];
  return messages?.length ? (
    <p id={`${field}-error`} className="field-error">
      {messages.join(" ")}
    </p>
  ) : null;
}


/** An editor's buttons (spec 2: Save, New, Back): Save submits the form; New and Back are links. */
export function SaveNewBack({ busy, newTo, backTo, backLabel = "Back" }: { busy: boolean; newTo: string; backTo: string; backLabel?: string }) {
  return (
    <div className="flex flex-wrap gap-2">
      <button type="submit" className="btn-primary" disabled={busy}>
        Save
      </button>
      <Link to={newTo} className="btn">
        New
      </Link>
      <Link to={backTo} className="btn">
        {backLabel}
      </Link>
    </div>
  );
}
