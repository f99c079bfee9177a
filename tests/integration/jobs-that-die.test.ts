/**
 * Issue 12 finding 2: a worker killed (SIGKILL) in the middle of a despatch must not strand its
 * consignments. Real worker processes (tests/support/worker.ts) over the test database; the
 * simulated carrier is told to be slow so the kill lands mid-job, after some manifests committed.
 * Needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { consignmentChanges, jobs } from "../../db/schema";
import { JOB_STOPPED, MAX_RUNS } from "../../app/modules/jobs/jobs.server";
import { runJob, sweepStaleJobs } from "../../queues/queue.server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

const root = path.resolve(import.meta.dirname, "../..");
const postgres = Boolean(process.env.DATABASE_URL);
let world: DespatchWorld;
const workers: ChildProcess[] = [];

/** A worker process of its own; resolves once it processes jobs. */
async function startWorker(env: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "tests/support/worker.ts"], {
    cwd: root,
    env: { ...process.env, ...env, DATABASE_URL: world.server.test.database.url! },
    stdio: ["ignore", "pipe", "inherit"],
  });
  workers.push(child);
  let out = "";
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("ready")) resolve();
    });
    child.once("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready: ${out}`)));
  });
  return child;
}

async function kill(child: ChildProcess) {
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  const [code, signal] = await exited;
  expect(signal ?? code).toBe("SIGKILL");
}

