/**
 * The despatch and consignment list rows (issue 6): 1,000 ready consignments despatched across 3
 * carriers with their manifest report, and the list page over 100,000 consignments of one customer.
 */
import { sql } from "drizzle-orm";
import { listGroups } from "../app/modules/consignments/list.server";
import { createMailer } from "../app/modules/mail/mailer.server";
import { runJob } from "../queues/queue.server";
import type { JobName } from "../queues/definitions";
import type { TenLines } from "./entry-printing";
import { cloneConsignment, fillConsignments } from "./fixtures";
import { loadFrom, tableRows, type Stats, TABLE_HEAD } from "./measure";
import type { Bench } from "./setup";

export type DespatchRun = Awaited<ReturnType<typeof benchDespatch>>;

export async function benchDespatch({ server, client }: Bench, tenLines: TenLines) {
  // despatch (issue 6): 1,000 ready consignments across 3 carriers, then their manifest report as one PDF
  const despatchIds: number[] = [];
  for (const [carrier, service, copies] of [["NORTHLINE", "GEN", 333], ["SIMEX", "ONT", 333], ["auspost", "PP", 331]] as const) {
    const t = await client.json<{ id: number; state: string }>("/api/consignments", {
      json: { ...tenLines, items: tenLines.items.slice(0, 2), carrier_code: carrier, service_code: service, ...(carrier === "SIMEX" ? { pickup_at: `${tenLines.despatch_date} 10:00` } : {}) },
    });
    if (t.body.state !== "despatchable") throw new Error(`despatch template answered ${t.status} ${JSON.stringify(t.body)}`);
    despatchIds.push(t.body.id, ...(await cloneConsignment(server.db, t.body.id, copies)));
  }
  const despatchStart = performance.now();
  const requested = await client.json<{ job_id: string }>("/api/consignments/despatch_all", { method: "PUT", json: { ids: despatchIds } });
  const queuedAt = performance.now();
  // the worker's own work, run here as the worker would run it (its 1 s polling left out)
  const queuedRaw = (await server.db.execute(sql`select name, data from pgboss.job where data->>'jobId' = ${requested.body.job_id}`)) as unknown as { rows?: Record<string, unknown>[] } | Record<string, unknown>[];
  const [queuedJob] = Array.isArray(queuedRaw) ? queuedRaw : (queuedRaw.rows ?? []);
  await runJob({ database: server.test.database, mailer: createMailer(server.db, { from: "bench@freightdesk.local" }), renderer: server.renderer }, queuedJob!.name as JobName, queuedJob!.data as Record<string, unknown>);
  const despatchedAt = performance.now();
  const status = await client.json<{ status: string; info: { manifest_ids: number[]; despatched: number[] } }>(`/api/job_status/${requested.body.job_id}`);
  if (status.body.status !== "complete" || status.body.info.despatched.length !== 1000) throw new Error(`despatch ended ${JSON.stringify(status.body).slice(0, 300)}`);
  const report = await fetch(`${server.url}/print/despatch_manifest_report?ids=${status.body.info.manifest_ids.join(",")}`, { headers: { cookie: client.cookie } });
  const reportBytes = (await report.arrayBuffer()).byteLength;
  if (report.status !== 200) throw new Error(`manifest report answered ${report.status}`);
  const despatchEnd = performance.now();
  const despatch = {
    request: queuedAt - despatchStart,
    job: despatchedAt - queuedAt,
    report: despatchEnd - despatchedAt,
    total: despatchEnd - despatchStart,
    manifests: status.body.info.manifest_ids.length,
    reportKb: Math.round(reportBytes / 1024),
  };
  return despatch;
}

/** The list page's rows; fills the database with the 100,000 consignments first. */
export async function benchList({ server, client, demo, despatcher }: Bench): Promise<Array<[string, Stats]>> {
  // consignment list (issue 6): a customer with 100,000 consignments over a year, server render
  await fillConsignments(server.db, demo.acme.id, [demo.sites.melbourne.id, demo.sites.sydney.id, demo.sites.losAngeles.id], 100_000, 365);
  const today = { filter: "metadata" as const, dateFilter: "today" as const, siteId: null };
  const biggest = (await listGroups(server.db, despatcher, today)).sort((a, b) => b.count - a.count)[0]!;
  // the caller in a separate process (bench/load.mjs), so the figures are the server's own
  const page = (path: string, total = 200) => loadFrom({ url: `${server.url}${path}`, headers: { cookie: client.cookie, "accept-encoding": "identity" }, total, concurrency: 1 });
  await page("/consignments/metadata/today?site=all", 20);
  const list: Array<[string, Stats]> = [
    ["GET /consignments/metadata/today (counters and groups, all sites), 1 caller (separate process)", await page("/consignments/metadata/today?site=all")],
    [`GET /consignments/metadata/today with its biggest group (${biggest.count}) open, 1 caller (separate process)`, await page(`/consignments/metadata/today?site=all&open=${biggest.key}`)],
    ["GET /consignments/metadata/last_30_days, 1 caller (separate process)", await page("/consignments/metadata/last_30_days?site=all")],
    ["GET /consignments/complete/last_7_days (Ready to despatch), 1 caller (separate process)", await page("/consignments/complete/last_7_days?site=all")],
  ];
  return list;
}

export function despatchListSection(despatch: DespatchRun, list: Array<[string, Stats]>): string[] {
  return [
    "## Despatch and the consignment list",
    "",
    "Targets (issue 6): despatch of 1,000 ready consignments across 3 carriers, including the manifest report PDF, under 10 s wall time; the consignment list page of a customer with 100,000 consignments, server p95 under 100 ms.",
    "",
    `Despatch of 1,000 consignments (Northline, Simulated Express, Australia Post; ${despatch.manifests} manifests, numbers allocated at despatch):`,
    "",
    "| step | ms |",
    "| --- | ---: |",
    `| PUT /api/consignments/despatch_all (checks, moves 1,000 to despatching, queues the job) | ${despatch.request.toFixed(0)} |`,
    `| the despatch job (numbers, manifests, carrier adapters, states, history) | ${despatch.job.toFixed(0)} |`,
    `| GET /print/despatch_manifest_report for its manifests (one PDF, ${despatch.reportKb} KiB) | ${despatch.report.toFixed(0)} |`,
    `| total | ${despatch.total.toFixed(0)} |`,
    "",
    "The worker polls its queue every second; that wait is not counted above.",
    "",
    "The list, over 100,000 consignments of one customer spread over a year (about 270 a day) in every state:",
    "",
    ...TABLE_HEAD,
    ...tableRows(list),
    "",
    ...[
      ["despatch of 1,000 with the manifest report under 10 s", despatch.total < 10_000, `${(despatch.total / 1000).toFixed(2)} s`],
      ["list page p95 under 100 ms", Math.max(...list.map(([, s]) => s.p95)) < 100, `${Math.max(...list.map(([, s]) => s.p95)).toFixed(1)} ms at worst`],
    ].map(([what, met, value]) => `- ${what}: ${value}, ${met ? "met" : "NOT met"}`),
    "",
    "`npx tsx bench/consignment-list.ts` measures the list's queries alone, including 100,000 consignments crowded into 30 days.",
    "",
  ];
}
