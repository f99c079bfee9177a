/**
 * @engines: PostgreSQL and PGlite in CI, because the bulk writer's JSON parameter comes back through two drivers (postgres.js, PGlite) with their own types.
 *
 * insertMany (db/insert-many.ts), the bulk writer of bulk upload: rows go in as one JSON parameter
 * and come out as drizzle's insert would leave them: keys a row leaves out take the column's
 * default, JSON stays JSON, numerics and dates keep their values, quotes and backslashes are
 * carried as written; asked to, a row a unique index already holds is skipped (the places' seed).
 */
import { asc, count, inArray, like } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { carriers, invoices } from "../../db/schema";
import { insertMany } from "../../db/insert-many";
import { createTestDatabase, type TestDatabase } from "../support/database";

let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
}, 60_000);
afterAll(() => test.drop());

it("writes rows of different shapes, each key left out taking the column's default", async () => {
  const db = test.database.db;
  await insertMany(db, carriers, [
    { name: `Quote's "carrier"`, code: "IM1", options: { tiers: [1, 2], note: "a\\b" }, generic: false },
    { name: "Plain", code: "IM2" },
    { name: "Also plain", code: "IM3" },
  ]);
  const rows = await db.select().from(carriers).where(inArray(carriers.code, ["IM1", "IM2", "IM3"])).orderBy(asc(carriers.code));
  expect(rows.map((r) => [r.name, r.generic, r.options])).toEqual([
    [`Quote's "carrier"`, false, { tiers: [1, 2], note: "a\\b" }],
    ["Plain", true, {}],
    ["Also plain", true, {}],
  ]);
  expect(rows.every((r) => r.createdAt instanceof Date && r.id > 0)).toBe(true);
});

it("keeps numerics, dates and nulls", async () => {
  const db = test.database.db;
  await insertMany(db, invoices, [
    { accountingType: "payable", invoiceNumber: "IM-1", invoiceDate: "2026-02-28", total: "1234.56" },
    { accountingType: "payable", invoiceNumber: null, invoiceDate: null, total: "0.10" },
  ]);
  const rows = await db.select().from(invoices).orderBy(asc(invoices.id));
  expect(rows.map((r) => [r.invoiceNumber, r.invoiceDate, r.total, r.state])).toEqual([
    ["IM-1", "2026-02-28", "1234.56", "unallocated"],
    [null, null, "0.10", "unallocated"],
  ]);
  await insertMany(db, invoices, []);
  expect(await db.select().from(invoices)).toHaveLength(2);
});

it("with onConflictDoNothing skips a row a unique index already holds and writes the rest; without it the batch fails", async () => {
  const db = test.database.db;
  await insertMany(db, carriers, [{ name: "First", code: "IMU1" }]);
  await expect(insertMany(db, carriers, [{ name: "Again", code: "IMU1" }, { name: "Second", code: "IMU2" }])).rejects.toThrow();
  await insertMany(db, carriers, [{ name: "Again", code: "IMU1" }, { name: "Second", code: "IMU2" }], { onConflictDoNothing: true });
  const rows = await db.select().from(carriers).where(inArray(carriers.code, ["IMU1", "IMU2"])).orderBy(asc(carriers.code));
  expect(rows.map((r) => [r.code, r.name])).toEqual([
    ["IMU1", "First"],
    ["IMU2", "Second"],
  ]);
});

it("writes every row of a batch larger than one statement carries (10,000 rows a statement)", async () => {
  const db = test.database.db;
  const rows = Array.from({ length: 10_003 }, (_, i) => ({ name: `Bulk ${i}`, code: `IMB${i}` }));
  await insertMany(db, carriers, rows);
  const [written] = await db.select({ n: count() }).from(carriers).where(like(carriers.code, "IMB%"));
  expect(written?.n).toBe(10_003);
});
