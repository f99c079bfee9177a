/**
 * The bulk upload file (spec 2 section 5 "Bulk upload"): one row per item line; a row with a site
 * code starts a consignment, rows without one add items to it. The columns follow the consignment
 * fields of spec 1; each may be named by its own name or one of its aliases (GET
 * /api/bulk_upload_mappings), in any order, in any case.
 */

export type Level = "consignment" | "item";

export interface Column {
  name: string;
  /** what it fills: a consignment (read from the row that starts it) or the row's item line */
  level: Level;
  required: boolean;
  description: string;
  aliases: string[];
  /** an example for the template */
  example: string;
}

/** how a file writes a pickup or delivery time */
export const TIME_FORMAT = "DD/MM/YYYY HH:mm, or HH:mm on the despatch date";

const c = (name: string, level: Level, required: boolean, description: string, aliases: string[], example = ""): Column => ({ name, level, required, description, aliases, example });

export const COLUMNS: readonly Column[] = [
  c("site_code", "consignment", true, "Code of the sending site; a row with a site code starts a new consignment", ["site", "sender_site"], "MEL"),
  c("despatch_date", "consignment", true, "Despatch date, DD/MM/YYYY or DD-MM-YYYY", ["date", "despatch"], "01/12/2026"),
  c("reference", "consignment", false, "Consignment reference (up to 255 characters)", ["consignment_reference", "order_number"], "PO-1001"),
  c("custom_reference", "consignment", false, "Custom reference (one of the customer's list when it has one)", ["custom_consignment_reference"], ""),
  c("receiver_name", "consignment", true, "Receiver name", ["receiver", "name", "recipient", "company"], "Acme Pty Ltd"),
  c("receiver_code", "consignment", false, "Receiver's code in your address book", ["recipient_code"], ""),
  c("receiver_address_line_1", "consignment", false, "Receiver address line 1", ["address_line_1", "address1", "street"], "1 Main Street"),
  c("receiver_address_line_2", "consignment", false, "Receiver address line 2", ["address_line_2", "address2"], ""),
  c("receiver_address_line_3", "consignment", false, "Receiver address line 3", ["address_line_3", "address3"], ""),
  c("receiver_locality", "consignment", true, "Receiver locality (suburb or town)", ["locality", "suburb", "city", "town"], "SYDNEY"),
  c("receiver_sublocality", "consignment", false, "Receiver suburb (New Zealand)", ["sublocality"], ""),
  c("receiver_postcode", "consignment", true, "Receiver postcode (4 or 5 digits)", ["postcode", "zip"], "2000"),
  c("receiver_region", "consignment", false, "Receiver state or region", ["region", "state"], "NSW"),
  c("receiver_country", "consignment", false, "Receiver country (default AUSTRALIA)", ["country"], "AUSTRALIA"),
  c("receiver_phone", "consignment", false, "Receiver phone", ["phone"], ""),
  c("receiver_email", "consignment", false, "Receiver e-mail", ["email"], ""),
  c("receiver_address_type", "consignment", false, "business or residential (default business)", ["address_type"], "business"),
  c("special_instructions", "consignment", false, "Special instructions (up to 80 characters)", ["instructions"], ""),
  c("special_requirements", "consignment", false, "Special requirements (up to 200 characters)", ["requirements"], ""),
  c("account_payable", "consignment", false, "sender, receiver or transfer (default sender)", [], ""),
  c("charge_account", "consignment", false, "Receiver's account when the receiver pays", [], ""),
  c("carrier_code", "consignment", false, "Carrier code; with service_code chooses the service, else the cheapest rate is taken as the screen would", ["carrier"], ""),
  c("service_code", "consignment", false, "Service code (see Carrier and service codes)", ["service"], ""),
  c("pickup_at", "consignment", false, `Pickup time, ${TIME_FORMAT}; needed by services that collect at a booked time`, ["pickup_time", "pickup"], ""),
  c("deliver_by", "consignment", false, `Deliver-by time, ${TIME_FORMAT}; needed by services that deliver by a time`, ["deliver_by_time"], ""),
  c("deliver_at", "consignment", false, `Delivery time, ${TIME_FORMAT}; needed by services that deliver at a booked time`, ["delivery_time", "deliver_at_time"], ""),
  c("item_type", "item", true, "Item type, by its description or name", ["type", "package", "packaging"], "Carton"),
  c("quantity", "item", true, "Quantity (whole number, up to 4 digits; quotes 1 or 2)", ["qty", "items"], "1"),
  c("length", "item", true, "Length (cm, or in for imperial sites)", [], "40"),
  c("width", "item", true, "Width", [], "30"),
  c("height", "item", true, "Height", [], "20"),
  c("weight", "item", true, "Weight of the line (kg, or lb for imperial sites; up to 5 characters)", ["weight_in_uom", "dead_weight"], "5"),
  c("item_reference", "item", false, "Item reference", [], ""),
  c("dg_un_number", "item", false, "Dangerous goods: UN number", ["un_number"], ""),
  c("dg_proper_shipping_name", "item", false, "Dangerous goods: proper shipping name", ["proper_shipping_name"], ""),
  c("dg_technical_name", "item", false, "Dangerous goods: technical name (N.O.S. entries)", ["technical_name"], ""),
  c("dg_class", "item", false, "Dangerous goods: class", ["hazard_class"], ""),
  c("dg_packing_group", "item", false, "Dangerous goods: packing group", ["packing_group"], ""),
  c("dg_sub_risk", "item", false, "Dangerous goods: sub risk", ["sub_hazard", "sub_risk"], ""),
  c("dg_weight", "item", false, "Dangerous goods: aggregate quantity", ["dg_aggregate_quantity"], ""),
  c("dg_nos", "item", false, "Dangerous goods: N.O.S. entry (true or false)", ["nos"], ""),
];

