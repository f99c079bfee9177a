/**
 * Invoicing schedules (issue 19 point 7; decision 020-invoicing): POST /api/invoicing_schedules
 * checks period, day, hour, zone and lines, and refuses a time that has passed; the runner claims a
 * due schedule with a compare-and-set so two runners never both run it, queues the invoicing job
 * for the lines still invoiceable and moves next_run_at on (ONCE: none). The DST cases of the next
 * run are in app/modules/invoicing/schedule.test.ts; here they go through the runner.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { invoiceDetails, invoices, invoicingSchedules, jobs, reconciliations } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCustomer } from "../../db/seed/factories";
import { runJob } from "../../queues/queue.server";
import { createMailer } from "../../app/modules/mail/mailer.server";
import { runDueSchedules, runSchedule, SCHEDULES_JOB } from "../../app/modules/invoicing/schedules.server";
import { invoiceableSql } from "../../app/modules/invoicing/invoiceable.server";
import { seedDemoInvoicing } from "../../db/seed/invoices/invoicing";
import { rowsOf } from "../../app/utils/sql-rows";
import { statFile } from "../../app/modules/files/index.server";
import { reconciledLine } from "../support/invoicing";
import { Client, startTestServer, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let admin: Client;
let finance: Client;
const db = () => server.db;

const post = (client: Client, json: unknown) => client.json<Json>("/api/invoicing_schedules", { method: "POST", json });
const body = (ids: number[], period: string, o: Record<string, unknown>) => ({ period, options: { invoice_detail_ids: ids, invoicing_options: { hour: "09:00", time_zone: "Australia/Sydney", ...o } } });

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  admin = new Client(server.url);
  finance = new Client(server.url);
  expect((await admin.signIn("admin@example.com")).status).toBe(200);
  expect((await finance.signIn("finance@example.com")).status).toBe(200);
}, 120_000);
afterAll(() => server?.close());

describe("POST /api/invoicing_schedules", () => {
  it("adds a weekly schedule with its next run on the zone's wall clock, and lists it", async () => {
    const cust = await createCustomer(db());
    const ids = [await reconciledLine(db(), cust.id), await reconciledLine(db(), cust.id)];
    const res = await post(admin, body(ids, "WEEKLY", { day: "Monday" }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.invoicing_schedule;
    expect(s).toMatchObject({ period: "WEEKLY", options: { invoice_detail_ids: ids, invoicing_options: { day: "Monday", hour: "09:00", time_zone: "Australia/Sydney" } } });
    const next = new Date(s.next_run_at);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.getTime() - Date.now()).toBeLessThanOrEqual(7 * 86_400_000 + 3_600_000);
    const wall = new Intl.DateTimeFormat("en-AU", { timeZone: "Australia/Sydney", weekday: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(next);
    expect(wall).toBe("Monday 09:00");
    const list = await admin.json<Json>("/api/invoicing_schedules");
    expect(list.body.invoicing_schedules.map((x: Json) => x.id)).toContain(s.id);
    // the finance user is another customer's (Acme): this schedule is none of theirs
    expect((await finance.json<Json>("/api/invoicing_schedules")).body.invoicing_schedules.map((x: Json) => x.id)).not.toContain(s.id);
  });

  it("checks its fields, its time and its lines; invoice admins only", async () => {
    const cust = await createCustomer(db());
    const ids = [await reconciledLine(db(), cust.id)];
    const errorsOf = async (json: unknown) => {
      const r = await post(admin, json);
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      return r.body.errors as Record<string, string[]>;
    };
    expect((await errorsOf(body(ids, "DAILY", { day: "Monday" }))).period).toEqual(["Must be ONCE or WEEKLY"]);
    expect((await errorsOf(body(ids, "WEEKLY", {})))["options.invoicing_options.day"]).toEqual(["Choose a day."]);
    expect(Object.keys(await errorsOf(body(ids, "WEEKLY", { day: "Monday", hour: "09:15" })))).toEqual(["options.invoicing_options.hour"]);
    expect(Object.keys(await errorsOf(body(ids, "WEEKLY", { day: "Monday", time_zone: "Europe/London" })))).toEqual(["options.invoicing_options.time_zone"]);
    expect((await errorsOf(body([], "WEEKLY", { day: "Monday" })))["options.invoice_detail_ids"]).toEqual(["Choose at least one line."]);
    expect((await errorsOf(body([99_999_999], "WEEKLY", { day: "Monday" })))["options.invoice_detail_ids"]![0]).toMatch(/None of those lines/);
    // a date before today (UTC), and today's time already gone, are refused on next_run_at
    expect((await errorsOf(body(ids, "ONCE", { date: "2020-01-06" }))).next_run_at).toEqual(["That time has passed: choose a later one."]);
    expect((await post(finance, body(ids, "WEEKLY", { day: "Monday" }))).status).toBe(403);
  });
});

describe("the runner", () => {
  /** the server's queue, counting what is queued through it */
  const countingQueue = () => {
    const calls: Json[] = [];
    const enqueue: typeof server.queue.enqueue = (name, payload, options) => {
      calls.push({ name, payload });
      return server.queue.enqueue(name, payload, options);
    };
    return { calls, enqueue };
  };

  it("claims a due schedule once, however many runners race for it", async () => {
    const cust = await createCustomer(db());
    const ids = [await reconciledLine(db(), cust.id)];
    const due = new Date(Date.now() - 60_000);
    const [s] = await db().insert(invoicingSchedules).values({ period: "WEEKLY", day: "Monday", hour: "09:00", timeZone: "Australia/Sydney", invoiceDetailIds: ids, nextRunAt: due }).returning();
    const now = new Date();
    // two runners read the same row, then both try to claim it
    const q = countingQueue();
    const outcomes = await Promise.all([runSchedule(db(), q, s!, now), runSchedule(db(), q, s!, now)]);
    expect(outcomes.filter((o) => o === false)).toHaveLength(1);
    expect(q.calls).toHaveLength(1);
    // and a third, later, with the stale row, claims nothing
    expect(await runSchedule(db(), q, s!, now)).toBe(false);
    const [after] = await db().select().from(invoicingSchedules).where(eq(invoicingSchedules.id, s!.id));
    expect(after!.lastRunAt!.getTime()).toBe(now.getTime());
    expect(after!.nextRunAt!.getTime()).toBeGreaterThan(now.getTime());
  });

  it("queues the invoicing job for the lines still invoiceable, which bills them; a ONCE schedule then has no next run", async () => {
    const cust = await createCustomer(db());
    const ids = [await reconciledLine(db(), cust.id), await reconciledLine(db(), cust.id)];
    // one of them was reset to reconciling meanwhile: no longer invoiceable
    await db().update(reconciliations).set({ state: "reconciling" }).where(eq(reconciliations.invoiceDetailId, ids[1]!));
    const [s] = await db().insert(invoicingSchedules).values({ period: "ONCE", day: "Monday", hour: "09:00", timeZone: "Australia/Sydney", invoiceDetailIds: ids, nextRunAt: new Date(Date.now() - 1000) }).returning();
    const r = await runDueSchedules(db(), server.queue);
    expect(r.ran).toContain(s!.id);
    const [after] = await db().select().from(invoicingSchedules).where(eq(invoicingSchedules.id, s!.id));
    expect(after!.nextRunAt).toBeNull();
    expect(after!.lastJobId).toBeTruthy();
    const [job] = rowsOf<{ name: string; data: Record<string, unknown> }>(await db().execute(sql`select name, data from pgboss.job where data->>'jobId' = ${after!.lastJobId}`));
    expect(job!.data).toMatchObject({ invoiceDetailIds: [ids[0]] });
    await runJob({ database: server.test.database, mailer: createMailer(db(), { from: "t@x" }), renderer: server.renderer }, job!.name as never, job!.data);
    const billed = await db().select().from(invoiceDetails).where(inArray(invoiceDetails.sourceDetailId, ids)).orderBy(asc(invoiceDetails.id));
    expect(billed.map((b) => b.sourceDetailId)).toEqual([ids[0]]);
    // not due again: a second pass runs nothing of it
    expect((await runDueSchedules(db(), server.queue)).ran).not.toContain(s!.id);
  });

  it("moves a weekly run across daylight saving to the same wall time (Sydney, April and October)", async () => {
    const cust = await createCustomer(db());
    const ids = [await reconciledLine(db(), cust.id)];
    const q = countingQueue();
    // Sunday 02:30 Sydney: the repeated time runs once, at its first occurrence; the skipped one at 03:30
    const [s] = await db().insert(invoicingSchedules).values({ period: "WEEKLY", day: "Sunday", hour: "02:30", timeZone: "Australia/Sydney", invoiceDetailIds: ids, nextRunAt: new Date("2026-04-04T15:30:00Z") }).returning();
    await runSchedule(db(), q, s!, new Date("2026-04-04T15:30:00Z"));
    const [a] = await db().select().from(invoicingSchedules).where(eq(invoicingSchedules.id, s!.id));
    expect(a!.nextRunAt!.toISOString()).toBe("2026-04-11T16:30:00.000Z");
    await db().update(invoicingSchedules).set({ nextRunAt: new Date("2026-09-27T16:30:00Z") }).where(eq(invoicingSchedules.id, s!.id));
    const [b] = await db().select().from(invoicingSchedules).where(eq(invoicingSchedules.id, s!.id));
    await runSchedule(db(), q, b!, new Date("2026-09-27T16:30:00Z"));
    const [c] = await db().select().from(invoicingSchedules).where(eq(invoicingSchedules.id, s!.id));
    expect(c!.nextRunAt!.toISOString()).toBe("2026-10-03T16:30:00.000Z");
  });
});

