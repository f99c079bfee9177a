/**
 * The cluster form (issue 30 item 5, docs/decisions/031): two web processes (`npm run web`) and
 * two workers (`npm run worker`) from the build, each on a "host" of its own (working directory
 * and TMPDIR, the old *_DIR settings inside it), over one PostgreSQL database and nothing else.
 * A session, a carrier invoice's file, a customer invoice's PDF, label numbers, a despatch and an
 * export each cross from one process to another; a worker killed mid-job is recovered by the
 * other; SIGTERM lets a request in flight finish. PostgreSQL only: PGlite belongs to one process.
 */
import { execFile } from "node:child_process";
import net from "node:net";
import { promisify } from "node:util";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, consignments, customers, invoices, itemTypes, jobs, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { createDespatchable, futureDate, type DespatchWorld, type Json } from "../support/despatch";
import { makeTemplate, postFiles } from "../support/invoice-import";
import { reconciledLine } from "../support/invoicing";
import { Client, freePort } from "../support/server";
import { filesUnder, makeHost, removeHost, startOn, until, type ClusterProcess, type Host } from "../support/cluster";

const postgres = Boolean(process.env.DATABASE_URL);
if (!postgres) console.warn("cluster.test.ts skipped: the cluster's processes share one PostgreSQL database (set DATABASE_URL); embedded PGlite belongs to one process.");

const run = promisify(execFile);
const root = new URL("../..", import.meta.url).pathname;

