/**
 * Consignment search benchmarks (issue 15): about 1,000,000 consignments in the database, a tenth
 * of them the bench customer's (demo.acme, a year of them over its three sites, with receiver
 * addresses) and the rest spread over three other customers. Measured over HTTP as the signed-in
 * despatcher (Melbourne and Sydney): the header search with varied 3-6 character prefixes of
 * numbers, references and receiver names, and the advanced search over a 2-month range with
 * several criteria and sorts, each beside its floor (an empty request, and the module's query timed
 * in process). BENCH_SEARCH_ROWS sets the total (default 1,000,000). `searchSection` answers the
 * lines of docs/performance.md; bench/run.ts calls it with the bench. Alone:
 * `npx tsx bench/search.ts` (after `npx remix build`), against DATABASE_URL when set, else PGlite.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { createCustomer, createSite } from "../db/seed/factories";
import { advancedSearch } from "../app/modules/search/advanced.server";
import { searchConsignments } from "../app/modules/search/search.server";
import { addMonths } from "../app/modules/despatch/manifest-dates";
import { rowsOf } from "../app/utils/sql-rows";
import { startTestServer } from "../tests/support/server";
import { fillConsignments } from "./fixtures";
import { inProcess, loadFrom, tableRows, type Stats, TABLE_HEAD } from "./measure";
import { prepareBench, type Bench } from "./setup";

const OTHER_CUSTOMERS = 3;
const LOCALITIES = ["BRISBANE", "WOOLLOONGABBA", "PARRAMATTA", "GEELONG", "FREMANTLE", "HOBART", "DARWIN", "BALLARAT"];

/** The data: the bench customer's share and the other customers', then receiver addresses for the bench customer's. */
export async function fillSearchData(db: Db, demo: Bench["demo"], total: number): Promise<{ own: number; others: number }> {
  const own = Math.round(total / 10);
  const { melbourne, sydney, losAngeles } = demo.sites;
  await fillConsignments(db, demo.acme.id, [melbourne.id, sydney.id, losAngeles.id], own, 365);
  const each = Math.round((total - own) / OTHER_CUSTOMERS);
  for (let k = 0; k < OTHER_CUSTOMERS; k++) {
    const customer = await createCustomer(db, { name: `Bench search customer ${k + 1}` });
    const sites = [await createSite(db, customer.id), await createSite(db, customer.id)];
    await fillConsignments(
      db,
      customer.id,
      sites.map((s) => s.id),
      each,
      365,
    );
  }
  // receivers as the screen saves them: an address per consignment, its name the list's party name
  await db.execute(sql`
    with src as (select id, party_name from consignments where customer_id = ${demo.acme.id} and receiver_address_id is null),
    made as (
      insert into addresses (customer_id, is_recipient, name, code, locality, postcode, region, country)
      select ${demo.acme.id}, false, coalesce(party_name, 'Receiver'), 'R' || id,
        (${sql.raw(`array[${LOCALITIES.map((l) => `'${l}'`).join(",")}]`)})[1 + id % ${LOCALITIES.length}], (3000 + id % 900)::text, 'VIC', 'AUSTRALIA'
      from src returning id, code)
    update consignments c set receiver_address_id = made.id from made where c.id = substring(made.code from 2)::int`);
  // the update left a dead version of each of those rows: cleared, as autovacuum would in a day's use
  await db.execute(sql`vacuum analyze consignments`);
  await db.execute(sql`analyze addresses`);
  return { own, others: each * OTHER_CUSTOMERS };
}

/** Header search terms: 3 to 6 character prefixes of the numbers, references and names the despatcher has. */
async function headerTerms(bench: Bench): Promise<string[]> {
  const rows = rowsOf<{ consignment_number: string | null; reference: string | null; party_name: string | null }>(
    await bench.server.db.execute(sql`
      select consignment_number, reference, party_name from consignments
      where customer_id = ${bench.demo.acme.id} and site_id in (${bench.demo.sites.melbourne.id}, ${bench.demo.sites.sydney.id})
      order by random() limit 60`),
  );
  const terms: string[] = [];
  rows.forEach((r, i) => {
    const field = [r.consignment_number, r.reference, r.party_name][i % 3] ?? r.reference ?? "";
    // 3 to 6 characters: a number's first ones are shared by every number, which the walk must bear
    const length = 3 + (i % 4);
    if (field.length >= 3) terms.push(field.slice(0, Math.min(field.length, length)).toLowerCase());
  });
  return terms;
}