describe("the runner's own records", () => {
  it("are pruned by the nightly cleanup once a day old when they ran nothing; a run that ran a schedule is kept", async () => {
    const old = new Date(Date.now() - 25 * 3600 * 1000);
    const made = await db()
      .insert(jobs)
      .values([
        { name: SCHEDULES_JOB, status: "complete", info: { ran: [], jobs: [] }, updatedAt: old },
        { name: SCHEDULES_JOB, status: "complete", info: { ran: [7], jobs: ["x"] }, updatedAt: old },
        { name: SCHEDULES_JOB, status: "complete", info: { ran: [], jobs: [] }, updatedAt: new Date() },
        { name: SCHEDULES_JOB, status: "failed", info: { ran: [], jobs: [] }, updatedAt: old },
        { name: "maintenance.cleanup", status: "complete", info: {}, updatedAt: old },
      ])
      .returning({ id: jobs.id });
    await runJob({ database: server.test.database, mailer: createMailer(db(), { from: "t@x" }), renderer: server.renderer }, "maintenance.cleanup", {});
    const left = await db().select({ id: jobs.id }).from(jobs).where(inArray(jobs.id, made.map((m) => m.id)));
    expect(left.map((l) => l.id).sort()).toEqual(made.slice(1).map((m) => m.id).sort());
  });
});

