import { useEffect, useState } from "react";
import { FieldError, fieldAria } from "~/components/Field";
import { COST_CATEGORIES } from "../../../db/schema/finance";
import { costCategoryLabel } from "~/modules/invoices/schemas";
import { COMPARE_LABELS, COMPARES } from "~/modules/invoices/templates/conditions";
import { costRows } from "~/modules/invoices/templates/editor-text";
import { INVOICE_FIELDS, MAPPABLE_FIELDS, unmappedMessage } from "~/modules/invoices/templates/map-fields";
import { actionLabel, CHOICE_LABELS } from "~/modules/invoices/templates/step-labels";
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
/** option kinds written one a line */
const LINES = new Set(["pairs", "operands", "cells"]);
/** blank cost rows under the filled ones; any answer of the form brings them again */
const BLANK_COST_ROWS = 3;

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
                {actionLabel(a)}
              </option>
            ))}
          </select>
        </div>
        {spec.fields.map((f) => {
          const name = optionName(index, f.key);
          const shown = !hydrated || f.actions.includes(action);
          const hint = [f.hint, hydrated ? "" : `(${f.actions.map(actionLabel).join(", ")})`].filter(Boolean).join(" ");
          const common = { id: name, name, defaultValue: step.values[f.key] ?? "", className: "input", ...fieldAria(errors, name, Boolean(hint)) };
          return (
            <div key={f.key} hidden={!shown} className={LINES.has(f.kind) ? "sm:col-span-2" : undefined}>
              <label htmlFor={name} className="label">
                {f.label}
              </label>
              {LINES.has(f.kind) ? (
                <textarea {...common} rows={3} />
              ) : f.kind === "choice" ? (
                <select {...common} defaultValue={step.values[f.key] ?? f.choices?.[0]}>
                  {f.choices?.map((c) => (
                    <option key={c} value={c}>
                      {CHOICE_LABELS[c] ?? c}
                    </option>
                  ))}
                </select>
              ) : (
                <input {...common} {...(f.kind === "column" ? { list: "columns-seen" } : {})} {...(f.kind === "int" ? { inputMode: "numeric" as const } : {})} />
              )}
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
        {step.type} {step.values.action ? actionLabel(step.values.action) : ""} (removed when you save)
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
 * and a list of costs: category, column, description and an optional condition, several per
 * category (they add up), with blank rows to fill; More cost rows brings more.
 */
export function MapFieldsEditor({ step, index, number, errors }: { step: EditorStep; index: number; number: number; errors: Errors }) {
  const headingId = `step-${index}-heading`;
  const mappingErrors = errors[optionName(index, "mappings")] ?? errors[stepName(index, "options")] ?? [];
  // a required field left unmapped is told beside that field's cell (issue 31 #4); the rest above the table
  const unmapped = (f: string) => mappingErrors.filter((m) => m === unmappedMessage(f));
  const whole = mappingErrors.filter((m) => !MAPPABLE_FIELDS.some((f) => m === unmappedMessage(f)));
  const cellErrors: Errors = { ...errors, ...Object.fromEntries(MAPPABLE_FIELDS.filter((f) => unmapped(f).length).map((f) => [optionName(index, `map.${f}`), [...(errors[optionName(index, `map.${f}`)] ?? []), ...unmapped(f)]])) };
  const costErrors = errors[optionName(index, "costs")];
  const rows = costRows(step.values).length + BLANK_COST_ROWS;
  const cell = (key: string, label: string, list = true) => {
    const name = optionName(index, key);
    return (
      <td>
        <input id={name} name={name} aria-label={label} className="input" defaultValue={step.values[key] ?? ""} {...(list ? { list: "columns-seen" } : {})} {...fieldAria(cellErrors, name)} />
        <FieldError id={`${name}-error`} errors={cellErrors[name]} />
      </td>
    );
  };
  const choice = (key: string, label: string, options: [string, string][]) => {
    const name = optionName(index, key);
    return (
      <td>
        <select id={name} name={name} aria-label={label} className="input" defaultValue={step.values[key] ?? options[0]![0]} {...fieldAria(errors, name)}>
          {options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
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
      {whole.length ? <FieldError id={`${optionName(index, "mappings")}-error`} errors={whole} /> : null}
      <p className="text-xs text-slate-600">The column (letter or name) each field is read from; leave blank what the file lacks. Invoice number and consignment number are required.</p>
      <table className="w-full text-sm" aria-describedby={whole.length ? `${optionName(index, "mappings")}-error` : undefined}>
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
            <th scope="col">Cost</th>
            <th scope="col">Category</th>
            <th scope="col">Column</th>
            <th scope="col">Description</th>
            <th scope="col">Only when column</th>
            <th scope="col">Comparison</th>
            <th scope="col">Number or pattern</th>
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: rows }, (_, n) => (
            <tr key={n}>
              <th scope="row" className="text-left font-normal">
                {n + 1}
              </th>
              {choice(`cost.${n}.category`, `Cost ${n + 1} category`, [["", "None"], ...COST_CATEGORIES.map((c): [string, string] => [c, costCategoryLabel(c)])])}
              {cell(`cost.${n}.column`, `Cost ${n + 1} column`)}
              {cell(`cost.${n}.description`, `Cost ${n + 1} description`, false)}
              {cell(`cost.${n}.when.column`, `Cost ${n + 1}: only when column`)}
              {choice(`cost.${n}.when.compare`, `Cost ${n + 1}: comparison`, COMPARES.map((c) => [c, COMPARE_LABELS[c]]))}
              {cell(`cost.${n}.when.value`, `Cost ${n + 1}: number or pattern`, false)}
            </tr>
          ))}
        </tbody>
      </table>
      {costErrors ? <FieldError id={`${optionName(index, "costs")}-error`} errors={costErrors} /> : null}
      <p className="text-xs text-slate-600">
        Costs of one category add up to one cost line. With a condition a cost counts only on rows where it holds (a blank cell holds no number): for a credit line, the fuel column to Fuel levy when Total is at least 0 and to Credit adjustment when Total is less than 0.
      </p>
      <button type="submit" name="intent" value="more" className="btn">
        More cost rows
      </button>
      <RunBox step={step} index={index} />
    </li>
  );
}