const jobRow = async (id: string) => (await world.server.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

/** Polls the job row until `done` holds (a guard against hanging, not a timed assertion). */
async function until(id: string, done: (row: Awaited<ReturnType<typeof jobRow>>) => boolean) {
  for (let i = 0; i < 600; i++) {
    const row = await jobRow(id);
    if (done(row)) return row;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${id} never reached the awaited state: ${JSON.stringify(await jobRow(id))}`);
}

const stateHistory = async (ids: number[]) =>
  world.server.db
    .select({ id: consignmentChanges.consignmentId, from: consignmentChanges.fromValue, to: consignmentChanges.toValue, by: consignmentChanges.changedBy })
    .from(consignmentChanges)
    .where(and(inArray(consignmentChanges.consignmentId, ids), eq(consignmentChanges.field, "state")))
    .orderBy(consignmentChanges.id);

/** The sweeper of a worker in this process, its clock `minutes` ahead. */
const sweepAt = (minutes: number) => sweepStaleJobs(world.deps, { workerId: "test-sweeper", now: new Date(Date.now() + minutes * 60_000) });

beforeAll(async () => {
  world = await support.startDespatchWorld();
}, 120_000);
afterEach(async () => {
  for (const w of workers.splice(0)) if (w.exitCode === null && w.signalCode === null) await kill(w);
  await support.simulate(world, { delay_ms: 0, fail_despatch: false });
});
afterAll(() => world.server.close());

describe.skipIf(!postgres)("a worker killed in the middle of a despatch", () => {
  it("strands nothing: another worker's sweeper resumes the job, which despatches each consignment exactly once", async () => {
    const { despatcher } = world.clients;
    const create = (site: "MEL" | "SYD", carrier: string, service: string) => support.createDespatchable(world, despatcher, site, carrier, service);
    // three manifests: Melbourne and Sydney Northline first, then the (slow) simulated carrier
    const created = [
      await create("MEL", "NORTHLINE", "GEN"),
      await create("MEL", "NORTHLINE", "GEN"),
      await create("SYD", "NORTHLINE", "GEN"),
      await create("SYD", "NORTHLINE", "GEN"),
      await create("MEL", "SIMEX", "ONT"),
      await create("MEL", "SIMEX", "ONT"),
    ];
    const ids = created.map((c) => c.id as number);
    await support.simulate(world, { delay_ms: 60_000 });
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const jobId = res.body.job_id as string;

    const worker = await startWorker();
    await until(jobId, (r) => r.message === "Despatched 4 of 6 Consignments");
    await kill(worker);

    // what the crash left: the simulated carrier's two still despatching, the job "working"
    expect((await support.rowsOf(world, ids)).map((r) => r.state)).toEqual(["despatched", "despatched", "despatched", "despatched", "despatching", "despatching"]);
    const dead = await jobRow(jobId);
    expect(dead).toMatchObject({ status: "working", pctComplete: 67, attempts: 1 });
    // a redelivery while the heartbeat is fresh does nothing, and nor does a sweep now: a live
    // worker may only be slow
    const queued = await support.queuedJob(world, jobId);
    expect(await runJob(world.deps, queued.name, queued.data)).toBe("skipped");
    expect(await sweepAt(0)).toEqual({ resumed: [], givenUp: [] });

    // past the staleness bound another worker's sweeper runs it again, from where it stopped
    await support.simulate(world, { delay_ms: 0 });
    expect(await sweepAt(3)).toEqual({ resumed: [jobId], givenUp: [] });
    const rows = await support.rowsOf(world, ids);
    expect(rows.every((r) => r.state === "despatched")).toBe(true);
    expect(new Set(rows.map((r) => r.manifestId)).size).toBe(3);
    expect(new Set(rows.map((r) => r.consignmentNumber)).size).toBe(6);
    const done = await jobRow(jobId);
    expect(done).toMatchObject({ status: "complete", pctComplete: 100, message: "Your consignments have been despatched.", attempts: 2 });
    // each consignment despatched once: one despatchable->despatching, one despatching->despatched
    const history = await stateHistory(ids);
    for (const id of ids) expect(history.filter((h) => h.id === id).map((h) => `${h.from}->${h.to}`)).toEqual(["despatchable->despatching", "despatching->despatched"]);
    // and pg-boss's own retry of the dead delivery, when it comes, changes nothing
    expect(await runJob(world.deps, queued.name, queued.data)).toBe("skipped");
  }, 120_000);

  it(`a job whose workers die ${MAX_RUNS} times is given up: the job fails saying why and its consignments can be despatched again`, async () => {
    const { despatcher } = world.clients;
    const fine = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    const slow = await support.createDespatchable(world, despatcher, "MEL", "SIMEX", "ONT");
    const ids = [fine.id as number, slow.id as number];
    await support.simulate(world, { delay_ms: 60_000 });
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
    const jobId = res.body.job_id as string;

    const first = await startWorker();
    await until(jobId, (r) => r.message === "Despatched 1 of 2 Consignments");
    const firstOwner = (await jobRow(jobId)).workerId;
    await kill(first);
    // a second worker, told to judge a silent job dead after 4 s, takes it over and dies too
    const second = await startWorker({ WORKER_STALE_AFTER_SECONDS: "4", WORKER_SWEEP_SECONDS: "1" });
    const resumed = await until(jobId, (r) => r.attempts === 2);
    expect(resumed.workerId).not.toBe(firstOwner);
    await kill(second);

    expect(await sweepAt(3)).toEqual({ resumed: [], givenUp: [jobId] });
    const [fineRow, slowRow] = await support.rowsOf(world, ids);
    expect(fineRow!.state).toBe("despatched");
    // it never reached the carrier (no manifest): despatchable again, the change by no user
    expect(slowRow).toMatchObject({ state: "despatchable", manifestId: null });
    expect((await stateHistory([slowRow!.id])).map((h) => `${h.from}->${h.to}:${h.by}`)).toEqual([`despatchable->despatching:${slowRow!.createdBy}`, "despatching->despatchable:null"]);

    // the job says so, to whoever watches it
    const status = (await despatcher.json<Json>(`/api/job_status/${jobId}`)).body;
    expect(status.status).toBe("failed");
    expect(status.message).toBe(JOB_STOPPED);
    expect(status.errors).toEqual([JOB_STOPPED, "Despatched 1 of 2 Consignments", `Not despatched, ready to despatch again: ${slow.id}`]);
    // no later delivery or sweep runs it again
    const queued = await support.queuedJob(world, jobId);
    expect(await runJob(world.deps, queued.name, queued.data)).toBe("skipped");
    expect(await sweepAt(10)).toEqual({ resumed: [], givenUp: [] });

    // and staff despatch it again
    await support.simulate(world, { delay_ms: 0 });
    const again = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [slow.id] } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await support.workJob(world, again.body.job_id)).status).toBe("complete");
    expect((await support.rowsOf(world, [slow.id]))[0]!.state).toBe("despatched");
  }, 120_000);
});

describe("a despatch run that throws", () => {
  it("ends the job failed with its consignments released, and no redelivery runs it again", async () => {
    const { despatcher } = world.clients;
    const c = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    const queued = await support.queuedJob(world, res.body.job_id);
    // a delivery whose manifest cannot be saved (its despatcher is no user): the run throws
    await expect(runJob(world.deps, queued.name, { ...queued.data, userId: 2_000_000_000 })).rejects.toThrow();
    expect((await support.rowsOf(world, [c.id]))[0]).toMatchObject({ state: "despatchable", manifestId: null });
    const status = (await despatcher.json<Json>(`/api/job_status/${res.body.job_id}`)).body;
    expect(status.status).toBe("failed");
    expect(status.errors.slice(1)).toEqual(["Despatched 0 of 1 Consignments", `Not despatched, ready to despatch again: ${c.id}`]);
    expect(await runJob(world.deps, queued.name, queued.data)).toBe("skipped");
  });
});

describe("a redespatch whose worker died and that has no runs left", () => {
  it("is given up with its consignment back in despatch_failure, and Redespatch then works", async () => {
    const { despatcher } = world.clients;
    await support.simulate(world, { fail_despatch: true });
    const c = await support.createDespatchable(world, despatcher, "MEL", "SIMEX", "ONT");
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    expect((await support.workJob(world, res.body.job_id)).status).toBe("failed");
    await support.simulate(world, { fail_despatch: false });
    const retry = await despatcher.json<Json>(`/api/consignments/${c.id}`, { method: "PUT", json: { redespatch: true } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(200);
    // what a worker leaves when it claimed the job for its last run and was killed
    await world.server.db
      .update(jobs)
      .set({ status: "working", attempts: MAX_RUNS, workerId: "dead-worker", heartbeatAt: sql`now() - interval '10 minutes'` })
      .where(eq(jobs.id, retry.body.job_id));
    expect((await sweepStaleJobs(world.deps, { workerId: "test-sweeper" })).givenUp).toEqual([retry.body.job_id]);

    const [row] = await support.rowsOf(world, [c.id]);
    expect(row!.state).toBe("despatch_failure");
    const status = (await despatcher.json<Json>(`/api/job_status/${retry.body.job_id}`)).body;
    expect(status).toMatchObject({ status: "failed", message: JOB_STOPPED });
    expect(status.errors).toEqual([JOB_STOPPED, "Despatched 0 of 1 Consignments", `Despatch failed Consignment(s): ${row!.consignmentNumber}`]);

    const again = await despatcher.json<Json>(`/api/consignments/${c.id}`, { method: "PUT", json: { redespatch: true } });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect((await support.workJob(world, again.body.job_id)).status).toBe("complete");
    expect((await support.rowsOf(world, [c.id]))[0]).toMatchObject({ state: "despatched", manifestId: row!.manifestId });
  }, 60_000);
});
