/**
 * The Send invoice modal's selection (spec 3: checkboxes, shift-click selects a range, select all).
 * Pure, so the browser and a unit test share it.
 */

/**
 * The selection after a click on row `index` of `ids`: the row is set to `checked`; with shift
 * held and an earlier click (`anchor`), every row between the two takes the same value.
 */
export function clickSelect(ids: number[], selected: ReadonlySet<number>, index: number, checked: boolean, anchor: number | null, shift: boolean): Set<number> {
  const next = new Set(selected);
  const [from, to] = shift && anchor != null && anchor < ids.length ? [Math.min(anchor, index), Math.max(anchor, index)] : [index, index];
  for (let i = from; i <= to; i++) {
    if (checked) next.add(ids[i]!);
    else next.delete(ids[i]!);
  }
  return next;
}

/** Select all: every row when not all are chosen yet, else none. */
export const toggleAll = (ids: number[], selected: ReadonlySet<number>): Set<number> => (ids.every((id) => selected.has(id)) ? new Set() : new Set(ids));
