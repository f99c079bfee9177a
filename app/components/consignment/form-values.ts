import type { ConsolidatableLine } from "~/modules/consignments/consolidate";
import { formatDate } from "~/modules/consignments/rules";
import { ADDRESS_FIELDS, type AddressState } from "./AddressFields";

/** What the consignment form holds for an item line and its dangerous goods lines, as typed. */
export interface DgState {
  un_number: string;
  proper_shipping_name: string;
  technical_name: string;
  hazard_class: string;
  packing_group: string;
  sub_hazard: string;
  weight_in_uom: string;
  nos: boolean;
}
export interface LineState extends ConsolidatableLine {
  key: number;
  consolidated: boolean;
  dg: DgState[];
}

export type Loose = Record<string, unknown>;
export const str = (v: unknown) => (v == null ? "" : String(v));
// React keys of item lines: unique for the page's life, so a removed line's inputs are never reused
let lineKeys = 0;
export const nextLineKey = () => ++lineKeys;
export const emptyDg = (): DgState => ({ un_number: "", proper_shipping_name: "", technical_name: "", hazard_class: "", packing_group: "", sub_hazard: "", weight_in_uom: "", nos: false });
export const emptyLine = (): LineState => ({ key: nextLineKey(), quantity: "", item_type_id: "", reference: "", length: "", width: "", height: "", weight_in_uom: "", dangerous_goods: false, consolidated: false, dg: [] });

export function lineFrom(raw: Loose): LineState {
  const dgRaw = Array.isArray(raw.dangerous_goods_items) ? (raw.dangerous_goods_items as Loose[]).filter(Boolean) : [];
  return {
    key: nextLineKey(),
    quantity: str(raw.quantity),
    item_type_id: str(raw.item_type_id),
    reference: str(raw.reference),
    length: str(raw.length),
    width: str(raw.width),
    height: str(raw.height),
    weight_in_uom: str(raw.weight_in_uom),
    dangerous_goods: raw.dangerous_goods === "on" || raw.dangerous_goods === true || dgRaw.length > 0 || raw.has_dangerous_goods === true,
    consolidated: raw.consolidated === true || raw.consolidated === "true",
    dg: dgRaw.map((d) => ({ ...emptyDg(), ...Object.fromEntries(Object.entries(d).map(([k, v]) => [k, k === "nos" ? v === true || v === "on" : str(v)])) }) as DgState),
  };
}

export function addressFrom(raw: unknown, fallback: AddressState): AddressState {
  if (!raw || typeof raw !== "object") return fallback;
  const a = raw as Loose;
  return Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, str(a[f]) || (f === "country" ? "AUSTRALIA" : f === "address_type" ? "business" : "")])) as AddressState;
}

/** A time slot (pickup at, deliver by, deliver at) as the screen holds it: the date in the site's format and HH:mm. */
export interface SlotState {
  date: string;
  time: string;
}

/** A time slot from what a failed post sent back (`{key}_date`, `{key}_time`), else the saved "YYYY-MM-DD HH:mm". */
export function slotFrom(source: Loose | null, key: string, country: string): SlotState {
  if (source && (`${key}_date` in source || `${key}_time` in source)) return { date: str(source[`${key}_date`]), time: str(source[`${key}_time`]) };
  const saved = str(source?.[key]);
  return { date: formatDate(saved.slice(0, 10), country), time: saved.slice(11, 16) };
}
