/**
 * Item types (issue 16 item 6; spec 2 sections 3, 5 and 9): the one schema the item type screen and
 * /api/customers/{id}/item_types validate with, the rules a saved item type follows (pallet vendor,
 * weight rounded to the increments) and the CSV columns. Pure, so the browser bundle may use it too.
 */
import { z } from "zod";
import { bool, dangerousGoodsLineSchema } from "../consignments/schema";

export const ITEM_TYPE_NAMES = ["Carton", "Pallet", "Skid", "Satchel"] as const;
export type ItemTypeName = (typeof ITEM_TYPE_NAMES)[number];
export const SOMS = ["metric", "imperial"] as const;
/** Spec 2 section 9: pallet vendor 0 Plain, 1 Chep, 2 Loscam (the index is the stored value). */
export const PALLET_VENDORS = ["Plain", "Chep", "Loscam"] as const;
export const DESCRIPTION_MAX = 255;
export const LABELS_MAX = 99;
/** Preselected dangerous goods lines of one item type. */
export const DG_ITEMS_MAX = 20;

export const MESSAGES = {
  saved: "Item type was saved.",
  deleted: "Item type was deleted.",
  notFound: "Item type not found",
  descriptionRequired: "Description is required",
  descriptionTooLong: `Description is too long (at most ${DESCRIPTION_MAX} characters)`,
  type: "Type must be Pallet, Skid, Carton or Satchel",
  som: "Unit of measurement must be metric or imperial",
  palletVendor: "Pallet vendor must be Plain, Chep or Loscam",
  site: "Site must be one of the customer's sites",
  dimension: (label: string) => `${label} must be a number of up to 4 digits (2 decimals)`,
  weight: "Weight must be a number of up to 5 digits (3 decimals)",
  increments: "Increments must be a number above 0, with an optional decimal point (3 decimals)",
  labels: `Label count must be a whole number from 1 to ${LABELS_MAX}`,
  dgItem: "Each dangerous goods item needs a UN number and a proper shipping name",
  ids: "ids must list item types of this customer",
  bulk: "bulk_item_types must list item types of this customer",
} as const;

/** A field a form posts as text and a script may send as a number: trimmed text, "" when absent. */
const loose = z.preprocess((v) => (v == null ? "" : typeof v === "number" ? String(v) : v), z.string()).transform((v) => v.trim());

/** A number as text of up to `digits` whole digits and `decimals` decimals, or null when blank. */
const decimal = (digits: number, decimals: number, message: string) =>
  loose.refine((v) => v === "" || new RegExp(`^\\d{1,${digits}}(\\.\\d{0,${decimals}})?$`).test(v), message).transform((v) => (v === "" ? null : canonical(v)));

/** "5.50" -> "5.5", "007" -> "7", "3." -> "3": the number as it is shown and stored. */
export function canonical(text: string): string {
  const [whole = "0", fraction = ""] = text.split(".");
  const w = whole.replace(/^0+(?=\d)/, "");
  const f = fraction.replace(/0+$/, "");
  return f ? `${w}.${f}` : w;
}

/** The text fields of a dangerous goods line: a line with none of them is a blank row of the form. */
const DG_TEXT = ["un_number", "proper_shipping_name", "technical_name", "hazard_class", "packing_group", "sub_hazard"] as const;
const dgItemSchema = dangerousGoodsLineSchema.extend({ som: z.enum(SOMS).optional().catch(undefined) });

/**
 * The item type's fields, as the screen posts them and a script sends them (snake_case, spec 2
 * section 3). Absent fields take the defaults of a new item type (spec 2 section 5: Carton, 1 label,
 * pallet vendor Plain, metric); the rules below then apply.
 */
export const itemTypeSchema = z
  .object({
    name: loose.transform((v) => v || "Carton").pipe(z.enum(ITEM_TYPE_NAMES, { error: MESSAGES.type })),
    description: loose.pipe(z.string().min(1, MESSAGES.descriptionRequired).max(DESCRIPTION_MAX, MESSAGES.descriptionTooLong)),
    som: loose.transform((v) => v || "metric").pipe(z.enum(SOMS, { error: MESSAGES.som })),
    pallet_vendor: loose.refine((v) => v === "" || /^[0-2]$/.test(v), MESSAGES.palletVendor).transform((v) => Number(v || 0)),
    site_id: loose.refine((v) => v === "" || /^\d{1,9}$/.test(v), MESSAGES.site).transform((v) => (v === "" ? null : Number(v))),
    length: decimal(4, 2, MESSAGES.dimension("Length")),
    width: decimal(4, 2, MESSAGES.dimension("Width")),
    height: decimal(4, 2, MESSAGES.dimension("Height")),
    weight: decimal(5, 3, MESSAGES.weight),
    increments: decimal(5, 3, MESSAGES.increments).refine((v) => v === null || Number(v) > 0, MESSAGES.increments).transform((v) => v ?? "1"),
    labels: loose.refine((v) => v === "" || (/^\d{1,2}$/.test(v) && Number(v) >= 1), MESSAGES.labels).transform((v) => Number(v || 1)),
    has_dangerous_goods: bool,
    manual_handling: bool,
    preselected_dg_items: z.array(dgItemSchema).max(DG_ITEMS_MAX).optional().default([]),
  })
  .transform((v, ctx) => {
    // blank lines of the form are dropped; a line with anything in it needs the two names
    const dg = v.has_dangerous_goods ? v.preselected_dg_items.filter((d) => DG_TEXT.some((k) => d[k])) : [];
    dg.forEach((d, i) => {
      if (!d.un_number || !d.proper_shipping_name) ctx.addIssue({ code: "custom", path: ["preselected_dg_items", i, "un_number"], message: MESSAGES.dgItem });
    });
    const weight = v.weight === null ? null : roundUpToIncrement(v.weight, v.increments);
    if (weight !== null && !/^\d{1,5}(\.\d+)?$/.test(weight)) ctx.addIssue({ code: "custom", path: ["weight"], message: MESSAGES.weight });
    return { ...v, pallet_vendor: vendorFor(v.name, v.pallet_vendor), weight, preselected_dg_items: dg };
  });
