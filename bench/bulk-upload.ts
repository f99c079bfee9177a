/**
 * Bulk upload benchmark (issue 17 item 4): a file of BENCH_BULK_CONSIGNMENTS consignments (default
 * 10,000) of three item lines each (30,000 rows) uploaded through the real call (POST
 * /api/bulk_upload/import) and its job run in process: every consignment validated, rated by the
 * engine and saved. Beside it, the floor: the same consignments' addresses, rows and item lines as
 * plain inserts written as the job writes them, no checks and no rating. Alone:
 * `NODE_ENV=production DATABASE_URL=... npx tsx bench/bulk-upload.ts` (after `npx remix build`).
 */
import { eq, sql } from "drizzle-orm";
import { addresses, consignmentItems, consignments, users } from "../db/schema";
import { insertMany } from "../db/insert-many";
import { createMailer } from "../app/modules/mail/mailer.server";
import { rowsOf } from "../app/utils/sql-rows";
import { runJob } from "../queues/queue.server";
import { startTestServer } from "../tests/support/server";
import { prepareBench, type Bench } from "./setup";

type Place = { locality: string; postcode: string; region: string | null };

const HEADER = "site_code,despatch_date,reference,receiver_name,receiver_address_line_1,receiver_locality,receiver_postcode,receiver_region,item_type,quantity,length,width,height,weight,item_reference";

