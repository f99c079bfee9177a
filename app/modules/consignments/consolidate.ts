/**
 * Consolidate (spec 1 section 2): the checked item lines become one line of a chosen item type,
 * e.g. cartons stacked on a pallet. The new line is one unit of that type, takes the type's
 * dimensions (else the largest of the lines), carries the lines' total weight and every
 * dangerous goods line, and is marked consolidated.
 */
export interface ConsolidatableLine {
  quantity: string;
  item_type_id: string;
  reference: string;
  length: string;
  width: string;
  height: string;
  weight_in_uom: string;
  dangerous_goods: boolean;
  consolidated?: boolean;
  dg: unknown[];
}

export interface ConsolidationType {
  id: number;
  length: number | null;
  width: number | null;
  height: number | null;
}

const max = (lines: ConsolidatableLine[], f: "length" | "width" | "height") => Math.max(0, ...lines.map((l) => Number(l[f]) || 0));

export function consolidate<L extends ConsolidatableLine>(lines: L[], checked: number[], type: ConsolidationType, make: (fields: ConsolidatableLine) => L): L[] {
  const picked = lines.filter((_, i) => checked.includes(i));
  if (picked.length < 2) return lines;
  const weight = Math.round(picked.reduce((n, l) => n + (Number(l.weight_in_uom) || 0), 0) * 1000) / 1000;
  const merged = make({
    quantity: "1",
    item_type_id: String(type.id),
    reference: [...new Set(picked.map((l) => l.reference.trim()).filter(Boolean))].join(", ").slice(0, 255),
    length: String(type.length ?? max(picked, "length")),
    width: String(type.width ?? max(picked, "width")),
    height: String(type.height ?? max(picked, "height")),
    weight_in_uom: String(weight),
    dangerous_goods: picked.some((l) => l.dangerous_goods),
    consolidated: true,
    dg: picked.flatMap((l) => (l.dangerous_goods ? l.dg : [])),
  });
  const first = Math.min(...checked);
  // the consolidated line takes the place of the first checked one
  return lines.flatMap((l, i) => (i === first ? [merged] : checked.includes(i) ? [] : [l]));
}
