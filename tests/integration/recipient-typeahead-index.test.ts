import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HOLDING_READ, recipientsHolding } from "../../app/modules/localities/localities.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { createCustomer } from "../../db/seed/factories";
import { createTestDatabase, type TestDatabase } from "../support/database";

/**
 * The recipient typeahead's search inside names, codes and localities (issue 35 item 6, at the
 * 200,000-recipient cap) is served by a trigram index (migration 0027), on PostgreSQL and PGlite
 * alike: the index exists and the typeahead's own query is planned on it. Its timings are the
 * bench's (docs/performance.md); its results are also checked through the API in recipients.test.ts.
 */
let t: TestDatabase;
let book: number;
let other: number;
/** enough that reading the customer's whole book costs the planner more than the index */
const BOOK = 30_000;

beforeAll(async () => {
  t = await createTestDatabase();
  const { db } = t.database;
  [book, other] = [(await createCustomer(db)).id, (await createCustomer(db)).id];
  // two books of names, codes and localities that share few trigrams, and copies on consignments
  for (const [customer, recipient, rows] of [[book, true, BOOK], [other, true, 2_000], [book, false, 2_000]] as const) {
    await db.execute(sql`
      insert into addresses (customer_id, is_recipient, name, code, locality, postcode, country)
      select ${customer}, ${recipient}, 'Name ' || md5(i::text), 'C' || substr(md5('c' || i), 1, 8), upper(substr(md5('l' || i), 1, 10)), '3000', 'AUSTRALIA'
      from generate_series(1, ${rows}) as i`);
  }
  await db.execute(sql`insert into addresses (customer_id, name, code, locality, postcode) values
    (${book}, 'Acme Quokka Supplies', 'QK-1', 'MELBOURNE', '3000'),
    (${book}, 'Quokka Freight', 'QF', 'DARWIN', '0800'),
    (${book}, 'Zed Traders', 'ZQUOKKA9', 'SYDNEY', '2000'),
    (${book}, 'Zed Traders', 'Z1', 'QUOKKAVILLE', '4000'),
    (${other}, 'Other Quokka Co', 'OQ', 'PERTH', '6000')`);
  await db.execute(sql`insert into addresses (customer_id, is_recipient, name, postcode) values (${book}, false, 'Copy of Quokka', '3000')`);
  await db.execute(sql`analyze addresses`);
}, 180_000);
afterAll(() => t.drop());

/**
 * The typeahead's plan for a query. A test's table fits a few hundred pages, which the planner may
 * rightly read whole; with sequential scans priced out it shows what serves the query instead: a
 * condition the index cannot take (a function around a column, a pattern it cannot use) leaves the
 * sequential scan or the customer's whole book on the btree. At the
 * cap the planner picks the index by itself (EXPLAIN ANALYZE at 200,000 in docs/performance.md).
 */
async function plan(query: string): Promise<string> {
  return t.database.db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`);
    const rows = rowsOf<Record<string, string>>(await tx.execute(sql`explain ${recipientsHolding(tx, book, query, undefined)}`));
    return rows.map((r) => Object.values(r)[0]).join("\n");
  });
}

describe("the recipient typeahead's trigram index", () => {
  it("exists, over name, code and locality of recipients", async () => {
    const [index] = rowsOf<{ indexdef: string }>(await t.database.db.execute(sql`select indexdef from pg_indexes where indexname = 'addresses_recipient_trgm_idx'`));
    expect(index?.indexdef).toMatch(/USING gin \(name gin_trgm_ops, code gin_trgm_ops, locality gin_trgm_ops\) WHERE is_recipient/);
  });

  it("serves the typeahead's search inside names, codes and localities", async () => {
    // a word found only inside names, codes and localities: read from the index, not the book
    const quokka = await plan("quokka");
    expect(quokka).toContain("addresses_recipient_trgm_idx");
    expect(quokka).not.toMatch(/Seq Scan on addresses/);
    // the shortest query the typeahead searches (MIN_QUERY)
    expect(await plan("okk")).toContain("addresses_recipient_trgm_idx");
  });

  it("still finds the book's recipients holding the query in any of the three, names that start with it first", async () => {
    const found = await recipientsHolding(t.database.db, book, "QUOKKA", undefined);
    // not the other customer's, not a consignment's copy
    expect(found.map((a) => [a.name, a.code])).toEqual([
      ["Quokka Freight", "QF"],
      ["Acme Quokka Supplies", "QK-1"],
      ["Zed Traders", "ZQUOKKA9"],
      ["Zed Traders", "Z1"],
    ]);
  });

  it(`reads at most ${HOLDING_READ} matches and shows ten of them by name, so a query inside thousands of names answers as fast as a rare one`, async () => {
    const { db } = t.database;
    // one name in a few holds "wombat": far more matches than a page
    await db.execute(sql`
      insert into addresses (customer_id, is_recipient, name, code, locality, postcode, country)
      select ${book}, true, 'Store ' || lpad(i::text, 4, '0') || ' Wombat Hardware', 'W' || i, 'HOBART', '7000', 'AUSTRALIA'
      from generate_series(1, ${HOLDING_READ * 3}) as i`);
    await db.execute(sql`analyze addresses`);
    const plan = rowsOf<Record<string, string>>(await db.execute(sql`explain (analyze, costs off, timing off) ${recipientsHolding(db, book, "wombat", undefined)}`))
      .map((r) => Object.values(r)[0])
      .join("\n");
    // the sort chooses the page from a bounded read, not from every match
    expect(plan).toMatch(/Sort[\s\S]*Limit[\s\S]*(Scan)/);
    const scanned = [...plan.matchAll(/(?:Seq Scan|Bitmap Heap Scan) on addresses[^\n]*actual rows=(\d+)/g)].map((m) => Number(m[1]));
    expect(scanned.length).toBeGreaterThan(0);
    for (const rows of scanned) expect(rows).toBeLessThanOrEqual(HOLDING_READ);

    const found = await recipientsHolding(db, book, "wombat", undefined);
    expect(found).toHaveLength(10);
    expect(found.every((a) => /wombat/i.test(a.name))).toBe(true);
    const names = found.map((a) => a.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });
});
