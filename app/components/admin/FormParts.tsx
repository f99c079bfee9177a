import { Link } from "@remix-run/react";
import { FieldError } from "~/components/Field";

/** A named field's server errors out of the form's error map, with the id its input's aria-describedby names (`${field}-error`). */
export function NamedFieldError({ field, errors }: { field: string; errors?: Record<string, string[]> }) {
  return <FieldError id={`${field}-error`} errors={errors?.[field]} />;
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
