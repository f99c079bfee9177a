import { inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { localities } from "../../../db/schema";
import { addressSchema, type AddressInput } from "../consignments/schema";
import type { CsvRow } from "../../utils/csv.server";
import { RECIPIENT_COLUMNS, REQUIRED_COLUMNS, UPLOAD_ERRORS_SHOWN } from "./limits";

/** rows validated and inserted together: one localities query and one insert statement each */
export const CHUNK = 5000;

export interface ImportReport {
  created: number;
  updated: number;
  skipped: Array<{ line: number; errors: string[] }>;
  skipped_total: number;
}

/** lower-cased locality and suburb names by "COUNTRY|postcode" */
export type Places = Map<string, Set<string>>;

async function loadPlaces(db: DbOrTx, places: Places, postcodes: string[]): Promise<void> {
  const wanted = [...new Set(postcodes)].filter((p) => !places.has(`*|${p}`));
  if (!wanted.length) return;
  const rows = await db
    .select({ country: localities.country, postcode: localities.postcode, locality: localities.locality, sublocality: localities.sublocality })
    .from(localities)
    .where(inArray(localities.postcode, wanted));
  for (const p of wanted) places.set(`*|${p}`, new Set());
  for (const r of rows) {
    const key = `${r.country}|${r.postcode}`;
    const names = places.get(key) ?? new Set<string>();
    names.add(r.locality.toLowerCase());
    if (r.sublocality) names.add(r.sublocality.toLowerCase());
    places.set(key, names);
  }
}

/** The cells of a line as the address form would send them: blanks left to the defaults, codes upper- or lower-cased. */
function cells(values: Record<string, string>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...values };
  out.country = values.country ? values.country.toUpperCase() : undefined;
  out.address_type = values.address_type ? values.address_type.toLowerCase() : undefined;
  return out;
}

/** The cells a line cannot go without (checkRecipient's rules), read before or after the shape is checked. */
function missingCells(a: { country?: string | null; address_line_1?: string | null; sublocality?: string | null; locality?: string | null; postcode?: string | null }): string[] {
  const errors: string[] = [];
  if (!a.address_line_1) errors.push("Address line 1 is required");
  const nz = a.country === "NEW ZEALAND";
  if (!(nz ? a.sublocality || a.locality : a.locality)) errors.push(nz ? "Suburb is required" : "Locality is required");
  if (!a.postcode) errors.push("Postcode is required");
  return errors;
}

/** What is wrong with a well-shaped line: a missing cell, or a postcode and locality (NZ: suburb) naming no known place. */
function lineErrors(a: AddressInput, places: Places): string[] {
  const missing = missingCells(a);
  if (missing.length) return missing;
  const place = (a.country === "NEW ZEALAND" ? a.sublocality || a.locality : a.locality)!;
  return places.get(`${a.country}|${a.postcode}`)?.has(place.toLowerCase()) ? [] : [`${a.postcode} ${place} is not a known place`];
}

/** One multi-row insert of checked lines: the rows travel as one JSON parameter (the same on postgres.js and PGlite). */
async function insertRows(db: DbOrTx, customerId: number, rows: AddressInput[]): Promise<void> {
  if (!rows.length) return;
  const json = JSON.stringify(
    rows.map((a) => [a.name, a.code, a.address_line_1, a.address_line_2, a.address_line_3, a.address_line_4, a.sublocality, a.locality, a.postcode, a.region, a.country, a.phone, a.email, a.special_instructions, a.address_type, a.country === "UNITED STATES OF AMERICA" ? "imperial" : "metric"]),
  );
  await db.execute(sql`
    insert into addresses (customer_id, is_recipient, name, code, address_line_1, address_line_2, address_line_3, address_line_4,
      sublocality, locality, postcode, region, country, phone, email, special_instructions, address_type, som)
    select ${customerId}, true, r->>0, r->>1, r->>2, r->>3, r->>4, r->>5, r->>6, r->>7, r->>8, r->>9, r->>10, r->>11, r->>12, r->>13, r->>14, r->>15
    from json_array_elements(${json}::json) r`);
}

/** Why a file's header is refused whole (a required column missing, or one not of the import's), or null. */
export function headerProblem(headers: string[]): string | null {
  const missing = REQUIRED_COLUMNS.filter((c) => !headers.includes(c));
  if (missing.length) return `Missing columns: ${missing.join(", ")}`;
  const unknown = headers.filter((h) => !(RECIPIENT_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) return `Unknown columns: ${unknown.join(", ")}`;
  return null;
}

export const emptyReport = (): ImportReport => ({ created: 0, updated: 0, skipped: [], skipped_total: 0 });

/** What one import has read once: the places by postcode, filled as postcodes come. */
export const newPlaces = (): Places => new Map();

/**
 * Adds a chunk of a recipients file's lines (at most CHUNK) to the customer's address book, in
 * the caller's transaction. All or nothing per line: a line with any error is skipped whole and
 * reported with its line number and reasons (the first 100 listed, all counted).
 */
export async function importChunk(tx: DbOrTx, customerId: number, rows: CsvRow[], places: Places, report: ImportReport): Promise<void> {
  const skip = (row: CsvRow, errors: string[]) => {
    report.skipped_total += 1;
    if (report.skipped.length < UPLOAD_ERRORS_SHOWN) report.skipped.push({ line: row.line, errors });
  };
  const parsed = rows.map((row) => ({ row, result: addressSchema.safeParse(cells(row.values)) }));
  await loadPlaces(tx, places, parsed.flatMap((p) => (p.result.success && p.result.data.postcode ? [p.result.data.postcode] : [])));
  const good: AddressInput[] = [];
  for (const { row, result } of parsed) {
    if (!result.success) {
      skip(row, [...result.error.issues.map((e) => e.message), ...missingCells(cells(row.values))]);
      continue;
    }
    const errors = lineErrors(result.data, places);
    if (errors.length) skip(row, errors);
    else good.push(result.data);
  }
  await insertRows(tx, customerId, good);
  report.created += good.length;
}