function futureDay(days = 7) {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** `total` consignments of three lines each, to receivers at real places the demo cards rate. */
function bulkCsv(total: number, places: Place[], date: string): string {
  const lines = [HEADER];
  const dmy = date.split("-").reverse().join("/");
  for (let i = 0; i < total; i++) {
    const p = places[i % places.length]!;
    lines.push(`MEL,${dmy},BULK-${i},Receiver ${i},${i % 900} Sample Road,${p.locality},${p.postcode},${p.region ?? ""},Carton,${1 + (i % 3)},40,30,${20 + (i % 10)},${5 + (i % 7)},L${i}-1`);
    lines.push(`,,,,,,,,Carton,1,30,30,30,4,L${i}-2`);
    lines.push(`,,,,,,,,Carton,2,50,40,30,${8 + (i % 5)},L${i}-3`);
  }
  return `${lines.join("\n")}\n`;
}

export interface BulkUploadBench {
  consignments: number;
  rows: number;
  created: number;
  skipped: number;
  uploadSeconds: number;
  jobSeconds: number;
  floorSeconds: number;
}

export async function benchBulkUpload(bench: Bench, total = Number(process.env.BENCH_BULK_CONSIGNMENTS ?? 10_000)): Promise<BulkUploadBench> {
  const { server } = bench;
  await server.db.update(users).set({ canBulkupload: true }).where(eq(users.email, "despatcher@example.com"));
  // places the Melbourne site's services rate to (a zone for each of its carriers)
  const places = rowsOf<Place>(
    await server.db.execute(sql`
      select l.locality, l.postcode, l.region from localities l
      where l.country = 'AUSTRALIA' and exists (select 1 from zones z where z.postcode = l.postcode and z.country = l.country)
      order by l.id limit 500`),
  );
  if (!places.length) throw new Error("no rated places in the demo zones");
  const date = futureDay();
  const csv = bulkCsv(total, places, date);
  const rows = total * 3;

  const t0 = performance.now();
  const res = await fetch(`${server.url}/api/bulk_upload/import?type=consignment&filename=bench.csv`, { method: "POST", body: csv, headers: { cookie: bench.headers.cookie, accept: "application/json", "content-type": "text/csv" } });
  const started = (await res.json()) as { job_id: string };
  const uploadSeconds = (performance.now() - t0) / 1000;
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${JSON.stringify(started)}`);
  const deps = { database: server.test.database, mailer: createMailer(server.db, { from: "bench@freightdesk.local" }), renderer: server.renderer };
  const t1 = performance.now();
  await runJob(deps, "bulk_upload.import", { uploadId: (started as unknown as { bulk_upload_id: number }).bulk_upload_id, jobId: started.job_id });
  const jobSeconds = (performance.now() - t1) / 1000;
  const [job] = rowsOf<{ info: { created: number; skipped_total: number } }>(await server.db.execute(sql`select info from jobs where id = ${started.job_id}`));

  // the floor: the same consignments written as the job writes (addresses, rows, lines), one transaction per 500, nothing else
  const [site] = rowsOf<{ id: number; customer_id: number }>(await server.db.execute(sql`select id, customer_id from sites where code = 'MEL' limit 1`));
  const t2 = performance.now();
  for (let start = 0; start < total; start += 500) {
    const n = Math.min(500, total - start);
    await server.db.transaction(async (tx) => {
      // ids from the sequences, then one JSON-carrying insert per table: the job's own way of writing
      const ids = async (table: string, count: number) => rowsOf<{ id: number }>(await tx.execute(sql`select nextval(pg_get_serial_sequence(${table}, 'id'))::int as id from generate_series(1, ${count})`)).map((r) => Number(r.id));
      const addr = await ids("addresses", n * 2);
      const made = await ids("consignments", n);
      await insertMany(tx, addresses, addr.map((id, k) => ({ id, customerId: site!.customer_id, siteId: site!.id, name: `Floor ${start + (k >> 1)}`, addressLine1: "1 Sample Road", locality: places[k % places.length]!.locality, postcode: places[k % places.length]!.postcode, country: "AUSTRALIA" })));
      await insertMany(tx, consignments, made.map((id, k) => ({ id, customerId: site!.customer_id, siteId: site!.id, reference: `FLOOR-${start + k}`, despatchDate: date, senderAddressId: addr[2 * k]!, receiverAddressId: addr[2 * k + 1]!, state: "despatchable" as const, itemCount: 4, totalWeight: "17", partyName: "Floor" })));
      await insertMany(tx, consignmentItems, made.flatMap((consignmentId) => [0, 1, 2].map((position) => ({ consignmentId, position, quantity: 1, length: "40", width: "30", height: "20", weightInUom: "5" }))));
    });
  }
  const floorSeconds = (performance.now() - t2) / 1000;
  return { consignments: total, rows, created: job?.info.created ?? 0, skipped: job?.info.skipped_total ?? 0, uploadSeconds, jobSeconds, floorSeconds };
}

/** The section of docs/performance.md. */
export async function bulkUploadSection(bench: Bench): Promise<string[]> {
  const r = await benchBulkUpload(bench);
  const n = (x: number) => Math.round(x).toLocaleString("en");
  const total = r.uploadSeconds + r.jobSeconds;
  const rate = r.created / total;
  return [
    "## Bulk upload",
    "",
    `Target (issue 17): a bulk upload of 10,000 consignments (about 30,000 rows) validated, rated and saved at 500 consignments a second or more.`,
    "",
    `- POST /api/bulk_upload/import of ${n(r.consignments)} consignments in ${n(r.rows)} rows (${r.created === r.consignments ? "all" : n(r.created)} created, ${n(r.skipped)} lines skipped): upload ${r.uploadSeconds.toFixed(2)} s, job (parse, group, validate, rate, save in batches of 500) ${r.jobSeconds.toFixed(2)} s; ${n(rate)} consignments/s, ${rate >= 500 ? "met" : "NOT met"}`,
    `- floor: the same number of consignments, their addresses and item lines as plain inserts (one JSON-carrying insert per table, as the job writes, one transaction per 500, no validation, no rating): ${r.floorSeconds.toFixed(2)} s, ${n(r.consignments / r.floorSeconds)} consignments/s`,
    "",
  ];
}

// alone: its own server and bench
if (import.meta.url === `file://${process.argv[1]}`) {
  const os = await import("node:os");
  const server = await startTestServer();
  try {
    const bench = await prepareBench(server);
    console.log(`${new Date().toISOString()} on ${os.cpus().length} x ${os.cpus()[0]?.model}, Node ${process.version}, ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`);
    console.log((await bulkUploadSection(bench)).join("\n"));
  } finally {
    await server.close();
  }
}
