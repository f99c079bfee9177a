/**
 * Rows of a bulk upload file into consignments (spec 2 section 5): a row with a site code starts a
 * consignment, rows without one add items to it. Pure: the upload job and its tests use it alike.
 */
import { createHash } from "node:crypto";
import { isRealDate } from "../calendar/dates";
import { COLUMNS } from "./columns";

export interface Row {
  /** line in the file (the header is line 1) */
  line: number;
  /** cells by column name */
  cells: Record<string, string>;
}

export interface Group {
  /** the row that starts it (its consignment columns) */
  head: Row;
  /** every row, the head first: one item line each */
  rows: Row[];
}

export interface LineError {
  line: number;
  errors: string[];
}

export const NO_SITE_FIRST = "No consignment to add this item to: the first row of a consignment needs a site code";
export const DATE_FORMAT = "Despatch date must be a date in DD/MM/YYYY or DD-MM-YYYY format";
export const DATE_REQUIRED = "Despatch date is required (DD/MM/YYYY or DD-MM-YYYY)";

/** DD/MM/YYYY or DD-MM-YYYY (one separator throughout) as YYYY-MM-DD; null if it is neither or names no day. */
export function parseUploadDate(text: string): string | null {
  const m = /^(\d{1,2})([/-])(\d{1,2})\2(\d{4})$/.exec(text.trim());
  if (!m) return null;
  const iso = `${m[4]}-${m[3]!.padStart(2, "0")}-${m[1]!.padStart(2, "0")}`;
  return isRealDate(iso) ? iso : null;
}

/**
 * A pickup or delivery time as the file writes it (DD/MM/YYYY HH:mm or DD-MM-YYYY HH:mm, or HH:mm
 * on the despatch date) as YYYY-MM-DD HH:mm; null if it is none of these or names no day or time.
 */
export function parseUploadTime(text: string, despatchDate: string | null): string | null {
  const m = /^(?:(.+?)\s+)?(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const day = m[1] ? parseUploadDate(m[1]) : despatchDate;
  const hour = Number(m[2]);
  const minute = Number(m[3]);
  if (!day || hour > 23 || minute > 59) return null;
  return `${day} ${String(hour).padStart(2, "0")}:${m[3]}`;
}

/** Groups rows into consignments; a row before any site code belongs to none and is reported. */
export function groupRows(rows: Row[]): { groups: Group[]; orphans: LineError[] } {
  const groups: Group[] = [];
  const orphans: LineError[] = [];
  let current: Group | null = null;
  for (const row of rows) {
    if (row.cells.site_code) {
      current = { head: row, rows: [row] };
      groups.push(current);
    } else if (current) current.rows.push(row);
    else orphans.push({ line: row.line, errors: [NO_SITE_FIRST] });
  }
  return { groups, orphans };
}

const CONSIGNMENT_COLUMNS = COLUMNS.filter((c) => c.level === "consignment").map((c) => c.name);
const ITEM_COLUMNS = COLUMNS.filter((c) => c.level === "item").map((c) => c.name);
/** codes and names compared without case, as the upload reads them */
const CASELESS = new Set(["site_code", "carrier_code", "service_code", "item_type", "receiver_country", "receiver_address_type", "account_payable", "receiver_locality", "receiver_sublocality"]);

/**
 * The consignment's rows as one canonical text, then its SHA-256 (hex), with the kind: the same
 * consignment in another file (columns in another order, aliases, dates in the other format, other
 * case in codes) has the same reference, so it is not made twice.
 */
export function groupReference(kind: string, group: Group): string {
  const cell = (row: Row, name: string) => {
    const v = (row.cells[name] ?? "").trim();
    if (name === "despatch_date") return parseUploadDate(v) ?? v;
    return CASELESS.has(name) ? v.toLowerCase() : v;
  };
  const head = CONSIGNMENT_COLUMNS.map((n) => cell(group.head, n));
  const items = group.rows.map((r) => ITEM_COLUMNS.map((n) => cell(r, n)));
  return createHash("sha256").update(JSON.stringify([kind, head, items])).digest("hex");
}
