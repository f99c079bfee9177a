/**
 * The consignment entry rows (issue 4: the screen of a consignment with 10 item lines and its
 * save) and the printing rows (issue 5: labels with a warm browser, a 100-label batch, ZPL).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { eq } from "drizzle-orm";
import { itemTypes } from "../db/schema";
import { todayIn } from "../app/modules/calendar/site-time";
import { labelsOf } from "../app/modules/printing/labels.server";
import { renderLabelsZpl } from "../print-templates/labels/Labels";
import { inProcess, load, loadFrom, tableRows, type Stats, TABLE_HEAD } from "./measure";
import type { Bench } from "./setup";

/** The consignment the entry, printing and despatch rows copy: 10 item lines, despatched in three days. */
export type TenLines = Awaited<ReturnType<typeof benchEntry>>["tenLines"];

export async function benchEntry({ server, client, headers }: Bench) {
  // consignment entry (issue 4): a consignment of 10 item lines, rendered and saved by one caller
  const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
  const tenLines = {
    site_code: "MEL",
    reference: "BENCH",
    despatch_date: todayIn("Australia/Melbourne", new Date(Date.now() + 3 * 86_400_000)),
    sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
    receiver_address: { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
    items: Array.from({ length: 10 }, (_, i) => ({ quantity: 1 + (i % 3), item_type_id: carton!.id, reference: `LINE-${i + 1}`, length: 40, width: 30, height: 20 + i, weight_in_uom: String(5 + i) })),
  };
  const created = await client.json<{ id: number; version: number; state: string }>("/api/consignments", { json: tenLines });
  if (created.status !== 201 || created.body.state !== "despatchable") throw new Error(`consignment create answered ${created.status} ${JSON.stringify(created.body)}`);
  let version = created.body.version;
  const saveOnce = async () => {
    const res = await fetch(`${server.url}/api/consignments/${created.body.id}`, {
      method: "PUT",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ ...tenLines, version, reference: `BENCH-${version}` }),
    });
    if (res.ok) version++;
    return res;
  };
  await load(20, 1, () => fetch(`${server.url}/consignment/${created.body.id}`, { headers: { cookie: client.cookie } }));
  const entry: Array<[string, Stats]> = [
    ["GET /consignment/{id} page (10 item lines, server render), 1 caller", await load(200, 1, () => fetch(`${server.url}/consignment/${created.body.id}`, { headers: { cookie: client.cookie } }))],
    ["PUT /api/consignments/{id} save (10 item lines, re-rated, audited), 1 caller", await load(200, 1, saveOnce)],
  ];
  return { rows: entry, tenLines };
}

export function entrySection(entry: Array<[string, Stats]>): string[] {
  return [
    "## Consignment entry",
    "",
    "Targets (issue 4): server time to render the consignment screen of a consignment with 10 item lines, p95 under 50 ms; save round trip p95 under 50 ms.",
    "",
    ...TABLE_HEAD,
    ...tableRows(entry),
    "",
    ...[
      ["screen render p95 under 50 ms", entry[0]![1].p95 < 50, `${entry[0]![1].p95.toFixed(1)} ms`],
      ["save round trip p95 under 50 ms", entry[1]![1].p95 < 50, `${entry[1]![1].p95.toFixed(1)} ms`],
    ].map(([what, met, value]) => `- ${what}: ${value}, ${met ? "met" : "NOT met"}`),
    "",
    "A save validates, re-prices the consignment on the server (the rate shop's reads and engine), writes",
    "the addresses, the consignment row under its version lock, every item line in one statement and",
    "the audit rows of what changed, in one transaction.",
    "",
  ];
}

export interface PrintingRun {
  labelOnDemand: Stats;
  batch: Stats;
  zpl: Stats;
  /** KiB */
  peakRss: number;
}

