/** A fieldset of labelled checkboxes (carrier and service options), each with its server errors linked. */
import { FieldError, fieldAria } from "~/components/Field";

export function FlagFields<F extends string>({
  legend,
  flags,
  labels,
  checked,
  errors,
  hints = {},
}: {
  legend: string;
  flags: readonly F[];
  labels: Record<F, string>;
  checked: (f: F) => boolean;
  errors: Record<string, string[] | undefined>;
  hints?: Partial<Record<F, string>>;
}) {
  return (
    <fieldset className="grid gap-1 sm:grid-cols-2">
      <legend className="font-semibold">{legend}</legend>
      {flags.map((f) => (
        <div key={f}>
          <div className="flex items-center gap-2">
            <input id={f} name={f} type="checkbox" defaultChecked={checked(f)} {...fieldAria(errors, f, Boolean(hints[f]))} />
            <label htmlFor={f}>{labels[f]}</label>
          </div>
          {hints[f] ? (
            <p id={`${f}-hint`} className="ml-6 text-xs text-slate-600">
              {hints[f]}
            </p>
          ) : null}
          <FieldError id={`${f}-error`} errors={errors[f]} />
        </div>
      ))}
    </fieldset>
  );
}