/** Advanced search bodies over a 2-month range (the widest allowed): the default and several criteria and sorts. */
function advancedQueries(): Array<Record<string, unknown>> {
  const today = new Date().toISOString().slice(0, 10);
  const from = new Date(Date.parse(`${today}T00:00:00Z`) - 60 * 86_400_000).toISOString().slice(0, 10);
  // the last day before 2 months from `from`
  const to = new Date(Date.parse(`${addMonths(from, 2)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const range = { from_date: from, to_date: to };
  return [
    range,
    { ...range, sort: "receiver_name", dir: "asc" },
    { ...range, state: "despatched", sort: "consignment_number", dir: "desc" },
    { ...range, reference: "PO-12" },
    { ...range, receiver_name: "hardware", sort: "reference", dir: "asc" },
    { ...range, carrier: "NORTHLINE" },
    { ...range, postcode: "30", locality: "geel" },
    { ...range, despatch_type: "return" },
    { ...range, active: false },
  ];
}

export interface SearchBench {
  rows: { own: number; others: number };
  header: Stats;
  headerInProcess: Stats;
  advanced: Stats;
  advancedInProcess: Stats;
  advancedRows: number[];
  floor: Stats;
}

export async function benchSearch(bench: Bench, total = Number(process.env.BENCH_SEARCH_ROWS ?? 1_000_000)): Promise<SearchBench> {
  const { server, headers, despatcher } = bench;
  const rows = await fillSearchData(server.db, bench.demo, total);
  const terms = await headerTerms(bench);
  const http = { ...headers, "accept-encoding": "identity" };
  const urls = terms.map((t) => `${server.url}/api/consignments/search?query=${encodeURIComponent(t)}`);
  const header = await loadFrom({ urls, headers: http, total: 1000, concurrency: 1 });
  const headerInProcess = await inProcess(300, (i) => searchConsignments(server.db, despatcher, { query: terms[i % terms.length] }));
  const queries = advancedQueries();
  const advancedRows = await Promise.all(queries.map(async (q) => (await advancedSearch(server.db, despatcher, q)).consignments.length));
  const bodies = queries.map((query) => JSON.stringify({ query }));
  const advanced = await loadFrom({ url: `${server.url}/api/consignments/advanced_search`, method: "POST", headers: { ...http, "content-type": "application/json" }, bodies, total: 180, concurrency: 1 });
  const advancedInProcess = await inProcess(90, (i) => advancedSearch(server.db, despatcher, queries[i % queries.length]));
  const floor = await loadFrom({ url: `${server.url}/api/users/current`, headers: http, total: 1000, concurrency: 1 });
  return { rows, header, headerInProcess, advanced, advancedInProcess, advancedRows, floor };
}

/** The section of docs/performance.md. */
export async function searchSection(bench: Bench): Promise<string[]> {
  const r = await benchSearch(bench);
  const met = (ok: boolean) => (ok ? "met" : "NOT met");
  const n = (x: number) => x.toLocaleString("en");
  return [
    "## Consignment search",
    "",
    `Targets (issue 15): with ${n(r.rows.own + r.rows.others)} consignments in the database (${n(r.rows.own)} of the bench customer, over a year and three sites), the header search p95 under 20 ms and the advanced search over a 2-month range p95 under 300 ms. Called as the despatcher (two of the three sites).`,
    "",
    ...TABLE_HEAD,
    ...tableRows([
      ["GET /api/consignments/search, 3-6 character prefixes of numbers, references, names, 1 caller (separate process)", r.header],
      ["header search query in process (searchConsignments, no HTTP)", r.headerInProcess],
      [`POST /api/consignments/advanced_search, 2-month range, ${advancedQueries().length} criteria and sorts in turn, 1 caller (separate process)`, r.advanced],
      ["advanced search query in process (advancedSearch, no HTTP)", r.advancedInProcess],
      ["floor: GET /api/users/current, 1 caller (separate process)", r.floor],
    ]),
    "",
    `- header search p95 under 20 ms: ${r.header.p95.toFixed(1)} ms (floor ${r.floor.p95.toFixed(1)} ms), ${met(r.header.p95 < 20)}`,
    `- advanced search over 2 months p95 under 300 ms: ${r.advanced.p95.toFixed(1)} ms (rows answered per criteria: ${r.advancedRows.join(", ")}; at most 500), ${met(r.advanced.p95 < 300)}`,
    "",
    "The header search walks each of the three prefix indexes of migration 0015 (customer, lower(field)",
    "text_pattern_ops) in index order and stops at the tenth row in the user's scope, so a prefix every",
    "number shares costs no more than a rare one. The advanced search reads the customer's rows of the",
    "range by (customer, despatch date), filters and sorts them, and answers at most 500.",
    "",
  ];
}

// alone: its own server and bench
if (import.meta.url === `file://${process.argv[1]}`) {
  const server = await startTestServer();
  try {
    const bench = await prepareBench(server);
    console.log((await searchSection(bench)).join("\n"));
  } finally {
    await server.close();
  }
}
