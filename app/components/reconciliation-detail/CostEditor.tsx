import { Form, Link } from "@remix-run/react";
import { useState } from "react";
import { FieldError, FormErrors } from "~/components/Field";
import { COST_CATEGORIES, costCategoryLabel } from "~/modules/invoices/schemas";
import { NOTE_MAX } from "~/modules/reconciliation/states";

type Cost = { id: number; category: string; description: string; amount: number };

/**
 * The Invoice Detail modal's reconciliation variant: the carrier line's costs edited in place,
 * each row removable, blank rows to add lines (one without JavaScript, more with "Add cost"),
 * and the cost note the save needs (max 255). Posts to the page's action (intent save_costs).
 */
export function CostEditor({ costs, version, errors, closeHref, canEdit }: { costs: Cost[]; version: number; errors: Record<string, string[]>; closeHref: string; canEdit: boolean }) {
  const [extra, setExtra] = useState(1);
  const costError = errors.costs;
  const noteError = errors.cost_note;
  const rows: Array<Cost | null> = [...costs, ...Array.from({ length: canEdit ? extra : 0 }, () => null)];
  return (
    <Form method="post" replace preventScrollReset data-testid="cost-editor" aria-label="Costs of this line">
      <input type="hidden" name="version" value={version} />
      <h3 className="mt-4 font-semibold">Costs</h3>
      <FormErrors id="costs-error" errors={costError} />
      <fieldset disabled={!canEdit}>
        <legend className="sr-only">Cost lines</legend>
        <table className="w-full text-sm">
          <caption className="sr-only">Costs of this line: change a row, tick Remove, or fill a new row</caption>
          <thead className="text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="py-1">Category</th>
              <th className="py-1">Description</th>
              <th className="py-1">Amount</th>
              <th className="py-1">Remove</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c, n) => {
              const label = c ? `${costCategoryLabel(c.category)} ${c.description}` : `new cost ${n - costs.length + 1}`;
              return (
                <tr key={c ? `c${c.id}` : `n${n}`} data-testid={c ? "cost-row" : "new-cost-row"}>
                  <td className="py-1 pr-2">
                    {c ? <input type="hidden" name={`costs.${n}.id`} value={c.id} /> : null}
                    <select name={`costs.${n}.category`} defaultValue={c?.category ?? ""} className="input" aria-label={`Category of ${label}`} aria-describedby={costError ? "costs-error" : undefined}>
                      <option value="">Choose…</option>
                      {COST_CATEGORIES.map((k) => (
                        <option key={k} value={k}>
                          {costCategoryLabel(k)}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td className="py-1 pr-2">
                    <input name={`costs.${n}.description`} defaultValue={c?.description ?? ""} maxLength={255} className="input" aria-label={`Description of ${label}`} />
                  </td>
                  <td className="py-1 pr-2">
                    <input name={`costs.${n}.amount`} defaultValue={c ? c.amount.toFixed(2) : ""} inputMode="decimal" className="input w-28 text-right tabular-nums" aria-label={`Amount of ${label}`} />
                  </td>
                  <td className="py-1">{c ? <input type="checkbox" name={`costs.${n}.remove`} aria-label={`Remove ${label}`} /> : null}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {canEdit ? (
          <button type="button" className="btn mt-2" onClick={() => setExtra((k) => k + 1)}>
            Add cost
          </button>
        ) : null}
        <div className="mt-3">
          <label htmlFor="cost_note" className="label">
            Cost note
          </label>
          <textarea id="cost_note" name="cost_note" maxLength={NOTE_MAX} rows={2} className="input" aria-invalid={noteError ? true : undefined} aria-describedby={noteError ? "cost_note-error" : undefined} />
          <FieldError id="cost_note-error" errors={noteError} />
        </div>
      </fieldset>
      <div className="mt-4 flex justify-end gap-2">
        <Link to={closeHref} className="btn" replace preventScrollReset>
          Close
        </Link>
        {canEdit ? (
          <button type="submit" name="intent" value="save_costs" className="btn-primary">
            Save
          </button>
        ) : null}
      </div>
    </Form>
  );
}
