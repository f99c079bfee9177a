/**
 * Reconciliations list benchmark (issue 19): BENCH_RECONCILIATIONS reconciliations (default
 * 1,000,000), each on its own invoice line (1,000 lines an invoice), written by generate_series with
 * a realistic spread: 60 % reconciled, 30 % Un-Reconciled, 10 % disputed; reasons on the open
 * lines; three carriers; the demo's customers, one of them with a third of the lines. Measured
 * in process through the list's own functions (listReconciliations and listMeta, the GET
 * /api/reconciliations and its meta_data variant): every tab, each filter and each sort, as an
 * admin (all customers) and as a customer's finance user. Beside it, the floor: a plain indexed
 * `select ... where state = ... order by id limit 20` on the same table. Target: p95 < 100 ms.
 * `reconciliationsListSection` answers the lines of docs/performance.md; alone:
 * `NODE_ENV=production DATABASE_URL=... BENCH_RECONCILIATIONS=20000 npx tsx bench/reconciliations-list.ts`.
 */
import os from "node:os";
import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.server";
import { users } from "../db/schema";
import { seedDemo } from "../db/seed/demo";
import { loadCurrentUser, type CurrentUser } from "../app/modules/auth/current-user.server";
import { listMeta, listReconciliations } from "../app/modules/reconciliation/list.server";
import { rowsOf } from "../app/utils/sql-rows";
import { createTestDatabase } from "../tests/support/database";
import { inProcess, tableRows, type Stats } from "./measure";

const N = Number(process.env.BENCH_RECONCILIATIONS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RECONCILIATIONS_RUNS ?? 20);
const PER_INVOICE = 1000;
const TARGET_MS = 100;

