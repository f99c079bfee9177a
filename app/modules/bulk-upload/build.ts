/**
 * A grouped consignment of a bulk upload as the consignment input the screen and /api send
 * (consignmentInputSchema), and which line each of its problems belongs to. Pure.
 */
import type { FieldErrors } from "../../utils/errors";
import { TIME_FORMAT } from "./columns";
import { DATE_FORMAT, DATE_REQUIRED, parseUploadDate, parseUploadTime, type Group, type LineError } from "./group";

/** the time columns and what the file calls each in a message */
const TIME_COLUMNS = { pickup_at: "Pickup time", deliver_by: "Deliver-by time", deliver_at: "Delivery time" } as const;

/** The sending site's own address: the sender of every consignment it starts (as the screen fills it). */
export interface SenderSite {
  id: number;
  code: string;
  address: Record<string, string | null>;
}

/** Item types by lower-cased description and name (a name shared by several types names none). */
export type TypeLookup = Map<string, number | null>;

export function typeLookup(types: Array<{ id: number; name: string; description: string | null }>): TypeLookup {
  const out: TypeLookup = new Map();
  for (const t of types) if (t.description) out.set(t.description.trim().toLowerCase(), t.id);
  for (const t of types) {
    const key = t.name.trim().toLowerCase();
    if (out.has(key) && out.get(key) !== t.id && !types.some((o) => o.description?.trim().toLowerCase() === key)) out.set(key, null);
    else if (!out.has(key)) out.set(key, t.id);
  }
  return out;
}

const blank = (v: string | undefined) => (v && v.trim() ? v.trim() : undefined);
const upper = (v: string | undefined) => blank(v)?.toUpperCase();
const lower = (v: string | undefined) => blank(v)?.toLowerCase();

export interface Built {
  raw: Record<string, unknown> | null;
  /** problems found while reading the cells (a bad date, an unknown site or item type) */
  errors: LineError[];
}

/** The consignment input of a group, or the lines that cannot be read. */
export function buildInput(group: Group, sites: Map<string, SenderSite>, types: TypeLookup): Built {
  const head = group.head.cells;
  const errors = new Map<number, string[]>();
  const add = (line: number, message: string) => errors.set(line, [...(errors.get(line) ?? []), message]);

  const site = sites.get(head.site_code!.toLowerCase());
  if (!site) add(group.head.line, `Unknown site code ${head.site_code}: not one of your sites`);
  let despatchDate: string | null = null;
  if (!blank(head.despatch_date)) add(group.head.line, DATE_REQUIRED);
  else {
    despatchDate = parseUploadDate(head.despatch_date!);
    if (!despatchDate) add(group.head.line, `${DATE_FORMAT} (not ${head.despatch_date})`);
  }
  const times: Record<string, string | null> = {};
  for (const [column, label] of Object.entries(TIME_COLUMNS)) {
    const text = blank(head[column]);
    times[column] = text ? parseUploadTime(text, despatchDate) : null;
    // a time of day alone needs the despatch date, whose own message is already there
    if (text && !times[column] && (despatchDate || !/^\d{1,2}:\d{2}$/.test(text))) add(group.head.line, `${label} must be ${TIME_FORMAT} (not ${text})`);
  }
  const items = group.rows.map((row) => {
    const r = row.cells;
    let itemTypeId: number | null = null;
    const typeName = lower(r.item_type);
    if (typeName) {
      const found = types.get(typeName);
      if (found == null) add(row.line, found === null ? `Item type ${r.item_type} names more than one item type: use its description` : `Unknown item type ${r.item_type}`);
      else itemTypeId = found;
    }
    const dg = [r.dg_un_number, r.dg_proper_shipping_name, r.dg_class, r.dg_weight].some((v) => blank(v))
      ? [
          {
            un_number: blank(r.dg_un_number) ?? null,
            proper_shipping_name: blank(r.dg_proper_shipping_name) ?? null,
            technical_name: blank(r.dg_technical_name) ?? null,
            hazard_class: blank(r.dg_class) ?? null,
            packing_group: blank(r.dg_packing_group) ?? null,
            sub_hazard: blank(r.dg_sub_risk) ?? null,
            weight_in_uom: blank(r.dg_weight) ?? null,
            nos: lower(r.dg_nos) ?? "",
          },
        ]
      : [];
    return {
      quantity: blank(r.quantity) ?? null,
      item_type_id: itemTypeId,
      reference: blank(r.item_reference) ?? null,
      length: blank(r.length) ?? null,
      width: blank(r.width) ?? null,
      height: blank(r.height) ?? null,
      weight_in_uom: blank(r.weight) ?? null,
      dangerous_goods_items: dg,
    };
  });
  if (errors.size || !site) return { raw: null, errors: [...errors].map(([line, e]) => ({ line, errors: e })) };

  const raw: Record<string, unknown> = {
    site_code: site.code,
    despatch_date: despatchDate,
    reference: blank(head.reference) ?? null,
    custom_reference: blank(head.custom_reference) ?? null,
    account_payable: lower(head.account_payable),
    charge_account: blank(head.charge_account) ?? null,
    special_instructions: blank(head.special_instructions) ?? null,
    special_requirements: blank(head.special_requirements) ?? null,
    ...times,
    carrier_code: blank(head.carrier_code) ?? null,
    service_code: blank(head.service_code) ?? null,
    sender_address: site.address,
    receiver_address: {
      name: head.receiver_name ?? "",
      code: blank(head.receiver_code) ?? null,
      address_line_1: blank(head.receiver_address_line_1) ?? null,
      address_line_2: blank(head.receiver_address_line_2) ?? null,
      address_line_3: blank(head.receiver_address_line_3) ?? null,
      locality: blank(head.receiver_locality) ?? null,
      sublocality: blank(head.receiver_sublocality) ?? null,
      postcode: blank(head.receiver_postcode) ?? null,
      region: blank(head.receiver_region) ?? null,
      country: upper(head.receiver_country),
      phone: blank(head.receiver_phone) ?? null,
      email: blank(head.receiver_email) ?? null,
      address_type: lower(head.receiver_address_type),
    },
    items,
  };
  return { raw, errors: [] };
}

/**
 * Field errors of the consignment (schema or completion, keyed as the screen keys them) by line:
 * an item's to its row, the rest to the row that starts the consignment.
 */
export function errorsByLine(group: Group, fieldErrors: FieldErrors): LineError[] {
  const byLine = new Map<number, string[]>();
  for (const [field, messages] of Object.entries(fieldErrors)) {
    const m = /^items\.(\d+)/.exec(field);
    const line = m ? (group.rows[Number(m[1])]?.line ?? group.head.line) : group.head.line;
    byLine.set(line, [...(byLine.get(line) ?? []), ...messages]);
  }
  return [...byLine].sort((a, b) => a[0] - b[0]).map(([line, errors]) => ({ line, errors: [...new Set(errors)] }));
}

/**
 * Every line of a consignment that is skipped: its bad lines with their reasons, and its other
 * lines, which go with it (nothing of a consignment is half made).
 */
export function skippedLines(group: Group, bad: LineError[]): LineError[] {
  const badLines = new Set(bad.map((b) => b.line));
  const first = Math.min(...bad.map((b) => b.line));
  return group.rows.map((r) => (badLines.has(r.line) ? bad.find((b) => b.line === r.line)! : { line: r.line, errors: [`Skipped with its consignment: line ${first} has errors`] }));
}
