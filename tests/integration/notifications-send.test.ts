import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { customers, jobs, mailMessages, notificationConfigs, notificationDeliveries, notificationTypes, smsMessages, trackingEvents } from "../../db/schema";
import { runJob } from "../../queues/queue.server";
import { createSmsSender } from "../../app/modules/notifications/sms.server";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

/**
 * Sending notifications (issue 14 item 7) through the real server and jobs: a consignment entering
 * a trigger state queues the job in the same transaction; the job renders the most specific
 * config's template and sends it once, through the mailer or the SMS outbox.
 */
let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let despatcher: Client;
let acmeId: number;
let types: { email: number; sms: number };

/** Runs every queued notifications job (the worker's part), oldest first; answers their results. */
async function runNotificationJobs(): Promise<Json[]> {
  const queued = await server.db.select().from(jobs).where(and(eq(jobs.name, "notifications.send"), eq(jobs.status, "queued"))).orderBy(asc(jobs.createdAt));
  const out: Json[] = [];
  for (const j of queued) {
    const job = await support.queuedJob(world, j.id);
    await runJob(world.deps, job.name, job.data);
    const [done] = await server.db.select().from(jobs).where(eq(jobs.id, j.id));
    out.push({ status: done!.status, message: done!.message });
  }
  return out;
}

async function despatched(over: Record<string, unknown> = {}): Promise<{ id: number; number: string }> {
  const c = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN", over);
  const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
  expect((await support.workJob(world, res.body.job_id)).status).toBe("complete");
  const [row] = await support.rowsOf(world, [c.id]);
  return { id: c.id, number: row!.consignmentNumber! };
}

const config = (state: string, template: string, over: Partial<typeof notificationConfigs.$inferInsert> = {}) =>
  server.db
    .insert(notificationConfigs)
    .values({ customerId: acmeId, parentType: "customer", parentId: acmeId, notificationTypeId: types.email, consignmentState: state as "despatched", template, ...over })
    .returning();

const mailTo = (to: string) => server.db.select().from(mailMessages).where(eq(mailMessages.to, to)).orderBy(desc(mailMessages.id));
const post = (events: unknown[]) => admin.json<Json>("/api/tracking_events", { json: { events } });

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ admin, despatcher } = world.clients);
  const [acme] = await server.db.select().from(customers).where(eq(customers.code, "ACME"));
  acmeId = acme!.id;
  const all = await server.db.select().from(notificationTypes);
  types = { email: all.find((t) => t.name === "Email")!.id, sms: all.find((t) => t.name === "SMS")!.id };
}, 120_000);
afterAll(() => server.close());
beforeEach(async () => {
  // each test sets up the configs it means
  await server.db.delete(notificationConfigs);
  await runNotificationJobs();
});

