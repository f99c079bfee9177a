import { inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { localities } from "../../../db/schema";
import { addressSchema, type AddressInput } from "../consignments/schema";
import { parseCsv, type CsvRow } from "../../utils/csv.server";
import { AppError } from "../../utils/errors";
import { RECIPIENT_COLUMNS, REQUIRED_COLUMNS, UPLOAD_ERRORS_SHOWN } from "./limits";

/** rows validated and inserted together: one localities query and one insert statement each */
const CHUNK = 5000;

export interface ImportReport {
  created: number;
  updated: number;
  skipped: Array<{ line: number; errors: string[] }>;
  skipped_total: number;
}

/** lower-cased locality and suburb names by "COUNTRY|postcode" */
type Places = Map<string, Set<string>>;

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

/**
 * Adds the lines of a recipients file (columns: RECIPIENT_COLUMNS; name, address_line_1, locality
 * and postcode required) to the customer's address book. All or nothing per line: a line with any
 * error is skipped whole and reported with its line number and reasons (the first 100 listed);
 * a file that is not CSV, or lacks a required column, is refused whole.
 */
export async function importRecipients(db: DbOrTx, customerId: number, text: string): Promise<ImportReport> {
  const { headers, rows } = await parseCsv(text);
  const missing = REQUIRED_COLUMNS.filter((c) => !headers.includes(c));
  if (missing.length) throw new AppError("invalid", `Missing columns: ${missing.join(", ")}`, { file: [`Missing columns: ${missing.join(", ")}`] });
  const unknown = headers.filter((h) => !(RECIPIENT_COLUMNS as readonly string[]).includes(h));
  if (unknown.length) throw new AppError("invalid", `Unknown columns: ${unknown.join(", ")}`, { file: [`Unknown columns: ${unknown.join(", ")}`] });
  const report: ImportReport = { created: 0, updated: 0, skipped: [], skipped_total: 0 };
  const skip = (row: CsvRow, errors: string[]) => {
    report.skipped_total += 1;
    if (report.skipped.length < UPLOAD_ERRORS_SHOWN) report.skipped.push({ line: row.line, errors });
  };
  const places: Places = new Map();
  // one transaction: an import that fails part way (the database gone) leaves no half of the file behind
  await db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += CHUNK) {
      const chunk = rows.slice(i, i + CHUNK);
      const parsed = chunk.map((row) => ({ row, result: addressSchema.safeParse(cells(row.values)) }));
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
  });
  return report;
}
