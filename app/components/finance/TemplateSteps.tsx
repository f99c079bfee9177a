import { useEffect, useState } from "react";
import { FieldError, fieldAria } from "~/components/Field";
import { COST_CATEGORIES } from "../../../db/schema/finance";
import { costLabel, INVOICE_FIELDS, MAPPABLE_FIELDS } from "~/modules/invoices/templates/map-fields";
import { isEditableType, optionName, STEP_FORMS, stepName, type EditorStep } from "~/modules/invoices/templates/editor-form";

type Errors = Record<string, string[] | undefined>;

/** The hidden controls that carry a step through a round trip (and, removed, to the save as _destroy). */
function StepHidden({ step, index, withValues }: { step: EditorStep; index: number; withValues: boolean }) {
  return (
    <>
      <input type="hidden" name={stepName(index, "type")} value={step.type} />
      {step.id ? <input type="hidden" name={stepName(index, "id")} value={step.id} /> : null}
      {step.destroyed ? <input type="hidden" name={stepName(index, "_destroy")} value="1" /> : null}
      {withValues ? Object.entries(step.values).map(([k, v]) => <input key={k} type="hidden" name={optionName(index, k)} value={v} />) : null}
    </>
  );
}

function RunBox({ step, index }: { step: EditorStep; index: number }) {
  return (
    <label className="flex items-center gap-1 text-sm">
      <input type="checkbox" name={stepName(index, "run")} value="1" defaultChecked={step.run} />
      Run in the test run
    </label>
  );
}

const hintId = (name: string) => `${name}-hint`;

/**
 * One step that is not MapFields: its action and the fields of its type. Without JavaScript
 * every field of the type is shown (each says which actions read it); once hydrated only the
 * chosen action's fields are.
 */