describe("notifications when a consignment enters a trigger state", () => {
  it("despatch sends the customer's despatched e-mail once, its tags filled and escaped", async () => {
    await config("despatched", "<p>Hello {{ receiver_name }}, {{ carrier_name }} consignment {{ consignment_number }} is {{ consignment_state }}.</p><p>Track: {{ public_tracking_url }}</p>");
    const to = "despatch-notify@example.net";
    const c = await despatched({ receiver_address: { ...support.receiver, name: "Brisbane <Hardware> & Co", email: to } });
    const results = await runNotificationJobs();
    expect(results.map((r) => r.status)).toContain("complete");
    const [mail, ...more] = await mailTo(to);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`Northline consignment ${c.number}: Despatched`);
    expect(mail!.text).toContain(`Hello Brisbane <Hardware> & Co, Northline consignment ${c.number} is Despatched.`);
    expect(mail!.html).toContain("Brisbane &lt;Hardware&gt; &amp; Co");
    expect(mail!.text).toMatch(/Track: http:\/\/localhost:\d+\/track\/[0-9a-f-]{36}/);
    // inlined styles for mail clients
    expect(mail!.html).toMatch(/<p style="[^"]*font-family/);

    // the same job again (a retry, a replay) sends nothing more
    const [delivery] = await server.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.consignmentId, c.id));
    expect(delivery).toMatchObject({ status: "sent", channel: "email", recipient: to, consignmentState: "despatched" });
    await runJob(world.deps, "notifications.send", { changes: [{ consignmentId: c.id, state: "despatched" }] });
    expect(await mailTo(to)).toHaveLength(1);
  });

  it("a tracking event queues the job with the change (POST /api/tracking_events) and replaying it sends nothing twice", async () => {
    await config("on_board_for_delivery", "<p>{{ consignment_number }} is on board today.</p>");
    const to = "on-board@example.net";
    const c = await despatched({ receiver_address: { ...support.receiver, email: to } });
    await runNotificationJobs();
    const events = [
      { consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:00:00+10:00" },
      { consignment_number: c.number, event: "on_board_for_delivery", event_time: "2026-05-05T07:00:00+10:00", carrier_event: "OFD" },
    ];
    expect((await post(events)).status).toBe(200);
    const queued = await server.db.select().from(jobs).where(and(eq(jobs.name, "notifications.send"), eq(jobs.status, "queued")));
    expect(queued).toHaveLength(1);
    await runNotificationJobs();
    expect((await mailTo(to)).map((m) => m.text)).toEqual([`${c.number} is on board today.`]);

    // the same events again: duplicates, no state change, and no second notification
    expect((await post(events)).body.counts.duplicate).toBe(2);
    await runNotificationJobs();
    expect(await mailTo(to)).toHaveLength(1);
  });

  it("the most specific config wins: a site's over its customer's, and a disabled account config sends nothing", async () => {
    const c = await despatched({ receiver_address: { ...support.receiver, email: "specific@example.net" } });
    const [row] = await support.rowsOf(world, [c.id]);
    await runNotificationJobs();
    await config("picked_up", "<p>customer template</p>");
    await config("picked_up", "<p>site template</p>", { parentType: "site", parentId: row!.siteId });
    await post([{ consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:00:00+10:00" }]);
    await runNotificationJobs();
    expect((await mailTo("specific@example.net")).map((m) => m.text)).toEqual(["site template"]);

    await config("in_transit", "<p>customer in transit</p>");
    await config("in_transit", "<p>account in transit</p>", { parentType: "account", parentId: row!.carrierAccountId!, enabled: false });
    await post([{ consignment_number: c.number, event: "in_transit", event_time: "2026-05-04T19:00:00+10:00" }]);
    await runNotificationJobs();
    expect((await mailTo("specific@example.net")).map((m) => m.text)).toEqual(["site template"]);
  });

  it("an SMS type goes to the receiver's phone, cut to its length, into the outbox; a receiver without an e-mail is skipped and said so", async () => {
    await config("picked_up", `<p>${"Your parcel {{ consignment_number }} was picked up. ".repeat(6)}</p>`, { notificationTypeId: types.sms });
    await config("picked_up", "<p>e-mail too</p>");
    const c = await despatched({ receiver_address: { ...support.receiver, email: null, phone: "(07) 3000 1234" } });
    await runNotificationJobs();
    await post([{ consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:00:00+10:00" }]);
    await runNotificationJobs();
    const [text] = await server.db.select().from(smsMessages).where(eq(smsMessages.to, "0730001234"));
    expect(text!.body.length).toBeLessThanOrEqual(160);
    expect(text!.body).toMatch(new RegExp(`^Your parcel ${c.number} was picked up\\.`));
    expect(text!.body.endsWith("…")).toBe(true);
    const deliveries = await server.db.select().from(notificationDeliveries).where(eq(notificationDeliveries.consignmentId, c.id)).orderBy(asc(notificationDeliveries.id));
    expect(deliveries.map((d) => [d.channel, d.status, d.detail])).toEqual(
      expect.arrayContaining([
        ["phone", "sent", null],
        ["email", "skipped", "The receiver has no e-mail address"],
      ]),
    );
  });

  it("send_all_tracking_updates sends every event, once each: two depots, two e-mails", async () => {
    await server.db.update(customers).set({ options: sql`${customers.options} || '{"send_all_tracking_updates": true}'::jsonb` }).where(eq(customers.id, acmeId));
    try {
      await config("in_transit", "<p>{{ consignment_state }}</p>");
      const to = "every-update@example.net";
      const c = await despatched({ receiver_address: { ...support.receiver, email: to } });
      await runNotificationJobs();
      await post([
        { consignment_number: c.number, event: "in_transit", event_time: "2026-05-04T19:00:00+10:00", carrier_event: "ARR-1", message: "ALBURY" },
        { consignment_number: c.number, event: "in_transit", event_time: "2026-05-05T01:00:00+10:00", carrier_event: "ARR-2", message: "GOULBURN" },
      ]);
      await runNotificationJobs();
      expect(await mailTo(to)).toHaveLength(2);
      const ids = (await server.db.select({ id: trackingEvents.id }).from(trackingEvents).where(eq(trackingEvents.consignmentId, c.id))).map((e) => e.id);
      await runJob(world.deps, "notifications.send", { changes: [], eventIds: ids });
      expect(await mailTo(to)).toHaveLength(2);
      expect(await server.db.select().from(notificationDeliveries).where(inArray(notificationDeliveries.trackingEventId, ids))).toHaveLength(2);
    } finally {
      await server.db.update(customers).set({ options: sql`${customers.options} - 'send_all_tracking_updates'` }).where(eq(customers.id, acmeId));
    }
  });

  it("a template that reached the table without the check is never run: each delivery fails with why, at once, and nothing is sent (issue 35)", async () => {
    // as a row written before the check, or by hand: a file read, a nested loop of 5,000 by 5,000
    await config("picked_up", "<p>{% include 'package.json' %}{{ receiver_name }}</p>");
    await config("picked_up", "<p>{% for i in (1..5000) %}{% for j in (1..5000) %}{{ receiver_name }}{% endfor %}{% endfor %}</p>", { notificationTypeId: types.sms });
    const to = "planted@example.net";
    const c = await despatched({ receiver_address: { ...support.receiver, email: to, phone: "(07) 3000 5678" } });
    await runNotificationJobs();
    await post([{ consignment_number: c.number, event: "picked_up", event_time: "2026-05-04T09:00:00+10:00" }]);
    const started = Date.now();
    const results = await runNotificationJobs();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(results.map((r) => r.status)).toEqual(["complete"]);
    expect(await mailTo(to)).toHaveLength(0);
    expect(await server.db.select().from(smsMessages).where(eq(smsMessages.to, "0730005678"))).toHaveLength(0);
    const deliveries = await server.db.select().from(notificationDeliveries).where(and(eq(notificationDeliveries.consignmentId, c.id), eq(notificationDeliveries.consignmentState, "picked_up")));
    expect(deliveries.map((d) => [d.channel, d.status, d.detail]).sort()).toEqual([
      ["email", "failed", "The template could not be filled in: Only tags such as {{ receiver_name }} may be used; {% include %} is not allowed"],
      ["phone", "failed", "The template could not be filled in: Only tags such as {{ receiver_name }} may be used; {% for %} is not allowed"],
    ]);
  });

  it("the mailbox page shows the SMS outbox to staff", async () => {
    const page = await (await admin.request("/mailbox")).text();
    expect(page).toContain("Text messages");
  });
});

describe("the SMS gateway", () => {
  it("posts { to, body } as JSON to SMS_GATEWAY_URL and reports a refusal", async () => {
    const received: { body: string; type: string | undefined }[] = [];
    let answer = 202;
    const gateway = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        received.push({ body, type: req.headers["content-type"] });
        res.writeHead(answer).end();
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, "127.0.0.1", resolve));
    try {
      const sms = createSmsSender(server.db, { gatewayUrl: `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send` });
      expect(sms.transport).toBe("gateway");
      await sms.send({ to: "0400000000", body: "Delivered" });
      expect(received).toEqual([{ body: JSON.stringify({ to: "0400000000", body: "Delivered" }), type: "application/json" }]);
      answer = 500;
      await expect(sms.send({ to: "0400000000", body: "again" })).rejects.toThrow("The SMS gateway answered 500");
    } finally {
      await new Promise((resolve) => gateway.close(resolve));
    }
  });
});
