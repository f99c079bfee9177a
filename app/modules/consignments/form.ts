/**
 * The consignment screen's form as the consignment object of the /api: field names are paths
 * (`receiver_address.name`, `items.0.quantity`, `items.0.dangerous_goods_items.0.un_number`), the
 * date is typed as the sender's country writes it, and the chosen rate is `CARRIER:SERVICE`.
 * Shared by the server action (no JavaScript) and the browser (live rating).
 */

type Nested = Record<string, unknown>;

/** `a.b.0.c` paths into nested objects and arrays (numeric segments make arrays). */
export function nest(entries: Iterable<[string, string]>): Nested {
  const root: Nested = {};
  for (const [path, value] of entries) {
    const keys = path.split(".");
    let node: Record<string, unknown> = root;
    keys.forEach((key, i) => {
      if (key === "__proto__" || key === "constructor" || key === "prototype") return;
      if (i === keys.length - 1) {
        node[key] = value;
        return;
      }
      const nextIsIndex = /^\d+$/.test(keys[i + 1]!);
      node[key] ??= nextIsIndex ? [] : {};
      node = node[key] as Record<string, unknown>;
    });
  }
  return root;
}

/** DD/MM/YYYY (MM/DD/YYYY for the United States) to YYYY-MM-DD; ISO passes through; anything else stays as typed for the server to refuse. */
export function parseDisplayDate(text: string, country: string | null | undefined): string {
  const value = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!m) return value;
  const [a, b, year] = [m[1]!, m[2]!, m[3]!];
  const [day, month] = country === "UNITED STATES OF AMERICA" ? [b, a] : [a, b];
  return `${year}-${month.padStart(2, "0")}-${day.padStart(2, "0")}`;
}

const EMPTY_ADDRESS_KEYS = ["name", "address_line_1", "locality", "postcode", "sublocality"];

/** An address the user left entirely blank is no address. */
function addressOrNull(a: unknown): Nested | null {
  if (!a || typeof a !== "object") return null;
  const address = a as Nested;
  return EMPTY_ADDRESS_KEYS.some((k) => typeof address[k] === "string" && (address[k] as string).trim() !== "") ? address : null;
}

/** An item line the user left entirely blank is dropped. */
function lineIsBlank(item: Nested) {
  return ["quantity", "length", "width", "height", "weight_in_uom", "reference"].every((k) => !String(item[k] ?? "").trim());
}

/** The form's entries as the consignment input of consignmentInputSchema. */
export function consignmentFromForm(entries: Iterable<[string, string]>, senderCountry: string | null | undefined): Nested {
  const raw = nest(entries);
  const out: Nested = { ...raw };
  for (const key of ["intent", "rate", "print_button"]) delete out[key];
  out.despatch_date = parseDisplayDate(String(raw.despatch_date ?? ""), senderCountry);
  out.sender_address = addressOrNull(raw.sender_address);
  out.receiver_address = addressOrNull(raw.receiver_address);
  const items = Array.isArray(raw.items) ? (raw.items as Nested[]).filter(Boolean) : [];
  out.items = items
    .filter((item) => !lineIsBlank(item))
    .map((item) => {
      const dg = Array.isArray(item.dangerous_goods_items) ? (item.dangerous_goods_items as Nested[]).filter(Boolean) : [];
      const { dangerous_goods: flag, ...rest } = item;
      // the dangerous goods lines count only while the line is marked dangerous
      return { ...rest, dangerous_goods_items: flag === "on" || flag === "true" ? dg.map((d) => ({ ...d, nos: d.nos === "on" || d.nos === "true" })) : [] };
    });
  const rate = typeof raw.rate === "string" ? raw.rate : "";
  const split = rate.indexOf(":");
  if (split > 0) {
    out.carrier_code = rate.slice(0, split);
    out.service_code = rate.slice(split + 1);
  }
  if (raw.return_info && typeof raw.return_info === "object") {
    // the screen asks for a date (as the country writes it) and a time; the API takes "YYYY-MM-DD HH:mm"
    const info = { ...(raw.return_info as Nested) };
    for (const which of ["ready", "closing"] as const) {
      const date = String(info[`${which}_date`] ?? "").trim();
      const time = String(info[`${which}_time`] ?? "").trim();
      delete info[`${which}_date`];
      delete info[`${which}_time`];
      if (date || time) info[`${which}_at`] = `${parseDisplayDate(date, senderCountry)} ${time}`.trim();
    }
    out.return_info = info;
  }
  const options = raw.options as Nested | undefined;
  if (options?.delivery_options && typeof options.delivery_options === "object") {
    out.options = { ...options, delivery_options: Object.fromEntries(Object.entries(options.delivery_options as Nested).map(([k, v]) => [k, v === "true"])) };
  }
  if (raw.version === "") delete out.version;
  return out;
}

/** The place an address names for rating: a New Zealand suburb (sublocality) when it has one, else its locality. */
export const placeName = (a: { country?: string | null; locality?: string | null; sublocality?: string | null }) =>
  a.country === "NEW ZEALAND" && a.sublocality ? a.sublocality : a.locality;

interface RatedAddress {
  locality?: string | null;
  sublocality?: string | null;
  postcode?: string | null;
  region?: string | null;
  country: string;
  address_type: string;
}

/**
 * The rating payload of spec 1 section 7 for a consignment (flat address parts): what the save
 * prices on the server, what "Get rates" prices without JavaScript and what the screen rates live.
 */
export function ratingPayloadOf(c: {
  despatch_date: string | null;
  site_code: string;
  account_payable: string;
  return_type: "return" | "third_party" | null;
  consignment_id?: number | null;
  preselected_carrier_service?: string | null;
  preselected_service_type?: string | null;
  items: Array<{ quantity: number; item_type_id: number | null; length: number; width: number; height: number; weight_in_uom: number; dangerous_goods_items: unknown[] }>;
  sender_address?: RatedAddress | null;
  receiver_address?: RatedAddress | null;
}) {
  const parts = (prefix: "sender" | "receiver", a: RatedAddress | null | undefined) =>
    a
      ? {
          [`${prefix}_locality`]: placeName(a),
          [`${prefix}_postcode`]: a.postcode,
          [`${prefix}_region`]: a.region,
          [`${prefix}_sublocality`]: a.sublocality,
          [`${prefix}_country`]: a.country,
          [`${prefix}_address_type`]: a.address_type,
        }
      : {};
  return {
    despatch_date: c.despatch_date,
    site_code: c.site_code,
    account_payable: c.account_payable,
    return_type: c.return_type,
    consignment_id: c.consignment_id ?? undefined,
    preselected_carrier_service: c.preselected_carrier_service ?? undefined,
    preselected_service_type: c.preselected_service_type ?? undefined,
    items: c.items.map((i) => ({
      quantity: i.quantity,
      item_type: i.item_type_id,
      length: i.length,
      width: i.width,
      height: i.height,
      weight_in_uom: i.weight_in_uom,
      dangerous_goods: i.dangerous_goods_items.length > 0,
      dangerous_goods_items: i.dangerous_goods_items,
    })),
    ...parts("sender", c.sender_address),
    ...parts("receiver", c.receiver_address),
  };
}