describe("the demo's invoicing seed", () => {
  it("makes one customer invoice, leaves two lines invoiceable, one of them under a weekly schedule, and runs once", async () => {
    // as on a fresh demo: no customer invoice yet (earlier tests here made one)
    await db().delete(invoices).where(eq(invoices.accountingType, "receivable"));
    const cust = await createCustomer(db());
    for (let i = 0; i < 3; i++) await reconciledLine(db(), cust.id);
    const invoiceable = async () => (await db().select({ id: invoiceDetails.id }).from(invoiceDetails).where(invoiceableSql)).map((r) => r.id).sort((a, b) => a - b);
    const before = await invoiceable();
    expect(before.length).toBeGreaterThanOrEqual(3);
    const first = await seedDemoInvoicing(db(), { renderer: server.renderer });
    expect(first.invoiceId).not.toBeNull();
    const [inv] = await db().select().from(invoices).where(eq(invoices.id, first.invoiceId!));
    expect(inv).toMatchObject({ accountingType: "receivable", state: "invoiced" });
    // its PDF is kept in the file store, owned by the invoice's customer (issue 30)
    expect(await statFile(db(), inv!.pdfPath!)).toMatchObject({ kind: "customer_invoice_pdf", contentType: "application/pdf", customerId: inv!.customerId, expiresAt: null });
    const left = await invoiceable();
    expect(left).toHaveLength(2);
    // earlier tests made schedules here: the seed adds none to a database that has one
    expect(first.scheduleId).toBeNull();
    await db().delete(invoicingSchedules);
    const second = await seedDemoInvoicing(db(), { renderer: server.renderer });
    expect(second.invoiceId).toBeNull();
    const [s] = await db().select().from(invoicingSchedules).where(eq(invoicingSchedules.id, second.scheduleId!));
    expect(s).toMatchObject({ period: "WEEKLY", day: "Monday", hour: "09:00", timeZone: "Australia/Sydney" });
    // one line only: the Send invoice modal keeps the other when the schedule has run
    expect(s!.invoiceDetailIds).toHaveLength(1);
    expect(left).toContain(s!.invoiceDetailIds[0]);
    expect(await seedDemoInvoicing(db(), { renderer: server.renderer })).toEqual({ invoiceId: null, scheduleId: null });
  });
});
