import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { executePrepared } from "../../db/client.server";
import { createTestDatabase, type TestDatabase } from "../support/database";

/**
 * db/client.server.ts executePrepared: a hand-written statement run prepared on PostgreSQL (the
 * public tracking page's) reads exactly what drizzle's `execute` reads, on whichever engine the run
 * uses, again and again on every connection of the pool, and inside a transaction.
 */
let test: TestDatabase;
beforeAll(async () => {
  test = await createTestDatabase();
}, 60_000);
afterAll(() => test.drop());

const query = (n: number, flag: boolean) => sql`
  select g as n, ${n}::int + g as plus, (g % 2 = 0) = ${flag} as matches, now() - now() as zero,
    '2026-11-30 10:00:00+00'::timestamptz as at, '2026-11-30'::date as day, 12.5::numeric as amount,
    json_build_object('g', g, 'when', '2026-11-30T10:00:00Z'::timestamptz) as detail
  from generate_series(1, 3) g order by g`;

const plain = async (db: TestDatabase["database"]["db"], q: ReturnType<typeof query>) => {
  const raw = (await db.execute(q)) as unknown as { rows?: unknown[] } | unknown[];
  return Array.isArray(raw) ? [...raw] : raw.rows;
};

describe("executePrepared", () => {
  it("reads the rows and types drizzle's execute reads, call after call with other values", async () => {
    const db = test.database.db;
    // more calls than the pool has connections, at once: each connection prepares it once
    const calls = Array.from({ length: 24 }, (_, i) => [i, i % 2 === 0] as const);
    const prepared = await Promise.all(calls.map(([n, flag]) => executePrepared(db, query(n, flag))));
    const executed = await Promise.all(calls.map(([n, flag]) => plain(db, query(n, flag))));
    expect(prepared).toEqual(executed);
    expect(prepared[5]).toEqual(executed[5]);
    expect((prepared[5] as Array<{ plus: number }>).map((r) => r.plus)).toEqual([6, 7, 8]);
  });

  it("runs inside a transaction on the transaction's connection", async () => {
    const db = test.database.db;
    await db.execute(sql`create table prepared_probe (id int primary key)`);
    await db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into prepared_probe values (1)`);
        // sees the transaction's own insert, so it ran on its connection
        expect(await executePrepared(tx, sql`select id from prepared_probe where id = ${1}`)).toEqual([{ id: 1 }]);
        throw new Error("roll back");
      })
      .catch(() => {});
    expect(await executePrepared(db, sql`select id from prepared_probe where id = ${1}`)).toEqual([]);
  });
});
