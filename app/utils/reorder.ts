/** Reordering a list by drag or Move up / Move down (item types, shipping rules). Pure. */

/** The list with the element at `from` moved to `to`. */
export function move<T>(list: T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}

/** Without JavaScript: the ids with `id` one place up or down (unchanged at either end); null when `id` is not listed. */
export function moveOne(ids: number[], id: number, direction: "up" | "down"): number[] | null {
  const at = ids.indexOf(id);
  if (at < 0) return null;
  const to = at + (direction === "up" ? -1 : 1);
  return to >= 0 && to < ids.length ? move(ids, at, to) : ids;
}
