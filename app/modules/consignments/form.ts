/**
 * The consignment screen's form as the consignment object of the /api: field names are paths
 * (`receiver_address.name`, `items.0.quantity`, `items.0.dangerous_goods_items.0.un_number`), the
 * date is typed as the sender's country writes it, and the chosen rate is `CARRIER:SERVICE`.
 * Shared by the server action (no JavaScript) and the browser (live rating).
 */
import { parseDisplayDate } from "../calendar/display-date";

type Nested = Record<string, unknown>;

/**
 * A hidden field the screens render until JavaScript takes over: a post that carries it was typed
 * without the locality typeahead, so the server resolves the typed places (screen-input.server.ts).
 */
export const TYPED_PLACES_FIELD = "resolve_places";
/** The radio group of a place offered to choose among, per address (`receiver_address.place_id`). */
export const PLACE_CHOICE_FIELD = "place_id";

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

// the site's date format, read where the form is read (the screens import it from here too)
export { parseDisplayDate };

/** An address is typed when one of these is: the rest (country, address type) has defaults. */
export const ADDRESS_TYPED_KEYS = ["name", "address_line_1", "locality", "postcode", "sublocality"];

/** An address the user left entirely blank is no address. */
function addressOrNull(a: unknown): Nested | null {
  if (!a || typeof a !== "object") return null;
  const address = a as Nested;
  return ADDRESS_TYPED_KEYS.some((k) => typeof address[k] === "string" && (address[k] as string).trim() !== "") ? address : null;
}

/** An item line the user left entirely blank is dropped. */
function lineIsBlank(item: Nested) {
  return ["quantity", "length", "width", "height", "weight_in_uom", "reference"].every((k) => !String(item[k] ?? "").trim());
}

/** The time slots a service may need, each typed as a date and a time. */
export const TIME_SLOTS = ["pickup_at", "deliver_by", "deliver_at"] as const;

/**
 * The screen asks for a date (as the country writes it) and a time in `{name}_date` and
 * `{name}_time`; the API takes `key` as "YYYY-MM-DD HH:mm". Both blank is no time.
 */
function joinDateTime(fields: Nested, name: string, key: string, country: string | null | undefined) {
  if (!(`${name}_date` in fields) && !(`${name}_time` in fields)) return;
  const date = String(fields[`${name}_date`] ?? "").trim();
  const time = String(fields[`${name}_time`] ?? "").trim();
  delete fields[`${name}_date`];
  delete fields[`${name}_time`];
  if (date || time) fields[key] = `${parseDisplayDate(date, country)} ${time}`.trim();
}

/** The form's entries as the consignment input of consignmentInputSchema. */
export function consignmentFromForm(entries: Iterable<[string, string]>, senderCountry: string | null | undefined): Nested {
  const raw = nest(entries);
  const out: Nested = { ...raw };
  for (const key of ["intent", "rate", "print_button", TYPED_PLACES_FIELD]) delete out[key];
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
    const info = { ...(raw.return_info as Nested) };
    for (const which of ["ready", "closing"] as const) joinDateTime(info, which, `${which}_at`, senderCountry);
    out.return_info = info;
  }
  for (const slot of TIME_SLOTS) joinDateTime(out, slot, slot, senderCountry);
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
/** options.declared_value when it is a number (the API's consignments may carry one). */
const declaredValueOf = (options: Record<string, unknown> | null | undefined) => {
  const v = Number(options?.declared_value);
  return options?.declared_value != null && Number.isFinite(v) && v >= 0 ? v : undefined;
};

export function ratingPayloadOf(c: {
  despatch_date: string | null;
  site_code: string;
  account_payable: string;
  return_type: "return" | "third_party" | null;
  consignment_id?: number | null;
  preselected_carrier_service?: string | null;
  preselected_service_type?: string | null;
  reference?: string | null;
  options?: Record<string, unknown> | null;
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
    // read by the shipping rules only (a declared value is kept in the consignment's options)
    reference: c.reference ?? undefined,
    declared_value: declaredValueOf(c.options),
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