/** Fills the tables: invoices, their lines and a reconciliation per line, all in SQL. */
export async function fill(db: Db) {
  const carrierIds = rowsOf<{ id: number }>(await db.execute(sql`select id from carriers order by id limit 3`)).map((r) => r.id);
  const customerIds = rowsOf<{ id: number }>(await db.execute(sql`select id from customers order by id`)).map((r) => r.id);
  const carriers = sql.raw(`array[${carrierIds.join(",")}]`);
  const customers = sql.raw(`array[${customerIds.join(",")}]`);
  const invoices = Math.ceil(N / PER_INVOICE);
  await db.execute(sql`
    insert into invoices (accounting_type, invoice_number, carrier_id, state, total)
    select 'payable', 'RB-' || lpad(g::text, 6, '0'), (${carriers})[1 + g % ${carrierIds.length}], 'allocated', 0 from generate_series(1, ${invoices}) g`);
  const [first] = rowsOf<{ id: number }>(await db.execute(sql`select min(id) as id from invoices where invoice_number like 'RB-%'`));
  // one customer holds a third of the lines (the finance user's), the rest spread
  await db.execute(sql`
    insert into invoice_details (invoice_id, line_number, carrier_id, customer_id, state, consignment_number, sender_zone, receiver_zone, total_charge_weight, total_cost)
    select ${first!.id} + (g - 1) / ${PER_INVOICE}, g, (${carriers})[1 + ((g - 1) / ${PER_INVOICE}) % ${carrierIds.length}],
      case when g % 3 = 0 then ${customerIds[0]!} else (${customers})[1 + g % ${customerIds.length}] end,
      'allocated', 'RBC' || lpad(g::text, 8, '0'),
      (array['MEL','SYD','BNE','ADL','PER','HBA','DRW','CBR'])[1 + g % 8], (array['MEL','SYD','BNE','ADL','PER','HBA','DRW','CBR'])[1 + (g / 8) % 8],
      round(((g % 500) / 4.0)::numeric, 3), 10 + (g % 200)
    from generate_series(1, ${N}) g`);
  await db.execute(sql`
    insert into reconciliations (invoice_detail_id, customer_id, carrier_id, state, reason_categories, rated_buy, invoiced, discrepancy_amount, margin, margin_percent, reconciled_at)
    select d.id, d.customer_id, d.carrier_id,
      case when d.line_number % 10 < 6 then 'reconciled' when d.line_number % 10 < 9 then 'reconciling' else 'disputed' end,
      case when d.line_number % 10 < 6 then '{}'::text[]
        else string_to_array((array['zone', 'check_wt_vol', 'surcharge', 'incorrect_rate', 'zone,check_wt_vol', 'service', 'failed_to_rate'])[1 + d.line_number % 7], ',') end,
      d.total_cost - (d.line_number % 13), d.total_cost, (d.line_number % 13), ((d.line_number % 41) - 10), 12.5,
      case when d.line_number % 10 < 6 then now() end
    from invoice_details d where d.consignment_number like 'RBC%'`);
  // as autovacuum leaves a table at rest: statistics, and the visibility map that lets the counts
  // read the indexes alone
  for (const table of ["invoices", "invoice_details", "reconciliations"]) await db.execute(sql.raw(`vacuum analyze ${table}`));
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from reconciliations`)) as [{ n: number }];
  return { invoices, reconciliations: Number(n), firstInvoice: first!.id, customer: customerIds[1] ?? customerIds[0]! };
}

type Case = [string, Record<string, unknown>];

function cases(firstInvoice: number, customerId: number): Case[] {
  const out: Case[] = [];
  for (const state of ["reconciling", "disputed", "reconciled"]) out.push([`tab ${state}`, { state }]);
  out.push(
    ["filter carrier_code", { carrier_code: "NORTHLINE" }],
    ["filter customer_id", { customer_id: customerId }],
    ["filter reasons (2)", { reasons: "surcharge,service" }],
    ["filter invoice_id", { invoice_id: firstInvoice + 7 }],
    ["filter consignment_number (prefix)", { consignment_number: "RBC0000123" }],
    ["filter invoice_number (prefix)", { invoice_number: "RB-00012" }],
    ["filter from_zone", { from_zone: "PER" }],
    ["filter to_zone", { to_zone: "HBA" }],
    ["filter weight", { weight: 42.5 }],
    ["filter margin", { margin: 12 }],
    ["filter discrepancy", { discrepancy: 7 }],
    ["page 50", { page: 50 }],
  );
  for (const order_by of ["consignment_number", "invoice_number", "from_zone", "to_zone", "weight", "margin", "discrepancy"]) {
    for (const order_direction of ["asc", "desc"]) out.push([`sort ${order_by} ${order_direction}`, { order_by, order_direction }]);
  }
  return out;
}

export interface ListRun {
  size: { invoices: number; reconciliations: number };
  rows: Array<{ who: string; name: string; list: Stats; meta: Stats }>;
  floor: Stats;
}

/** The list and its meta_data over every case, as an admin and as a customer's finance user. */
export async function benchReconciliationsList(): Promise<ListRun> {
  const test = await createTestDatabase();
  const db = test.database.db;
  try {
    await seedDemo(db);
    const size = await fill(db);
    const who: Array<[string, CurrentUser]> = [];
    for (const email of ["admin@example.com", "finance@example.com"]) {
      const [u] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
      who.push([email.split("@")[0]!, (await loadCurrentUser(db, u!.id))!]);
    }
    const rows: ListRun["rows"] = [];
    for (const [name, query] of cases(size.firstInvoice, size.customer)) {
      for (const [label, user] of who) {
        // warm once: the first call of a shape plans it
        await listReconciliations(db, user, query);
        rows.push({ who: label, name, list: await inProcess(RUNS, () => listReconciliations(db, user, query)), meta: await inProcess(RUNS, () => listMeta(db, user, { ...query, meta_data: true })) });
      }
    }
    const floor = await inProcess(RUNS, () => db.execute(sql`select id, state, margin from reconciliations where state = 'reconciling' order by id desc limit 20`));
    return { size, rows, floor };
  } finally {
    await test.drop();
  }
}

export function reconciliationsListLines(run: ListRun, kind: string): string[] {
  const worst = Math.max(...run.rows.map((r) => Math.max(r.list.p95, r.meta.p95)));
  const over = run.rows.filter((r) => r.list.p95 >= TARGET_MS || r.meta.p95 >= TARGET_MS);
  return [
    `${kind}, ${run.size.reconciliations.toLocaleString("en")} reconciliations on ${run.size.invoices.toLocaleString("en")} invoices; ${RUNS} calls a case, in process.`,
    "",
    "| case | calls | p50 ms | p95 ms | max ms | calls/s | share of floor |",
    "|---|---|---|---|---|---|---|",
    ...tableRows(run.rows.flatMap((r): Array<[string, Stats]> => [[`${r.name} (${r.who}): list`, r.list], [`${r.name} (${r.who}): meta_data`, r.meta]])),
    ...tableRows([["floor: indexed select ... limit 20", run.floor]]),
    "",
    `Worst p95 ${worst.toFixed(1)} ms against the target ${TARGET_MS} ms; ${over.length ? `over it: ${over.map((r) => `${r.name} (${r.who})`).join(", ")}` : "every case within it"}.`,
  ];
}

export async function reconciliationsListSection(): Promise<string[]> {
  const run = await benchReconciliationsList();
  return [
    "## Finance: the reconciliations list",
    "",
    `Target (issue 19): GET /api/reconciliations with 1,000,000 rows p95 under ${TARGET_MS} ms for any tab, filter and sort. Measured by \`bench/reconciliations-list.ts\` through the list's own functions (the page, and the meta_data counts and totals) on a database of its own.`,
    "",
    ...reconciliationsListLines(run, process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"),
    "",
  ];
}

// alone
if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(`${new Date().toISOString()} on ${os.cpus().length} x ${os.cpus()[0]?.model}, Node ${process.version}`);
  const run = await benchReconciliationsList();
  console.log(reconciliationsListLines(run, process.env.DATABASE_URL ? "PostgreSQL" : "PGlite").join("\n"));
  process.exit(0);
}
