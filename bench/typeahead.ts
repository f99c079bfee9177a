/**
 * The recipient typeahead at the 200,000-recipient cap (issue 35 item 6, docs/decisions/035):
 * two customers with 200,000 recipients each (names from common first names and surnames, real
 * Australian localities), then the typeahead (addressSelection, in process) for queries found only
 * inside names, codes and localities (the trigram index) and for name prefixes (the btree range),
 * with EXPLAIN ANALYZE of the search inside, beside the same search with the index priced out
 * (what it was before migration 0027) and the floor of a plain indexed lookup (one row by id). Alone, on a fresh database:
 * `DATABASE_URL=postgres://... npx tsx bench/typeahead.ts` (PGlite without it). BENCH_TYPEAHEAD_ROWS
 * sets the book (default 200,000).
 */
import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { migrateDatabase, openDatabase, type Db } from "../db/client.server";
import { createCustomer } from "../db/seed/factories";
import { loadLocalities } from "../db/seed/localities";
import { addressSelection, recipientsHolding } from "../app/modules/localities/localities.server";
import type { CurrentUser } from "../app/modules/auth/current-user.server";
import { rowsOf } from "../app/utils/sql-rows";
import { inProcess, type Stats } from "./measure";

const ROWS = Number(process.env.BENCH_TYPEAHEAD_ROWS ?? 200_000);
const FIRST = ["Olivia", "Jack", "Charlotte", "William", "Amelia", "Noah", "Isla", "Oliver", "Mia", "Thomas", "Grace", "James", "Ava", "Lucas", "Chloe", "Henry", "Zoe", "Leo", "Ruby", "Ethan"];
const LAST = ["Smith", "Jones", "Williams", "Brown", "Wilson", "Taylor", "Johnson", "White", "Martin", "Anderson", "Thompson", "Nguyen", "Thomas", "Walker", "Harris", "Lee", "Ryan", "Robinson", "Kelly", "King"];
const SUFFIX = ["", "", " Pty Ltd", " Trading", " Logistics", " Hardware", " Pharmacy", " Cafe"];
/** infixes: inside a surname, a trade, a locality, a code; and one found nowhere */
const INFIX = ["ilso", "harmac", "ongabba", "ogistic", "R12345", "quokka"];
const PREFIX = ["Charlotte Wil", "Zoe K", "Jack Ta"];

async function fill(db: Db, customerId: number) {
  const text = (words: string[]) => `ARRAY[${words.map((w) => `'${w.replace(/'/g, "''")}'`).join(",")}]`;
  await db.execute(
    sql.raw(`
    with places as (select row_number() over (order by id) - 1 as k, locality, postcode, region from localities where country = 'AUSTRALIA'),
         n as (select count(*) as c from places)
    insert into addresses (customer_id, name, code, address_line_1, locality, postcode, region, country)
    select ${customerId},
      (${text(FIRST)})[1 + i % ${FIRST.length}] || ' ' || (${text(LAST)})[1 + (i / ${FIRST.length}) % ${LAST.length}] || (${text(SUFFIX)})[1 + (i / 7) % ${SUFFIX.length}] || ' ' || i,
      'R' || i, (i % 900) || ' Sample Road', p.locality, p.postcode, p.region, 'AUSTRALIA'
    from generate_series(1, ${ROWS}) as i, n join places p on true
    where p.k = (i * 7919) % n.c`),
  );
}

async function explain(db: Db, query: string, customerId: number, priceOutIndex: boolean): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (priceOutIndex) await tx.execute(sql`set local enable_bitmapscan = off`);
    const rows = rowsOf<Record<string, string>>(await tx.execute(sql`explain analyze ${recipientsHolding(tx, customerId, query, undefined)}`));
    return rows.map((r) => Object.values(r)[0]!);
  });
}

const ms = (s: Stats) => `p50 ${s.p50.toFixed(2)} ms, p95 ${s.p95.toFixed(2)} ms`;

async function main() {
  let url = process.env.DATABASE_URL;
  let dropName: string | undefined;
  if (url) {
    dropName = `fd_bench_typeahead_${randomBytes(4).toString("hex")}`;
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dropName}`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${dropName}`;
    url = u.toString();
  }
  const database = await openDatabase(url ? { url } : { dataDir: "memory://" });
  try {
    await migrateDatabase(database);
    const db = database.db;
    await loadLocalities(db, ["AUSTRALIA"]);
    const [book, other] = [await createCustomer(db, { name: "Bench typeahead" }), await createCustomer(db, { name: "Bench typeahead other" })];
    let t = performance.now();
    await fill(db, book.id);
    await fill(db, other.id);
    await db.execute(sql`analyze addresses`);
    console.log(`${database.kind}: ${ROWS} recipients for each of two customers, filled in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    const user = { customer: { id: book.id }, siteIds: [] } as unknown as CurrentUser;
    const typeahead = (query: string) => addressSelection(db, user, { query, type: "recipient" });
    for (const q of [...INFIX, ...PREFIX]) {
      const found = await typeahead(q);
      const timed = await inProcess(30, () => typeahead(q));
      const plan = await explain(db, q, book.id, false);
      const scan = plan.filter((l) => /Scan on/.test(l)).map((l) => l.trim().replace(/\s+\(cost.*$/, "")).join(", ");
      const exec = plan.find((l) => /Execution Time/.test(l))?.trim();
      console.log(`"${q}": ${found.length} found; typeahead ${ms(timed)}; its search inside: ${scan}; ${exec}`);
    }
    for (const q of INFIX.slice(0, 2)) {
      const before = await explain(db, q, book.id, true);
      console.log(`"${q}" without the index: ${before.find((l) => /Scan on/.test(l))?.trim()}; ${before.find((l) => /Execution Time/.test(l))?.trim()}`);
    }
    // the floor: a plain indexed lookup, one recipient by its key
    const ids = rowsOf<{ id: number }>(await db.execute(sql`select id from addresses where customer_id = ${book.id} order by random() limit 30`));
    const floor = await inProcess(30, (i) => db.execute(sql`select * from addresses where id = ${ids[i]!.id}`));
    console.log(`floor, one recipient by id: ${ms(floor)}`);
    const load = rowsOf<{ l: string }>(await db.execute(sql`select pg_size_pretty(pg_relation_size('addresses_recipient_trgm_idx')) as l`));
    console.log(`trigram index size: ${load[0]!.l}`);
  } finally {
    await database.close();
    if (dropName) {
      const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dropName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
