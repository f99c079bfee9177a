/**
 * Allocation benchmark (issue 18 item 6): one payable invoice of BENCH_ALLOCATION_LINES lines
 * (default 50,000), four in five matching a consignment by number and the rest allocated through
 * a Lookup rule (account number to the carrier account), allocated by the job's own function.
 * Beside it, the floor: a plain UPDATE ... FROM of the same rows against the same consignments.
 * Target: under 5 s. `allocationSection` answers the lines of docs/performance.md (bench/run.ts);
 * alone: `NODE_ENV=production DATABASE_URL=... npx tsx bench/allocation.ts`.
 */
import os from "node:os";
import { sql } from "drizzle-orm";
import { seedDemo } from "../db/seed/demo";
import { runAllocation } from "../app/modules/allocation/allocate.server";
import { rowsOf } from "../app/utils/sql-rows";
import { createTestDatabase } from "../tests/support/database";

const total = Number(process.env.BENCH_ALLOCATION_LINES ?? 50_000);

type AllocationRun = { total: number; matched: number; jobSeconds: number; floorSeconds: number; allocated: number; failed: number };

/** The allocation job and its floor, on a database of its own with the demo. */
export async function benchAllocation(): Promise<AllocationRun> {
  const test = await createTestDatabase();
  const db = test.database.db;
  try {
    await seedDemo(db);
    const [a] = rowsOf<{ id: number; carrier_id: number; site_id: number; customer_id: number; service_id: number; account_number: string }>(
      await db.execute(sql`select a.id, a.carrier_id, a.site_id, s.customer_id, (select id from services where carrier_id = a.carrier_id order by id limit 1) as service_id, a.account_number
        from carrier_accounts a join sites s on s.id = a.site_id order by a.id limit 1`),
    );
    if (!a) throw new Error("the demo has no carrier account");
    const matched = Math.floor(total * 0.8);
    await db.execute(sql`
      insert into consignments (customer_id, site_id, consignment_number, carrier_account_id, service_id, state)
      select ${a.customer_id}, ${a.site_id}, 'BENCH' || g, ${a.id}, ${a.service_id}, 'despatched' from generate_series(1, ${matched}) g`);
    const [inv] = rowsOf<{ id: number }>(await db.execute(sql`insert into invoices (accounting_type, invoice_number, carrier_id) values ('payable', 'BENCH-ALLOC', ${a.carrier_id}) returning id`));
    await db.execute(sql`
      insert into invoice_details (invoice_id, line_number, carrier_id, consignment_number, account_number, total_cost)
      select ${inv!.id}, g, ${a.carrier_id}, case when g <= ${matched} then 'BENCH' || g else 'UNKNOWN' || g end, ${a.account_number}, 12.5 from generate_series(1, ${total}) g`);
    await db.execute(sql`
      insert into allocation_rules (carrier_id, allocation_model, type, options) values
        (${a.carrier_id}, 'Customer', 'Lookup', '{"from_matcher":{"field":"account_number"},"to_matcher":{"model":"Account","field":"account_number"}}'),
        (${a.carrier_id}, 'Site', 'Lookup', '{"from_matcher":{"field":"account_number"},"to_matcher":{"model":"Account","field":"account_number"}}')`);
    await db.execute(sql`analyze`);

    const t0 = performance.now();
    const result = await runAllocation(db, { invoiceIds: [inv!.id], invoiceDetailIds: [] }, async () => {});
    const jobSeconds = (performance.now() - t0) / 1000;

    await db.execute(sql`update invoice_details set state = 'unallocated', customer_id = null, site_id = null, service_id = null, consignment_id = null, allocated_by = null where invoice_id = ${inv!.id}`);
    const t1 = performance.now();
    await db.execute(sql`
      update invoice_details d set consignment_id = c.id, customer_id = c.customer_id, site_id = c.site_id, service_id = c.service_id, state = 'allocated'
      from consignments c where d.invoice_id = ${inv!.id} and c.consignment_number = d.consignment_number`);
    const floorSeconds = (performance.now() - t1) / 1000;

    return { total, matched, jobSeconds, floorSeconds, allocated: result.allocated, failed: result.failed };
  } finally {
    await test.drop();
  }
}

export function allocationLines(r: AllocationRun): string[] {
  return [
    `- the allocation job's function on one invoice of ${r.total.toLocaleString("en")} lines, ${r.matched.toLocaleString("en")} matched to a consignment by number (one UPDATE ... FROM) and ${(r.total - r.matched).toLocaleString("en")} through two Lookup rules (account number to the carrier account, in memory, written back in chunks of 5,000 by UPDATE ... FROM jsonb_to_recordset), then the customers' invoice_allocate_by check and the invoice's state: ${r.jobSeconds.toFixed(2)} s (${r.allocated} allocated, ${r.failed} failed) against < 5 s: ${r.jobSeconds < 5 ? "met" : "NOT met"}`,
    `- floor: a plain UPDATE ... FROM consignments of the ${r.matched.toLocaleString("en")} matching rows: ${r.floorSeconds.toFixed(2)} s; the job costs ${(r.jobSeconds / r.floorSeconds).toFixed(1)} times the floor while doing ${(r.total / r.matched).toFixed(2)} times its rows`,
  ];
}

/** The section of docs/performance.md (bench/run.ts). */
export async function allocationSection(): Promise<string[]> {
  const run = await benchAllocation();
  return [
    "## Allocation",
    "",
    "Target (issue 18): allocation of 50,000 invoice lines under 5 s. Measured by `bench/allocation.ts` on a database of its own with the demo.",
    "",
    ...allocationLines(run),
    "",
    "Most of the time is PostgreSQL rewriting rows (every updated line is a new row version, and the",
    "lines have four indexes). What would buy more: fewer indexes touched per update (state is the only",
    "indexed column allocation changes) and a fill factor on invoice_details that lets updates stay on",
    "the page (HOT).",
    "",
  ];
}

// alone
if (import.meta.url === `file://${process.argv[1]}`) {
  const cpu = os.cpus();
  console.log(`machine: ${cpu.length} x ${cpu[0]?.model ?? "cpu"}, Node ${process.version}, ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}; ${new Date().toISOString().slice(0, 10)}`);
  const run = await benchAllocation();
  console.log(allocationLines(run).join("\n"));
  process.exit(0);
}