export type ItemTypeInput = z.infer<typeof itemTypeSchema>;

/** Spec 2 section 5: the pallet vendor resets to Plain when the name does not contain "pallet". */
export function vendorFor(name: string, vendor: number): number {
  return /pallet/i.test(name) ? vendor : 0;
}

/**
 * Spec 2 section 5 (and spec 1: "rounded up to the item type's increment"): the weight rounded up
 * to the next multiple of the increments, in thousandths so 0.1 steps do not drift.
 */
export function roundUpToIncrement(weight: string, increments: string | null): string {
  const w = Math.round(Number(weight) * 1000);
  const step = Math.round(Number(increments ?? "1") * 1000) || 1000;
  const rounded = Math.ceil(w / step) * step;
  return canonical((rounded / 1000).toFixed(3));
}

/** POST update_sequence_order: the customer's item types in their new order. */
export const sequenceSchema = z.object({
  ids: z.array(z.coerce.number({ error: MESSAGES.ids }).int(MESSAGES.ids).positive(MESSAGES.ids).max(2_147_483_647, MESSAGES.ids), { error: MESSAGES.ids }).min(1, MESSAGES.ids).max(10_000, MESSAGES.ids),
});

/** POST bulk_delete {bulk_item_types}: ids to delete (the spec's name; a form posts them repeated). */
export const bulkDeleteSchema = z.object({
  bulk_item_types: z.array(z.coerce.number({ error: MESSAGES.bulk }).int(MESSAGES.bulk).positive(MESSAGES.bulk).max(2_147_483_647, MESSAGES.bulk), { error: MESSAGES.bulk }).min(1, MESSAGES.bulk).max(10_000, MESSAGES.bulk),
});

/** An item type as the screens and the API show it (spec 2 section 3). */
export interface ItemTypeJson {
  id: number;
  customer_id: number;
  name: ItemTypeName;
  description: string;
  labels: number;
  pallet_vendor: number;
  som: "metric" | "imperial";
  site_id: number | null;
  site_name: string | null;
  length: string | null;
  width: string | null;
  height: string | null;
  weight: string | null;
  increments: string | null;
  has_dangerous_goods: boolean;
  preselected_dg_items: Array<Record<string, string | number | boolean | null>>;
  item_type_options: { manual_handling: boolean };
  sequence: number;
}

/** Spec 2 section 3: the CSV columns of export, import and the template, in this order. */
export const CSV_COLUMNS = ["description", "type", "unit_of_measurement", "vendor", "length", "width", "height", "weight", "increments", "label_count", "manual_handling"] as const;
export const TEMPLATE_ROW = { description: "Standard carton", type: "Carton", unit_of_measurement: "metric", vendor: "plain", length: "40", width: "30", height: "30", weight: "5", increments: "1.0", label_count: "1", manual_handling: "false" };

/** One CSV row (keys the file's lower-cased headers) as the schema's input; spaces in headers read as underscores. */
export function csvRowToInput(values: Record<string, string>): Record<string, unknown> {
  const row: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) if (k) row[k.replace(/\s+/g, "_")] = v.trim();
  const vendorText = (row.vendor ?? "").toLowerCase();
  const vendorIndex = PALLET_VENDORS.findIndex((p) => p.toLowerCase() === vendorText);
  const typeText = (row.type ?? "").toLowerCase();
  return {
    description: row.description ?? "",
    // Type is mandatory in a file (the screen's default of Carton does not apply): "" fails the enum
    name: ITEM_TYPE_NAMES.find((n) => n.toLowerCase() === typeText) ?? (typeText ? row.type : "-"),
    som: (row.unit_of_measurement ?? "").toLowerCase(),
    pallet_vendor: vendorIndex >= 0 ? String(vendorIndex) : vendorText,
    length: row.length ?? "",
    width: row.width ?? "",
    height: row.height ?? "",
    weight: row.weight ?? "",
    increments: row.increments ?? "",
    labels: row.label_count ?? "",
    manual_handling: /^(true|yes|y|1)$/i.test(row.manual_handling ?? ""),
    has_dangerous_goods: false,
  };
}

/** An item type as one CSV row (export). */
export function itemTypeToCsvRow(t: Pick<ItemTypeJson, "description" | "name" | "som" | "pallet_vendor" | "length" | "width" | "height" | "weight" | "increments" | "labels" | "item_type_options">) {
  return {
    description: t.description,
    type: t.name,
    unit_of_measurement: t.som,
    vendor: (PALLET_VENDORS[t.pallet_vendor] ?? "Plain").toLowerCase(),
    length: t.length ?? "",
    width: t.width ?? "",
    height: t.height ?? "",
    weight: t.weight ?? "",
    increments: t.increments ?? "",
    label_count: t.labels,
    manual_handling: t.item_type_options.manual_handling ? "true" : "false",
  };
}
