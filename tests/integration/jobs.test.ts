// @engines: PostgreSQL and PGlite in CI, because pg-boss runs over PGlite's single connection as well as a pool.
import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { files, jobs, passwordResetTokens, sessions, signInAttemptCounts, signInAudits, users } from "../../db/schema";
import { putFile } from "../../app/modules/files/index.server";
import { createMailer } from "../../app/modules/mail/mailer.server";
import { runJob } from "../../queues/queue.server";
import { seedDemo } from "../../db/seed/demo";
import { createCustomer, createUser } from "../../db/seed/factories";
import { createJobRow } from "../../app/modules/jobs/jobs.server";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;

beforeAll(async () => {
  server = await startTestServer({ work: true });
  demo = await seedDemo(server.db);
});
afterAll(() => server.close());

type JobJson = { status: string; pct_complete: number; message: string | null; errors: string[]; info: Record<string, number> };

async function waitForJob(c: Client, id: string): Promise<JobJson> {
  for (let i = 0; i < 100; i++) {
    const { body } = await c.json<JobJson>(`/api/job_status/${id}`);
    if (body.status === "complete" || body.status === "failed") return body;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`job ${id} did not finish`);
}

const total = async (table: typeof sessions | typeof passwordResetTokens | typeof signInAudits) =>
  Number(((await server.db.select({ n: count() }).from(table)) as [{ n: number }])[0].n);

