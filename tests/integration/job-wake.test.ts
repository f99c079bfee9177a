/**
 * @engines: PostgreSQL and PGlite in CI, because a queued job wakes its worker through a
 * PostgreSQL notification across processes and directly within PGlite's one process.
 *
 * Issue 32: a job starts when it is queued, not at the worker's next poll. The workers here poll
 * once a minute, so a job that waited for the poll would outlast the wait below.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs } from "../../db/schema";
import { createMailer } from "../../app/modules/mail/mailer.server";
import { createQueue, type JobQueue } from "../../queues/queue.server";
import { startTestServer, type TestServer } from "../support/server";

const root = path.resolve(import.meta.dirname, "../..");
const postgres = Boolean(process.env.DATABASE_URL);
/** Far longer than the waits below: a job found only by the poll fails the test. */
const POLLING_SECONDS = 60;
const WAIT_MS = 15_000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function finished(id: string): Promise<string> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const [row] = await server.db.select({ status: jobs.status }).from(jobs).where(eq(jobs.id, id));
    if (row?.status === "complete" || row?.status === "failed") return row.status;
    if (Date.now() > until) return `still ${row?.status} after ${WAIT_MS / 1000} s`;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Two jobs one after the other: the second is queued while the worker waits out its poll. */
async function twoInTurn(queue: JobQueue, enqueue = (q: JobQueue) => q.enqueue("maintenance.cleanup", {})) {
  const first = await enqueue(queue);
  expect(await finished(first.jobId)).toBe("complete");
  const second = await enqueue(queue);
  expect(await finished(second.jobId)).toBe("complete");
}

describe("a queued job wakes its worker", () => {
  it("in the process that queued it", async () => {
    const { database } = server.test;
    const queue = await createQueue({ database, mailer: createMailer(database.db, { from: "test@freightdesk.local" }), renderer: server.renderer }, { pollingSeconds: POLLING_SECONDS });
    try {
      await queue.work();
      await twoInTurn(queue);
    } finally {
      await queue.stop();
    }
  });

  it.runIf(postgres)("in a worker process on another connection, once the transaction that queued it commits", async () => {
    const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "tests/support/worker.ts"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: server.test.database.url!, WORKER_POLLING_SECONDS: String(POLLING_SECONDS) },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("ready") && resolve());
        child.once("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready`)));
      });
      // the web process's queue, which does not work jobs, queues them
      await twoInTurn(server.queue);
      // queued inside a transaction: heard when it commits, and the job is there to be fetched
      await twoInTurn(server.queue, (q) => server.db.transaction((tx) => q.enqueue("maintenance.cleanup", {}, { tx })));
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
  });
});
