import { and, asc, eq, ilike, or, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { COUNTRIES, addresses, localities, sites, type Country } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { parseCsv } from "../../utils/csv.server";
import { addressJson } from "../addresses/address-json";
import { UPLOAD_ERRORS_SHOWN } from "../../utils/upload-limits";

export const LOCALITY_SUGGESTIONS = 6;
export const ADDRESS_SUGGESTIONS = 10;
export const MIN_QUERY = 3;

export const countrySchema = z.enum(COUNTRIES, { error: `Country must be one of ${COUNTRIES.join(", ")}` }).default("AUSTRALIA");

export interface LocalityJson {
  id: number;
  locality: string;
  sublocality: string | null;
  postcode: string;
  region: string | null;
  country: Country;
  latitude: number | null;
  longitude: number | null;
}

export const localityJson = (r: typeof localities.$inferSelect): LocalityJson => ({
  id: r.id,
  locality: r.locality,
  sublocality: r.sublocality,
  postcode: r.postcode,
  region: r.region,
  country: r.country,
  latitude: r.latitude,
  longitude: r.longitude,
});

/** LIKE pattern for "starts with", with the user's % and _ taken literally. */
export const startsWith = (text: string) => `${text.replace(/[\\%_]/g, "\\$&")}%`;

/**
 * Locality typeahead (spec 1 section 5): from 3 characters; digits search postcodes, anything
 * else names (and NZ suburbs). Exact matches first, then by name and postcode; 6 at most.
 */
export async function searchLocalities(
  db: DbOrTx,
  options: { query: string; country?: Country; limit?: number },
): Promise<LocalityJson[]> {
  const query = options.query.trim();
  if (query.length < MIN_QUERY) return [];
  const country = options.country ?? "AUSTRALIA";
  const limit = Math.min(options.limit ?? LOCALITY_SUGGESTIONS, 50);
  const byPostcode = /^\d+$/.test(query);
  const lowered = query.toLowerCase();
  const rows = await db
    .select()
    .from(localities)
    .where(
      and(
        eq(localities.country, country),
        byPostcode
          ? sql`${localities.postcode} like ${startsWith(query)}`
          : // lower(locality) like 'abc%' is served by the text_pattern_ops index
            or(sql`lower(${localities.locality}) like ${startsWith(lowered)}`, sql`lower(${localities.sublocality}) like ${startsWith(lowered)}`),
      ),
    )
    .orderBy(
      byPostcode ? sql`(${localities.postcode} = ${query}) desc` : // coalesce: with no sublocality the test is null, and nulls would sort first
          sql`coalesce(lower(${localities.locality}) = ${lowered} or lower(${localities.sublocality}) = ${lowered}, false) desc`,
      asc(localities.locality),
      asc(localities.postcode),
    )
    .limit(limit);
  return rows.map(localityJson);
}

/** GET /api/localities type=postcode: every place of a postcode (or postcodes starting so). */
export async function localitiesByPostcode(db: DbOrTx, options: { query: string; country?: Country }): Promise<LocalityJson[]> {
  const query = options.query.trim();
  if (!/^\d{3,10}$/.test(query)) return [];
  const rows = await db
    .select()
    .from(localities)
    .where(and(eq(localities.country, options.country ?? "AUSTRALIA"), sql`${localities.postcode} like ${startsWith(query)}`))
    .orderBy(asc(localities.postcode), asc(localities.locality))
    .limit(50);
  return rows.map(localityJson);
}

/**
 * GET /api/address_selection: the working customer's recipients, the user's sites, or places by
 * postcode, shaped as addresses. Scoped to the user's customer and sites here, not in the route.
 */
export async function addressSelection(
  db: DbOrTx,
  user: CurrentUser,
  options: { query: string; type: "recipient" | "site" | "postcode"; country?: Country },
) {
  const query = options.query.trim();
  if (query.length < MIN_QUERY && options.type !== "site") return [];
  if (options.type === "postcode") {
    return (await localitiesByPostcode(db, options)).map((l) => ({
      name: null,
      locality: l.locality,
      sublocality: l.sublocality,
      postcode: l.postcode,
      region: l.region,
      country: l.country,
    }));
  }
  const pattern = `%${query.replace(/[\\%_]/g, "\\$&")}%`;
  if (options.type === "site") {
    if (!user.siteIds.length) return [];
    const rows = await db
      .select()
      .from(sites)
      .where(and(sql`${sites.id} in (${sql.join(user.siteIds.map((id) => sql`${id}`), sql`, `)})`, query ? or(ilike(sites.name, pattern), ilike(sites.code, pattern)) : undefined))
      .orderBy(asc(sites.name))
      .limit(ADDRESS_SUGGESTIONS);
    return rows.map((s) => ({
      id: s.id,
      site_id: s.id,
      name: s.name,
      code: s.code,
      address_line_1: s.addressLine1,
      address_line_2: s.addressLine2,
      sublocality: s.sublocality,
      locality: s.locality,
      region: s.region,
      postcode: s.postcode,
      country: s.country,
      phone: s.phone,
      email: s.email,
      address_type: s.addressType,
      som: s.som,
    }));
  }
  return (await recipientSuggestions(db, user.customer.id, query, options.country)).map((a) => addressJson(a)!);
}

/**
 * The recipient typeahead: recipients whose name starts with the query first, then those whose
 * name, code or locality holds it, by name. The names that start with it come from a range of the
 * index on (customer_id, is_recipient, lower(name), id), in its order, so a large address book
 * (200,000 recipients, issue 35 item 6) answers them without reading the book; only when fewer
 * than a page start with it is the book searched for the query inside names, codes and localities.
 */
async function recipientSuggestions(db: DbOrTx, customerId: number, query: string, country: Country | undefined) {
  const ofBook = and(eq(addresses.customerId, customerId), eq(addresses.isRecipient, true), country ? eq(addresses.country, country) : undefined);
  const byName = [sql`lower(${addresses.name})`, asc(addresses.id)];
  const lowered = query.toLowerCase();
  const prefix = sql`lower(${addresses.name}) like ${startsWith(lowered)}`;
  // the same names as a range the index reads directly (a LIKE prefix takes an index only in the
  // "C" collation): every text starting with the query sorts from it to it and the last character
  const range = sql`lower(${addresses.name}) >= ${lowered} and lower(${addresses.name}) < ${`${lowered}\u{10FFFF}`}`;
  const first = await db.select().from(addresses).where(and(ofBook, range, prefix)).orderBy(...byName).limit(ADDRESS_SUGGESTIONS);
  if (first.length === ADDRESS_SUGGESTIONS) return first;
  // the names that start with it lead, whether or not the bounded read inside names met them
  const holding = await recipientsHolding(db, customerId, query, country);
  const seen = new Set(first.map((a) => a.id));
  return [...first, ...holding.filter((a) => !seen.has(a.id))].slice(0, ADDRESS_SUGGESTIONS);
}

/** How many matches inside names, codes and localities the typeahead reads before choosing its page by name. */
export const HOLDING_READ = 200;

/**
 * The book's recipients whose name, code or locality holds the query anywhere, those whose name
 * starts with it first, then by name: served by the trigram index on the three (migration 0027),
 * which serves ILIKE '%query%' for queries of 3 characters or more (MIN_QUERY). The index is
 * partial (recipients only), so the condition is written as the index's own predicate: a bound
 * `is_recipient = $1` would not let a generic plan use it. At most HOLDING_READ matches are read
 * and the page is chosen from them by name: a query inside one name in eight of a 200,000-line
 * book matched 25,000 rows, all read and sorted (100 ms and more) to show ten; a person with that
 * many matches types on. Exported for the plan's test.
 */
export function recipientsHolding(db: DbOrTx, customerId: number, query: string, country: Country | undefined) {
  const pattern = `%${startsWith(query)}`;
  const inBook = and(eq(addresses.customerId, customerId), sql`${addresses.isRecipient}`, country ? eq(addresses.country, country) : undefined);
  const read = db
    .select()
    .from(addresses)
    .where(and(inBook, or(ilike(addresses.name, pattern), ilike(addresses.code, pattern), ilike(addresses.locality, pattern))))
    .limit(HOLDING_READ)
    .as("holding");
  const prefix = sql`lower(${read.name}) like ${startsWith(query.toLowerCase())}`;
  return db
    .select()
    .from(read)
    .orderBy(sql`${prefix} desc`, sql`lower(${read.name})`, asc(read.id))
    .limit(ADDRESS_SUGGESTIONS);
}

const importRowSchema = z.object({
  country: z
    .string()
    .transform((v) => v.trim().toUpperCase())
    .pipe(z.enum(COUNTRIES, { error: `country must be one of ${COUNTRIES.join(", ")}` })),
  locality: z.string().trim().min(1, "locality is required").max(100).transform((v) => v.toUpperCase()),
  sublocality: z.string().trim().max(100).optional().transform((v) => (v ? v.toUpperCase() : null)),
  postcode: z.string().trim().regex(/^[A-Za-z0-9 -]{3,10}$/, "postcode must be 3 to 10 letters or digits"),
  region: z.string().trim().max(10).optional().transform((v) => (v ? v.toUpperCase() : null)),
  latitude: z
    .string()
    .optional()
    .transform((v) => (v ? Number(v) : null))
    .refine((v) => v === null || (Number.isFinite(v) && v >= -90 && v <= 90), "latitude must be between -90 and 90"),
  longitude: z
    .string()
    .optional()
    .transform((v) => (v ? Number(v) : null))
    .refine((v) => v === null || (Number.isFinite(v) && v >= -180 && v <= 180), "longitude must be between -180 and 180"),
});

/**
 * Admin CSV import of localities (country, locality, sublocality, postcode, region, latitude,
 * longitude). Good lines are added or updated; every skipped line is reported (first 100).
 */
export async function importLocalitiesCsv(db: DbOrTx, text: string) {
  const { headers, rows } = await parseCsv(text);
  const missing = ["country", "locality", "postcode"].filter((c) => !headers.includes(c));
  if (missing.length) throw new AppError("invalid", `Missing columns: ${missing.join(", ")}`, { file: [`Missing columns: ${missing.join(", ")}`] });
  const skipped: Array<{ line: number; errors: string[] }> = [];
  let skippedTotal = 0;
  let created = 0;
  let updated = 0;
  const good: Array<typeof localities.$inferInsert> = [];
  for (const row of rows) {
    const parsed = importRowSchema.safeParse(row.values);
    if (!parsed.success) {
      skippedTotal++;
      if (skipped.length < UPLOAD_ERRORS_SHOWN) skipped.push({ line: row.line, errors: parsed.error.issues.map((i) => i.message) });
      continue;
    }
    good.push(parsed.data);
  }
  await db.transaction(async (tx) => {
    for (let i = 0; i < good.length; i += 1000) {
      // the conflict target is the expression index localities_place_key, which drizzle's
      // builder cannot name, so this one statement is written out
      const chunk = good.slice(i, i + 1000);
      const values = sql.join(
        chunk.map((l) => sql`(${l.country}, ${l.locality}, ${l.sublocality ?? null}, ${l.postcode}, ${l.region ?? null}, ${l.latitude ?? null}, ${l.longitude ?? null})`),
        sql`, `,
      );
      const raw = (await tx.execute(sql`
        insert into localities (country, locality, sublocality, postcode, region, latitude, longitude) values ${values}
        on conflict (country, postcode, lower(locality), coalesce(lower(sublocality), ''))
        do update set region = excluded.region, latitude = excluded.latitude, longitude = excluded.longitude
        returning (xmax = 0) as inserted`)) as unknown as { rows?: Array<{ inserted: boolean }> } | Array<{ inserted: boolean }>;
      const result = Array.isArray(raw) ? raw : (raw.rows ?? []);
      created += result.filter((r) => r.inserted).length;
      updated += result.length - result.filter((r) => r.inserted).length;
    }
  });
  return { created, updated, skipped, skipped_total: skippedTotal };
}

export type Place = { locality: string; postcode: string; country: string; sublocality?: string | null };

/** The localities of several places in one query: postcode and locality (or NZ sublocality) must name a real place. */
export async function findPlaces(db: DbOrTx, places: Place[]) {
  if (places.length === 0) return [];
  const rows = await db
    .select()
    .from(localities)
    .where(
      or(
        ...places.map((p) =>
          and(
            eq(localities.country, p.country as never),
            eq(localities.postcode, p.postcode),
            sql`(lower(${localities.locality}) = ${p.locality.toLowerCase()} or lower(${localities.sublocality}) = ${p.locality.toLowerCase()})`,
          ),
        ),
      ),
    );
  const match = (p: Place) =>
    rows.find(
      (r) =>
        r.country === p.country &&
        r.postcode === p.postcode &&
        (r.locality.toLowerCase() === p.locality.toLowerCase() || r.sublocality?.toLowerCase() === p.locality.toLowerCase()),
    ) ?? null;
  return places.map(match);
}