describe("background jobs", () => {
  it("the cleanup job removes what has expired, reports it, and is idempotent when run twice", async () => {
    const c = new Client(server.url);
    const signed = await c.signIn("devs@example.com");
    const userId = (signed.body.user as { id: number }).id;
    const now = Date.now();
    // expired and live rows of each kind
    await server.db.insert(sessions).values([
      { id: "expired-1", userId, expiresAt: new Date(now - 1000) },
      { id: "expired-2", userId, expiresAt: new Date(now - 5000) },
      { id: "live-1", userId, expiresAt: new Date(now + 3600_000) },
    ]);
    await server.db.insert(passwordResetTokens).values([
      { id: "reset-old", userId, expiresAt: new Date(now - 1000) },
      { id: "reset-new", userId, expiresAt: new Date(now + 3600_000) },
    ]);
    await server.db.insert(signInAudits).values([
      { email: "x@example.com", success: false, at: new Date(now - 91 * 86_400_000) },
      { email: "y@example.com", success: true, at: new Date(now - 89 * 86_400_000) },
    ]);
    await server.db.insert(signInAttemptCounts).values([
      { key: "203.0.113.1", hits: 4, resetAt: new Date(now - 1000) },
      { key: "203.0.113.2", hits: 2, resetAt: new Date(now + 600_000) },
    ]);
    // stored files: an export past its time, one still in it, and a document kept for good
    const expired = await putFile(server.db, { kind: "export", name: "old.csv", contentType: "text/csv", customerId: demo.acme.id, expiresAt: new Date(now - 1000) }, "a,b\r\n");
    const live = await putFile(server.db, { kind: "bulk_upload", name: "new.csv", contentType: "text/csv", customerId: demo.acme.id, expiresAt: new Date(now + 3600_000) }, "c,d\r\n");
    const kept = await putFile(server.db, { kind: "carrier_invoice", name: "kept.csv", contentType: "text/csv" }, "e,f\r\n");
    const before = { sessions: await total(sessions), tokens: await total(passwordResetTokens), audits: await total(signInAudits) };

    const first = await server.queue.enqueue("maintenance.cleanup", {}, { userId, customerId: demo.acme.id });
    const firstResult = await waitForJob(c, first.jobId);
    expect(firstResult.status).toBe("complete");
    expect(firstResult.pct_complete).toBe(100);
    expect(firstResult.info).toEqual({ sessions: 2, resetTokens: 1, signInAudits: 1, attemptCounts: 1, files: 1 });
    const fileIds = (await server.db.select({ id: files.id }).from(files)).map((f) => f.id);
    expect(fileIds).not.toContain(expired.id);
    expect(fileIds).toEqual(expect.arrayContaining([live.id, kept.id]));
    expect((await server.db.select().from(signInAttemptCounts)).map((r) => r.key)).not.toContain("203.0.113.1");
    expect(firstResult.message).toBe("Removed 2 expired session(s), 1 reset link(s), 1 old sign-in record(s) and 1 expired file(s).");
    const after = { sessions: await total(sessions), tokens: await total(passwordResetTokens), audits: await total(signInAudits) };
    expect(after).toEqual({ sessions: before.sessions - 2, tokens: before.tokens - 1, audits: before.audits - 1 });

    // the same job again: nothing left to remove, the same end state
    const second = await server.queue.enqueue("maintenance.cleanup", {}, { userId, customerId: demo.acme.id });
    const secondResult = await waitForJob(c, second.jobId);
    expect(secondResult.info).toEqual({ sessions: 0, resetTokens: 0, signInAudits: 0, attemptCounts: 0, files: 0 });
    expect({ sessions: await total(sessions), tokens: await total(passwordResetTokens), audits: await total(signInAudits) }).toEqual(after);
    // the signed-in user's own session survived both runs
    expect((await c.json("/api/users/current")).status).toBe(200);
  });

  it("runs from the home page for a super admin, who then sees its progress", async () => {
    const c = new Client(server.url);
    await c.signIn("devs@example.com");
    const res = await c.request("/home", { form: { intent: "run_cleanup" } });
    expect(res.status).toBe(302);
    const id = res.headers.get("location")!.match(/job=([0-9a-f-]+)/)![1]!;
    expect((await waitForJob(c, id)).status).toBe("complete");
    const page = await (await c.request(`/home?job=${id}`)).text();
    expect(page).toContain('data-job-status="complete"');
  });

  it("GET /api/job_status answers only the owner's customer (404 otherwise) and validates the id", async () => {
    const other = await createCustomer(server.db, { code: "JOBCO" });
    const stranger = await createUser(server.db, other.id, { email: "job-stranger@example.com" });
    const theirs = await createJobRow(server.db, { name: "maintenance.cleanup", customerId: other.id, userId: stranger.id });
    const c = new Client(server.url);
    await c.signIn("despatcher@example.com");
    expect((await c.json(`/api/job_status/${theirs.id}`)).status).toBe(404);
    expect((await c.json(`/api/job_status/not-a-uuid`)).status).toBe(404);
    const s = new Client(server.url);
    await s.signIn(stranger.email);
    const mine = await s.json<JobJson>(`/api/job_status/${theirs.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ status: "queued", pct_complete: 0, errors: [], info: {} });
  });

  it("a job delivered twice, or twice at once, runs once and keeps its first result", async () => {
    const row = await createJobRow(server.db, { name: "maintenance.cleanup" });
    await server.db.insert(sessions).values({ id: "dup-expired", userId: (await server.db.select().from(users).limit(1))[0]!.id, expiresAt: new Date(Date.now() - 1000) });
    const deps = { database: server.test.database, mailer: createMailer(server.db, { from: "t@example.com" }), renderer: server.renderer };
    const outcomes = await Promise.all([runJob(deps, "maintenance.cleanup", { jobId: row.id }), runJob(deps, "maintenance.cleanup", { jobId: row.id })]);
    expect(outcomes.sort()).toEqual(["ran", "skipped"]);
    expect(await runJob(deps, "maintenance.cleanup", { jobId: row.id })).toBe("skipped");
    const [done] = await server.db.select().from(jobs).where(eq(jobs.id, row.id));
    expect(done!.status).toBe("complete");
    expect((done!.info as { sessions: number }).sessions).toBeGreaterThanOrEqual(1);
  });

  it("refuses an invalid payload at enqueue time, leaving no job behind", async () => {
    const before = Number(((await server.db.select({ n: count() }).from(jobs)) as [{ n: number }])[0].n);
    await expect(server.queue.enqueue("maintenance.cleanup", { now: "yesterday" })).rejects.toThrow();
    expect(Number(((await server.db.select({ n: count() }).from(jobs)) as [{ n: number }])[0].n)).toBe(before);
  });
});