describe.skipIf(!postgres)("two web processes and two workers on separate hosts over one PostgreSQL", () => {
  let test: TestDatabase;
  const hosts: Host[] = [];
  let webA: ClusterProcess & { url: string };
  let webB: ClusterProcess & { url: string };
  let workers: Array<ClusterProcess & { healthPort: number }>;
  const db = () => test.database.db;
  /** signed in on A; `onB` is the same session (its cookie) talking to B */
  const on = { A: {} as Record<string, Client>, B: {} as Record<string, Client> };
  let cartonTypeId = 0;
  const web = async (name: string, url: string) => {
    const host = makeHost(name);
    hosts.push(host);
    const port = Number(new URL(url).port);
    const p = startOn(host, "web", { DATABASE_URL: test.database.url!, PORT: String(port), WEB_CONCURRENCY: "1", SEED_DEMO: "0" });
    return Object.assign(p, { url });
  };
  const worker = async (name: string) => {
    const host = makeHost(name);
    hosts.push(host);
    const healthPort = await freePort();
    // a silent job is taken over after 6 s (not 120): the kill below is recovered within the test
    const p = startOn(host, "worker", { DATABASE_URL: test.database.url!, SEED_DEMO: "0", WORKER_HEALTH_PORT: String(healthPort), JOB_STALE_AFTER_SECONDS: "6", JOB_SWEEP_SECONDS: "2" });
    return Object.assign(p, { healthPort });
  };

  /** A job's status as `client` reads it (on whichever web process), once it has ended. */
  const finished = (client: Client, jobId: string) =>
    until(`job ${jobId} ended`, async () => {
      const { body } = await client.json<Json>(`/api/job_status/${jobId}`);
      return body.status === "complete" || body.status === "failed" ? body : null;
    });

  beforeAll(async () => {
    await run("npm", ["run", "build:server", "--silent"], { cwd: root });
    test = await createTestDatabase();
    // the demo, its localities and rates, loaded once here rather than by the first process up
    await seedDemo(db());
    await loadLocalities(db());
    await seedRatingDemo(db());
    // the despatcher may export; one reconciled carrier line of Acme's waits to be invoiced
    await db().update(users).set({ canExport: true }).where(eq(users.email, "despatcher@example.com"));
    const [acme] = await db().select({ id: customers.id }).from(customers).where(eq(customers.name, "Acme Distribution"));
    await reconciledLine(db(), acme!.id);
    cartonTypeId = (await db().select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton")))[0]!.id;
    const [portA, portB] = [await freePort(), await freePort()];
    webA = await web("webA", `http://127.0.0.1:${portA}`);
    webB = await web("webB", `http://127.0.0.1:${portB}`);
    workers = [await worker("worker1"), await worker("worker2")];
    await Promise.all([webA.line(/^FreightDesk listening/), webB.line(/^FreightDesk listening/), ...workers.map((w) => w.line(/^FreightDesk worker .*processing jobs/))]);
    const people = { admin: "admin@example.com", despatcher: "despatcher@example.com", devs: "devs@example.com" };
    for (const [key, email] of Object.entries(people)) {
      const client = new Client(webA.url);
      expect((await client.signIn(email)).status).toBe(200);
      on.A[key] = client;
      on.B[key] = Object.assign(new Client(webB.url), { cookie: client.cookie });
    }
  }, 240_000);

  afterAll(async () => {
    for (const p of [webA, webB, ...(workers ?? [])]) {
      if (p && p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill("SIGKILL");
        await p.exited;
      }
    }
    await test?.drop();
    for (const h of hosts) removeHost(h);
  });

  it("runs the web processes without jobs and each answers /healthz, and /readyz once its renderer is up", async () => {
    expect(webA.lines.join("\n")).toContain("jobs in `npm run worker` (RUN_WORKER=0)");
    for (const url of [webA.url, webB.url, ...workers.map((w) => `http://127.0.0.1:${w.healthPort}`)]) {
      const alive = await fetch(`${url}/healthz`);
      expect([alive.status, alive.headers.get("cache-control")]).toEqual([200, "no-store"]);
    }
    // the check starts a renderer not yet up; Chromium's cold start takes a while on a busy machine
    const ready = await until("web A ready", async () => {
      const res = await fetch(`${webA.url}/readyz`);
      return res.status === 200 ? ((await res.json()) as Json) : null;
    }, 1200, 250);
    expect(ready).toEqual({ ready: true, database: "ok", migrations: "current", renderer: "ready", fileStore: "database" });
    const workerReady = await until("worker 1 ready", async () => (await fetch(`http://127.0.0.1:${workers[0]!.healthPort}/readyz`)).status === 200, 1200, 250);
    expect(workerReady).toBe(true);
  }, 330_000);

  it("takes a session made on web A on web B (sessions are rows, not process memory)", async () => {
    const me = await on.B.admin!.json<Json>("/api/users/current");
    expect(me.status).toBe(200);
    expect(JSON.stringify(me.body)).toContain("admin@example.com");
    expect((await new Client(webB.url).json<Json>("/api/users/current")).status).toBe(401);
  });

  it("prints labels on A and B at once with no consignment number or SSCC twice", async () => {
    const ids: number[] = [];
    for (let n = 0; n < 6; n++) ids.push((await createDespatchable({ cartonTypeId } as DespatchWorld, on.A.despatcher!, "MEL", "NORTHLINE", "GEN")).id as number);
    const batches = [ids, [...ids].reverse(), ids.slice(0, 3), ids.slice(3), [ids[4]!, ids[1]!, ids[5]!], [ids[2]!, ids[0]!]];
    const answers = await Promise.all(
      batches.map(async (set, i) => {
        const client = i % 2 ? on.B.despatcher! : on.A.despatcher!;
        const res = await client.request(`/print/labels?format=zpl&ids=${set.join(",")}`, { method: "POST" });
        return res.status === 200 ? 200 : `${res.status} ${await res.text()}`;
      }),
    );
    expect(answers).toEqual(batches.map(() => 200));
    const printed = await Promise.all(ids.map(async (id) => (await on.B.despatcher!.json<Json>(`/api/consignments/${id}`)).body));
    const numbers = printed.map((p) => p.consignment_number as string);
    const ssccs = printed.flatMap((p) => (p.items as Json[]).flatMap((i) => i.ssccs as string[]));
    expect(numbers.every(Boolean)).toBe(true);
    expect(new Set(numbers).size).toBe(ids.length);
    expect(ssccs).toHaveLength(ids.length * 2);
    expect(new Set(ssccs).size).toBe(ssccs.length);
  }, 120_000);

  let exported: { jobId: string; numbers: string[] } | undefined;
  it("despatches from A (a worker runs it) and exports from B (a worker writes it)", async () => {
    const ids = [];
    for (let n = 0; n < 2; n++) ids.push((await createDespatchable({ cartonTypeId } as DespatchWorld, on.A.despatcher!, "MEL", "NORTHLINE", "GEN")).id as number);
    const res = await on.A.despatcher!.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await finished(on.B.despatcher!, res.body.job_id)).status).toBe("complete");
    const rows = await db().select().from(consignments).where(inArray(consignments.id, ids));
    expect(rows.map((r) => r.state)).toEqual(["despatched", "despatched"]);

    const day = (iso: string) => iso.split("-").reverse().join("/");
    const queued = await on.B.despatcher!.json<Json>("/api/exports?format=csv", { json: { from_date: day(futureDate(0)), to_date: day(futureDate(30)) } });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    expect((await finished(on.A.despatcher!, queued.body.job_id)).status).toBe("complete");
    exported = { jobId: queued.body.job_id as string, numbers: rows.map((r) => r.consignmentNumber!) };
  }, 120_000);

  it("downloads on A the export a worker wrote for B", async () => {
    const file = await on.A.despatcher!.request(`/api/exports/${exported!.jobId}/download`);
    expect(file.status).toBe(200);
    const text = await file.text();
    for (const n of exported!.numbers) expect(text).toContain(n);
  });

  it("imports a carrier invoice uploaded to A in a worker, and gives its original file back on B", async () => {
    const [carrier] = await db().select({ id: carriers.id }).from(carriers).limit(1);
    const configId = await makeTemplate(on.A.admin!, {
      name: "Cluster CSV",
      carrier_id: carrier!.id,
      format: "CSV",
      transformations: [
        { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
        { type: "MapFields", options: { mappings: [{ field: "invoice_number", column: "Inv" }, { field: "invoice_date", column: "Date" }, { field: "consignment_number", column: "Con" }], costs: [{ category: "freight_charge", column: "Freight" }] } },
      ],
    });
    const CSV = "Inv,Date,Con,Freight\nCL-1,2026-02-03,CLCN1,12.50\n";
    const res = await postFiles(on.A.admin!, "/api/invoices/import", { config_id: String(configId) }, [{ name: "cluster.csv", body: CSV }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await finished(on.B.admin!, res.body.job_id);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    const [made] = await db().select().from(invoices).where(eq(invoices.configId, configId));
    const file = await on.B.admin!.request(`/api/invoices/${made!.id}/original_file`);
    expect(file.status).toBe(200);
    expect(await file.text()).toBe(CSV);
  }, 120_000);

  it("invoices a customer on B (a worker renders the PDF) and opens the PDF on A", async () => {
    const lines = await on.A.admin!.json<Json>("/api/invoice_details?state=invoiceable&accounting_type=payable&per_page=150");
    const ids = (lines.body.invoice_details as Json[]).map((d) => d.id as number);
    expect(ids.length).toBeGreaterThan(0);
    const res = await on.B.admin!.json<Json>("/api/invoices", { method: "POST", json: { invoice_detail_ids: ids } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await finished(on.A.admin!, res.body.job_id);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    const [made] = await db().select().from(invoices).where(eq(invoices.accountingType, "receivable"));
    const pdf = await on.A.admin!.request(`/api/invoices/${made!.id}/original_file`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
  }, 180_000);

  it("keeps no document in any host's temporary directory", () => {
    for (const h of hosts) expect({ host: h.name, files: [h.env.INVOICE_FILES_DIR, h.env.EXPORTS_DIR, h.env.BULK_UPLOADS_DIR].flatMap((d) => filesUnder(d!)) }).toEqual({ host: h.name, files: [] });
  });

  it("recovers a job whose worker is killed (SIGKILL) mid-despatch: the other worker's sweeper finishes it", async () => {
    const create = (carrier: string, service: string) => createDespatchable({ cartonTypeId } as DespatchWorld, on.A.despatcher!, "MEL", carrier, service);
    const ids = [
      (await create("NORTHLINE", "GEN")).id as number,
      (await create("NORTHLINE", "GEN")).id as number,
      (await create("SIMEX", "ONT")).id as number,
    ];
    // the simulated carrier (its settings are a row: every process sees them) answers slowly
    expect((await on.A.devs!.json<Json>("/api/carriers/SIMEX/simulation", { method: "PUT", json: { delay_ms: 60_000 } })).status).toBe(200);
    const res = await on.A.despatcher!.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const jobId = res.body.job_id as string;
    const jobRow = async () => (await db().select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    const midway = await until("the Northline manifest despatched", async () => {
      const row = await jobRow();
      return row.message === "Despatched 2 of 3 Consignments" ? row : null;
    });
    // the worker holding it, by the pid in its worker id (host:pid:random)
    const pid = Number(midway.workerId!.split(":")[1]);
    const victim = workers.find((w) => w.child.pid === pid)!;
    expect(victim).toBeDefined();
    victim.child.kill("SIGKILL");
    expect((await victim.exited).signal).toBe("SIGKILL");
    await on.B.devs!.json<Json>("/api/carriers/SIMEX/simulation", { method: "PUT", json: { delay_ms: 0 } });

    const status = await finished(on.B.despatcher!, jobId);
    expect(status.status, JSON.stringify(status)).toBe("complete");
    const done = await jobRow();
    expect(done.attempts).toBe(2);
    expect(done.workerId!.split(":")[1]).toBe(String(workers.find((w) => w !== victim)!.child.pid));
    const rows = await db().select().from(consignments).where(inArray(consignments.id, ids));
    expect(rows.every((r) => r.state === "despatched")).toBe(true);
  }, 120_000);

  it("on SIGTERM a web process answers the request in flight, then exits 0; so does a worker", async () => {
    // a sign-in whose body is still arriving when SIGTERM comes
    const socket = net.connect(Number(new URL(webB.url).port), "127.0.0.1");
    const body = JSON.stringify({ user: { email: "admin@example.com", password: "Demo-password-12", remember_me: 0 } });
    socket.write(`POST /users/sign_in HTTP/1.1\r\nHost: ${new URL(webB.url).host}\r\nContent-Type: application/json\r\nAccept: application/json\r\nX-Requested-With: XMLHttpRequest\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`);
    let answer = "";
    socket.on("data", (d) => (answer += d.toString()));
    const closed = new Promise((resolve) => socket.on("close", resolve));
    await new Promise((r) => setTimeout(r, 200));
    webB.child.kill("SIGTERM");
    await webB.line(/^SIGTERM: shutting down$/);
    socket.write(body.slice(10));
    await closed;
    expect(answer.split("\r\n")[0]).toBe("HTTP/1.1 200 OK");
    expect(await webB.exited).toEqual({ code: 0, signal: null });
    expect(webB.lines).toContain("stopped (requests in flight answered)");

    const survivor = workers.find((w) => w.child.exitCode === null && w.child.signalCode === null)!;
    survivor.child.kill("SIGTERM");
    expect(await survivor.exited).toEqual({ code: 0, signal: null });
    expect(survivor.lines).toContain("FreightDesk worker stopped");
  }, 60_000);
});