export type ColumnName = (typeof COLUMNS)[number]["name"];

const normal = (header: string) => header.trim().toLowerCase().replace(/[\s-]+/g, "_");

const BY_NAME = new Map<string, string>(COLUMNS.flatMap((col) => [[col.name, col.name] as const, ...col.aliases.map((a) => [a, col.name] as const)]));

export interface HeaderMap {
  /** file header -> column name */
  map: Map<string, string>;
  missing: string[];
  unknown: string[];
  /** two headers naming one column */
  twice: string[];
}

/** Which column each header of a file names, and what is missing, unknown or named twice. */
export function mapHeaders(headers: string[]): HeaderMap {
  const map = new Map<string, string>();
  const unknown: string[] = [];
  const twice: string[] = [];
  const seen = new Set<string>();
  for (const h of headers) {
    if (!h.trim()) continue;
    const name = BY_NAME.get(normal(h));
    if (!name) unknown.push(h);
    else if (seen.has(name)) twice.push(h);
    else {
      seen.add(name);
      map.set(h, name);
    }
  }
  const missing = COLUMNS.filter((col) => col.required && !seen.has(col.name)).map((col) => col.name);
  return { map, missing, unknown, twice };
}

/** The problem with a file's header that refuses it whole, or null. */
export function headerProblem(h: HeaderMap): string | null {
  if (h.missing.length) return `Missing columns: ${h.missing.join(", ")}`;
  if (h.unknown.length) return `Unknown columns: ${h.unknown.join(", ")}`;
  if (h.twice.length) return `Columns named twice: ${h.twice.join(", ")}`;
  return null;
}

/** A row's cells by column name. */
export function cellsOf(values: Record<string, string>, h: HeaderMap): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [header, name] of h.map) out[name] = (values[header.trim().toLowerCase()] ?? "").trim();
  return out;
}

const csvCell = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The template: the header, then the example rows (cells by column name; an absent cell is blank). */
export function templateCsv(rows: Array<Record<string, string>>): string {
  const header = COLUMNS.map((col) => col.name);
  const cells = rows.map((r) => COLUMNS.map((col) => r[col.name] ?? ""));
  return `${[header, ...cells].map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

/** The columns' own examples, for a consignment of the first row and an item line of the rest. */
export const exampleCells = (level: Level | "all" = "all"): Record<string, string> =>
  Object.fromEntries(COLUMNS.filter((col) => level === "all" || col.level === level).map((col) => [col.name, col.example]));

/** GET /api/bulk_upload_mappings: every column, what it fills and the names a file may use for it. */
export function mappingsJson() {
  return {
    mappings: COLUMNS.map((col) => ({ column: col.name, level: col.level, required: col.required, description: col.description, aliases: col.aliases })),
  };
}
