/**
 * `npx tsx bench/consignment-list.ts`: the consignment list's queries over 100,000 consignments of
 * one customer (and 50,000 of another), against PostgreSQL when DATABASE_URL is set (a fresh
 * database, dropped afterwards), else PGlite. Two spreads: a year of consignments (about 270 a
 * day) and the same number crowded into 30 days (about 3,300 a day). Prints p50/p95 per view
 * and the plans of the slowest queries.
 */
import { eq, sql } from "drizzle-orm";
import { seedDemo } from "../db/seed/demo";
import { consignments, sites, users } from "../db/schema";
import { loadCurrentUser } from "../app/modules/auth/current-user.server";
import { listCounters, listGroupRows, listGroups, listScreen } from "../app/modules/consignments/list.server";
import { apiListConsignments } from "../app/modules/consignments/list-api.server";
import type { GroupKey, SortKey } from "../app/modules/consignments/list";
import { createTestDatabase } from "../tests/support/database";
import { fillConsignments } from "./fixtures";

const test = await createTestDatabase();
const { db } = test.database;

async function time(n: number, fn: () => Promise<unknown>) {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  samples.sort((a, b) => a - b);
  return { p50: samples[Math.floor(n / 2)]!.toFixed(1), p95: samples[Math.floor(n * 0.95)]!.toFixed(1) };
}

try {
  const demo = await seedDemo(db);

  const [u] = await db.select({ id: users.id }).from(users).where(eq(users.email, "despatcher@example.com"));
  const user = (await loadCurrentUser(db, u!.id))!;
  const all = [demo.sites.melbourne.id, demo.sites.sydney.id, demo.sites.losAngeles.id];

  for (const days of [365, 30]) {
    await db.execute(sql`delete from consignments`);
    await fillConsignments(db, demo.acme.id, all, 100_000, days);
    const [tst] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, "TST"));
    await fillConsignments(db, demo.testCustomer.id, [tst!.id], 50_000, days);
    const [{ n }] = (await db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(consignments).where(eq(consignments.customerId, demo.acme.id))) as [{ n: number }];
    console.log(`\n## ${n} consignments of one customer over ${days} days (${test.database.kind})`);

    const scope = (filter: "metadata" | "labels_to_print" | "complete" | "incomplete", dateFilter: "today" | "last_30_days" | "last_7_days") => ({ filter, dateFilter, siteId: null });
    const biggest = async (s: ReturnType<typeof scope>) => (await listGroups(db, user, s)).sort((a, b) => b.count - a.count)[0]!;
    const cases: Array<[string, () => Promise<unknown>]> = [];
    for (const dateFilter of ["today", "last_7_days", "last_30_days"] as const) {
      const s = scope("metadata", dateFilter);
      const g = await biggest(s);
      cases.push([`counters ${dateFilter}`, () => listCounters(db, user, s)]);
      cases.push([`groups metadata ${dateFilter}`, () => listGroups(db, user, s)]);
      cases.push([`screen metadata ${dateFilter}, nothing open`, () => listScreen(db, user, s, { sort: "despatch_date", dir: "desc", open: [], after: {} })]);
      for (const sort of ["despatch_date", "party_name", "weight"] as SortKey[]) {
        cases.push([`rows of the biggest group (${g.count}) ${dateFilter} by ${sort}`, () => listGroupRows(db, user, s, g.key, { sort, dir: "asc" })]);
      }
      const first = await listGroupRows(db, user, s, g.key, { sort: "party_name", dir: "asc" });
      if (first.next) cases.push([`page 2 of the biggest group ${dateFilter} by party_name`, () => listGroupRows(db, user, s, g.key, { sort: "party_name", dir: "asc", after: first.next })]);
      cases.push([`screen metadata ${dateFilter}, every group open`, async () => {
        const groups = await listGroups(db, user, s);
        return listScreen(db, user, s, { sort: "despatch_date", dir: "desc", open: groups.map((x) => x.key as GroupKey), after: {} });
      }]);
      cases.push([`API labels_to_print ${dateFilter} auto_printing`, () => apiListConsignments(db, user, new URLSearchParams({ filter: "labels_to_print", dateFilter, auto_printing: "1" }))]);
      cases.push([`API metadata ${dateFilter} limit 500`, () => apiListConsignments(db, user, new URLSearchParams({ dateFilter, limit: "500" }))]);
    }
    for (const [name, fn] of cases) {
      await fn();
      const t = await time(20, fn);
      console.log(`| ${name} | ${t.p50} ms | ${t.p95} ms |`);
    }
  }
} finally {
  await test.drop();
}
