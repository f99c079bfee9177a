/**
 * The Invoice Detail modal's cost rows as a form posts them (costs.{n}.id, .category,
 * .description, .amount, .remove), turned into the body PUT /api/reconciliations/{id} takes, so
 * the screen without JavaScript and a scripted caller reach the same checks (checkCostChanges).
 */
export interface CostRow {
  id?: string;
  category: string;
  description: string;
  amount: string;
}

/**
 * Rows in the order of their index. A row ticked for removal is left out (so removed); a new row
 * left wholly blank is no line at all (the modal always offers one blank row to fill).
 */
export function costsFromForm(form: FormData): CostRow[] {
  const rows = new Map<number, Record<string, string>>();
  for (const [key, value] of form.entries()) {
    const m = /^costs\.(\d{1,3})\.(id|category|description|amount|remove)$/.exec(key);
    if (!m || typeof value !== "string") continue;
    const n = Number(m[1]);
    const row = rows.get(n) ?? {};
    row[m[2]!] = value;
    rows.set(n, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, r]) => r)
    .filter((r) => !r.remove)
    .filter((r) => r.id || (r.category ?? "") !== "" || (r.description ?? "").trim() !== "" || (r.amount ?? "").trim() !== "")
    .map((r) => ({ ...(r.id ? { id: r.id } : {}), category: r.category ?? "", description: r.description ?? "", amount: r.amount ?? "" }));
}