export function StepEditor({ step, index, number, errors, canEdit, first, last, focus }: { step: EditorStep; index: number; number: number; errors: Errors; canEdit: boolean; first: boolean; last: boolean; focus: string | null }) {
  const [action, setAction] = useState(step.values.action ?? "");
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  if (!isEditableType(step.type)) return null;
  const spec = STEP_FORMS[step.type];
  const headingId = `step-${index}-heading`;
  const stepErrors = errors[stepName(index, "options")];
  const button = (id: string, intent: string, text: string, label: string, disabled = false) => (
    <button type="submit" id={id} name="intent" value={intent} className="btn" aria-label={label} disabled={disabled} autoFocus={focus === id}>
      {text}
    </button>
  );
  return (
    <li className="card space-y-2" aria-labelledby={headingId} data-testid={`step-${number}`}>
      <StepHidden step={step} index={index} withValues={false} />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="font-medium">
          Step {number}: {step.type}
        </h3>
        {canEdit ? (
          <div className="flex gap-1">
            {button(`step-${index}-up`, `up:${index}`, "Move up", `Move step ${number} up`, first)}
            {button(`step-${index}-down`, `down:${index}`, "Move down", `Move step ${number} down`, last)}
            {button(`step-${index}-remove`, `remove:${index}`, "Remove", `Remove step ${number}`)}
          </div>
        ) : null}
      </div>
      {stepErrors ? <FieldError id={`${stepName(index, "options")}-error`} errors={stepErrors} /> : null}
      <div className="grid gap-2 sm:grid-cols-3">
        <div>
          <label htmlFor={optionName(index, "action")} className="label">
            {spec.actionLabel}
          </label>
          <select id={optionName(index, "action")} name={optionName(index, "action")} className="input" defaultValue={action} onChange={(e) => setAction(e.target.value)} {...fieldAria(errors, optionName(index, "action"))}>
            {spec.actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </div>
        {spec.fields.map((f) => {
          const name = optionName(index, f.key);
          const shown = !hydrated || f.actions.includes(action);
          const hint = [f.hint, hydrated ? "" : `(${f.actions.join(", ")})`].filter(Boolean).join(" ");
          const common = { id: name, name, defaultValue: step.values[f.key] ?? "", className: "input", ...fieldAria(errors, name, Boolean(hint)) };
          return (
            <div key={f.key} hidden={!shown} className={f.kind === "pairs" ? "sm:col-span-2" : undefined}>
              <label htmlFor={name} className="label">
                {f.label}
              </label>
              {f.kind === "pairs" ? <textarea {...common} rows={3} /> : <input {...common} {...(f.kind === "column" ? { list: "columns-seen" } : {})} {...(f.kind === "int" ? { inputMode: "numeric" as const } : {})} />}
              {hint ? (
                <p id={hintId(name)} className="mt-1 text-xs text-slate-600">
                  {hint}
                </p>
              ) : null}
              <FieldError id={`${name}-error`} errors={errors[name]} />
            </div>
          );
        })}
      </div>
      <RunBox step={step} index={index} />
    </li>
  );
}

/** A removed step: saved as _destroy unless brought back; its values ride along hidden. */
export function RemovedStep({ step, index, canEdit, focus }: { step: EditorStep; index: number; canEdit: boolean; focus: string | null }) {
  const id = `step-${index}-restore`;
  return (
    <li className="card flex items-center justify-between gap-2 text-sm text-slate-600">
      <StepHidden step={step} index={index} withValues />
      <span>
        {step.type} {step.values.action ?? ""} (removed when you save)
      </span>
      {canEdit ? (
        <button type="submit" id={id} name="intent" value={`restore:${index}`} className="btn" autoFocus={focus === id}>
          Undo remove
        </button>
      ) : null}
    </li>
  );
}

/**
 * MapFields, always last and never moved: a fixed table of every target field with its column,
 * and one row per cost category with its column and description.
 */
export function MapFieldsEditor({ step, index, number, errors }: { step: EditorStep; index: number; number: number; errors: Errors }) {
  const headingId = `step-${index}-heading`;
  const whole = errors[optionName(index, "mappings")] ?? errors[stepName(index, "options")];
  const cell = (key: string, label: string, list = true) => {
    const name = optionName(index, key);
    return (
      <td>
        <input id={name} name={name} aria-label={label} className="input" defaultValue={step.values[key] ?? ""} {...(list ? { list: "columns-seen" } : {})} {...fieldAria(errors, name)} />
        <FieldError id={`${name}-error`} errors={errors[name]} />
      </td>
    );
  };
  return (
    <li className="card space-y-2" aria-labelledby={headingId} data-testid="step-map-fields">
      <StepHidden step={step} index={index} withValues={false} />
      <h3 id={headingId} className="font-medium">
        Step {number}: MapFields (always last)
      </h3>
      {whole ? <FieldError id={`${optionName(index, "mappings")}-error`} errors={whole} /> : null}
      <p className="text-xs text-slate-600">The column (letter or name) each field is read from; leave blank what the file lacks. Invoice number and consignment number are required.</p>
      <table className="w-full text-sm">
        <caption className="text-left font-medium">Fields</caption>
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Column</th>
          </tr>
        </thead>
        <tbody>
          {MAPPABLE_FIELDS.map((f) => (
            <tr key={f}>
              <th scope="row" className="text-left font-normal">
                {f}
                {(INVOICE_FIELDS as readonly string[]).includes(f) ? " (invoice)" : ""}
              </th>
              {cell(`map.${f}`, `Column for ${f}`)}
            </tr>
          ))}
        </tbody>
      </table>
      <table className="w-full text-sm">
        <caption className="text-left font-medium">Costs</caption>
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th scope="col">Category</th>
            <th scope="col">Column</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {COST_CATEGORIES.map((c) => (
            <tr key={c}>
              <th scope="row" className="text-left font-normal">
                {costLabel(c)}
              </th>
              {cell(`cost.${c}.column`, `Column for ${costLabel(c)}`)}
              {cell(`cost.${c}.description`, `Description for ${costLabel(c)}`, false)}
            </tr>
          ))}
        </tbody>
      </table>
      <RunBox step={step} index={index} />
    </li>
  );
}