export async function benchPrinting({ server, client, despatcher }: Bench, tenLines: TenLines): Promise<PrintingRun> {
  // printing (issue 5): labels with a warm browser, a 100-label batch, ZPL
  const oneLabel = await client.json<{ id: number }>("/api/consignments", { json: { ...tenLines, items: [tenLines.items[0]!].map((i) => ({ ...i, quantity: 1 })) } });
  const hundred = await client.json<{ id: number }>("/api/consignments", { json: { ...tenLines, items: [{ ...tenLines.items[0]!, quantity: 100 }] } });
  for (const id of [oneLabel.body.id, hundred.body.id]) {
    const printed = await fetch(`${server.url}/print/${id}/labels`, { method: "POST", headers: { cookie: client.cookie } });
    if (printed.status !== 200) throw new Error(`printing answered ${printed.status}`);
  }
  // a warm browser: its page pool and caches settled
  await load(30, 1, () => fetch(`${server.url}/print/${oneLabel.body.id}/labels`, { headers: { cookie: client.cookie } }));
  await load(3, 1, () => fetch(`${server.url}/print/${hundred.body.id}/labels`, { headers: { cookie: client.cookie } }));
  // the renderer's Chromium processes, summed, sampled from a process of its own
  const sampler = spawn(process.execPath, [path.join(import.meta.dirname, "rss-peak.mjs"), "chrom(e|ium)"], { stdio: ["pipe", "pipe", "inherit"] });
  let sampled = "";
  sampler.stdout.on("data", (d: Buffer) => (sampled += d.toString()));
  const samplerDone = new Promise((resolve) => sampler.once("close", resolve));
  // the caller in a separate process, so the figures are the server's (and its Chromium's) own
  const printHeaders = { cookie: client.cookie, "accept-encoding": "identity" };
  const labelOnDemand = await loadFrom({ url: `${server.url}/print/${oneLabel.body.id}/labels`, headers: printHeaders, total: 100, concurrency: 1 });
  const batch = await loadFrom({ url: `${server.url}/print/${hundred.body.id}/labels`, headers: printHeaders, total: 40, concurrency: 1 });
  sampler.stdin.end();
  await samplerDone;
  const peakRss = Number(sampled);
  const { labels: hundredLabels } = await labelsOf(server.db, despatcher, hundred.body.id);
  const zpl = await inProcess(200, () => renderLabelsZpl(hundredLabels));
  return { labelOnDemand, batch, zpl, peakRss };
}

export function printingSection({ labelOnDemand, batch, zpl, peakRss }: PrintingRun): string[] {
  const printing: Array<[string, Stats, string]> = [
    ["GET /print/{id}/labels, 1 label (warm browser), 1 caller (separate process)", labelOnDemand, `${labelOnDemand.p95.toFixed(1)} ms p95`],
    ["GET /print/{id}/labels, 100 labels as one PDF, 1 caller (separate process)", batch, `${(batch.p95 / 100).toFixed(2)} ms a label at p95`],
    ["ZPL for 100 labels, in process", zpl, `${((zpl.p95 / 100) * 1000).toFixed(1)} µs a label at p95`],
  ];
  return [
    "## Printing",
    "",
    "Targets (issue 5): one label on demand with a warm browser p95 under 60 ms; a 100-label batch as one PDF under 3 ms a label; ZPL under 0.1 ms a label.",
    "",
    "| what | calls | p50 | p95 | max | per label |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
    ...printing.map(([name, s, per]) => `| ${name} | ${s.n} | ${s.p50.toFixed(2)} | ${s.p95.toFixed(2)} | ${s.max.toFixed(1)} | ${per} |`),
    "",
    ...[
      ["one label p95 under 60 ms", labelOnDemand.p95 < 60, `${labelOnDemand.p95.toFixed(1)} ms`],
      ["100-label batch under 3 ms a label", batch.p95 / 100 < 3, `${(batch.p95 / 100).toFixed(2)} ms`],
      ["ZPL under 0.1 ms a label", zpl.p95 / 100 < 0.1, `${(zpl.p95 / 100).toFixed(4)} ms`],
    ].map(([what, met, value]) => `- ${what}: ${value}, ${met ? "met" : "NOT met"}`),
    `- peak memory of the renderer's Chromium processes (RSS, summed): ${(peakRss / 1024).toFixed(0)} MiB`,
    "",
  ];
}
