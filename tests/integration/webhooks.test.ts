/**
 * Webhooks (issue 34 item 1, docs/decisions/039), against a receiver this test starts on loopback
 * (WEBHOOKS_ALLOW_LOCAL=1): signatures, the events of a consignment's life in order, ordering per
 * consignment, retries after 500s and timeouts, pausing after the retry window (the test moves the
 * webhooks' clock), replay from /api, redirects, the DNS-rebinding refusal (a stubbed name lookup,
 * without the setting), save-time URL refusals, roles and tenancy. Deliveries are made by calling
 * the app's own one-pass dispatcher, so each step is under the test's control.
 */
import path from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { seedEnquiryTypesDemo } from "../../db/seed/demo";
import { mailMessages, ticketCategories, users, webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { createUser } from "../../db/seed/factories";
import { loadBuild } from "../../server/build";
import { emitEvents } from "../../app/modules/webhooks/emit.server";
import { verify } from "../../app/modules/webhooks/signing";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";
import { Client } from "../support/server";
import { startReceiver } from "../support/webhook-receiver";
import { expectMarked, postFormBlank, readPage } from "../support/form-check";

let world: DespatchWorld;
let entry: Awaited<ReturnType<typeof loadBuild>>["entry"];
let receiver: Awaited<ReturnType<typeof startReceiver>>;
/** Acme's admin (a super despatcher), another customer's admin, staff */
let owner: Client, otherOwner: Client, staff: Client;
let acmeId: number, otherId: number;

const db = () => world.server.db;
const HOUR = 3_600_000;

function allowLocal(on: boolean) {
  process.env.WEBHOOKS_ALLOW_LOCAL = on ? "1" : "0";
  entry.resetEnvCache();
}

/** One pass of the app's dispatcher: everything due now is sent and recorded. */
const deliver = () => entry.deliverDue(db(), world.server.services.mailer);

/** Passes until nothing is due (each pass sends a consignment's next delivery). */
async function deliverAll() {
  for (let i = 0; i < 50; i++) if (!(await deliver())) return;
  throw new Error("deliveries kept coming");
}

async function addEndpoint(client: Client, path: string, events: string[], over: Record<string, unknown> = {}) {
  const res = await client.json<Json>("/api/webhooks", { json: { url: receiver.base + path, events, ...over } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { webhook: Json; secret: string };
}

const deliveriesOf = (endpointId: number) => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)).orderBy(asc(webhookDeliveries.id));

const bodies = (p: string) => receiver.at(p).map((r) => JSON.parse(r.body) as Json);

beforeAll(async () => {
  ({ entry } = await loadBuild(path.resolve(import.meta.dirname, "../..")));
  allowLocal(true);
  world = await support.startDespatchWorld();
  receiver = await startReceiver();
  staff = world.clients.admin;
  owner = world.clients.superDespatcher;
  const [acme] = await db().select({ customerId: users.customerId }).from(users).where(eq(users.email, "superdespatcher@example.com"));
  const [other] = await db().select({ customerId: users.customerId }).from(users).where(eq(users.email, "tester@example.com"));
  acmeId = acme!.customerId;
  otherId = other!.customerId;
  await createUser(db(), otherId, { email: "other-owner@example.test", superDespatcher: true, authenticationToken: "tok-webhooks-other-owner" });
  otherOwner = new Client(world.server.url, "tok-webhooks-other-owner");
}, 240_000);
afterAll(async () => {
  entry?.resetWebhookSeams();
  delete process.env.WEBHOOKS_ALLOW_LOCAL;
  entry?.resetEnvCache();
  await receiver?.close();
  await world?.server.close();
});
afterEach(async () => {
  entry.resetWebhookSeams();
  allowLocal(true);
  // each test's endpoints stop taking events, so the next test's consignments reach only its own
  await db().update(webhookEndpoints).set({ active: false });
});

describe("a customer's endpoint receives its consignment's life, signed, in order", () => {
  it("created, despatched, tracking and delivered (with the proof of delivery link), each verifiable with the secret", async () => {
    const { webhook, secret } = await addEndpoint(owner, "/ok/life", ["consignment.created", "consignment.despatched", "tracking.updated", "consignment.delivered"]);
    expect(secret).toMatch(/^whsec_/);
    // the secret is shown once: never in a read
    const read = await owner.json<Json>(`/api/webhooks/${webhook.id}`);
    expect(JSON.stringify(read.body)).not.toContain(secret);

    const c = await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    const despatch = await owner.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    expect((await support.workJob(world, despatch.body.job_id, owner)).status).toBe("complete");
    const [row] = await support.rowsOf(world, [c.id]);
    const posted = await staff.json<Json>("/api/tracking_events", {
      json: {
        events: [
          { consignment_number: row!.consignmentNumber, event: "picked_up", event_time: "2026-05-04T09:10:00+10:00", carrier_event: "PCK" },
          { consignment_number: row!.consignmentNumber, event: "delivered_with_pod", event_time: "2026-05-05T11:00:00+10:00", carrier_event: "DLV", pod_url: "https://carrier.example/pod/9.png" },
        ],
      },
    });
    expect(posted.status, JSON.stringify(posted.body)).toBe(200);
    // nothing is sent before the dispatcher runs; then one a pass, in the order of the changes
    expect(receiver.at("/ok/life")).toHaveLength(0);
    await deliverAll();

    const got = bodies("/ok/life");
    expect(got.map((b) => b.type)).toEqual(["consignment.created", "consignment.despatched", "tracking.updated", "tracking.updated", "consignment.delivered"]);
    expect(got[0]!.data).toMatchObject({ id: c.id, reference: c.reference, state: "despatchable" });
    expect(got[1]!.data).toMatchObject({ id: c.id, state: "despatched", consignment_number: row!.consignmentNumber });
    expect(got[2]!.data).toMatchObject({ consignment_id: c.id, state: "delivered_with_pod", event: { event: "picked_up", carrier_event: "PCK" } });
    expect(got[4]!.data).toMatchObject({ consignment_id: c.id, state: "delivered_with_pod", pod_url: "https://carrier.example/pod/9.png", event: { event: "delivered_with_pod" } });
    // a customer's webhook carries no buy costs, whoever made the change
    expect(JSON.stringify(got)).not.toMatch(/buy_|markup/);

    for (const r of receiver.at("/ok/life")) {
      const headers = { id: String(r.headers["webhook-id"]), timestamp: String(r.headers["webhook-timestamp"]), signature: String(r.headers["webhook-signature"]) };
      expect(headers.id).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(verify(secret, headers, r.body)).toBe(true);
      expect(verify(secret, headers, r.body.replace("}", ' }'))).toBe(false);
    }
    const log = await owner.json<Json>(`/api/webhooks/${webhook.id}/deliveries`);
    expect(log.body.total).toBe(5);
    expect(log.body.deliveries.every((d: Json) => d.state === "succeeded" && d.attempts[0].status === 200 && d.attempts[0].response === '{"ok":true}')).toBe(true);
  });
});

describe("other events", () => {
  it("enquiry.updated: a raised enquiry, then its comment, each with the ticket as /api gives it", async () => {
    await addEndpoint(owner, "/ok/enquiry", ["enquiry.updated"]);
    await seedEnquiryTypesDemo(db(), [acmeId]);
    const [type] = await db().select().from(ticketCategories).where(and(eq(ticketCategories.customerId, acmeId), eq(ticketCategories.name, "Other")));
    const raised = await owner.json<Json>("/api/tickets", { json: { full_name: "Sam", email: "sam@example.com", subject: "Webhook enquiry", category_id: type!.id, description: "Where is it?" } });
    expect(raised.status, JSON.stringify(raised.body)).toBe(201);
    const commented = await owner.json<Json>(`/api/tickets/${raised.body.id}/comment`, { json: { comment: "Any news?" } });
    expect(commented.status, JSON.stringify(commented.body)).toBeLessThan(300);
    await deliverAll();
    const got = bodies("/ok/enquiry");
    expect(got.map((b) => [b.type, b.data.id, b.data.subject])).toEqual([
      ["enquiry.updated", raised.body.id, "Webhook enquiry"],
      ["enquiry.updated", raised.body.id, "Webhook enquiry"],
    ]);
  });
});

describe("delivery", () => {
  it("keeps each consignment's order through a failure, while other consignments go on; retries after 500s with backoff", async () => {
    const { webhook } = await addEndpoint(owner, "/fail/order", ["tracking.updated"]);
    const event = (consignmentId: number, n: number) => ({ type: "tracking.updated" as const, customerId: acmeId, consignmentId, payload: { n } });
    await db().transaction((tx) => emitEvents(tx, [event(900001, 1), event(900001, 2), event(900002, 1), event(900001, 3)]));
    const start = Date.now();
    entry.webhookSeams.now = () => new Date(start);
    // the receiver fails: the first of each consignment is tried, the later ones wait behind it
    expect(await deliver()).toBe(2);
    expect(bodies("/fail/order").map((b) => b.data)).toEqual([{ n: 1 }, { n: 1 }]);
    let rows = await deliveriesOf(webhook.id);
    expect(rows.map((r) => [r.state, r.attempts])).toEqual([["pending", 1], ["pending", 0], ["pending", 1], ["pending", 0]]);
    // not due again until the backoff has passed, which doubles
    expect(await deliver()).toBe(0);
    expect(rows[0]!.nextAttemptAt.getTime()).toBe(start + 30_000);
    entry.webhookSeams.now = () => new Date(start + 30_000);
    expect(await deliver()).toBe(2);
    rows = await deliveriesOf(webhook.id);
    expect(rows[0]!.nextAttemptAt.getTime()).toBe(start + 30_000 + 60_000);

    // the receiver recovers: one consignment's deliveries arrive 1, 2, 3
    await db().update(webhookEndpoints).set({ url: `${receiver.base}/ok/order` }).where(eq(webhookEndpoints.id, webhook.id));
    entry.webhookSeams.now = () => new Date(start + 2 * HOUR);
    await deliverAll();
    const got = receiver.at("/ok/order").map((r) => JSON.parse(r.body) as Json);
    expect(got.filter((b) => b.data.n && b.type).map((b) => b.data.n)).toEqual([1, 1, 2, 3]);
    rows = await deliveriesOf(webhook.id);
    expect(rows.every((r) => r.state === "succeeded")).toBe(true);
    const attempts = await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, rows[0]!.id)).orderBy(asc(webhookAttempts.id));
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(attempts[0]).toMatchObject({ error: "Answered 500", response: "receiver is down" });
  });

  it("gives a receiver that does not answer up at the timeout, without holding another endpoint's delivery", async () => {
    entry.webhookSeams.timeoutMs = 300;
    const slow = await addEndpoint(owner, "/hang", ["consignment.created"]);
    const quick = await addEndpoint(owner, "/ok/quick", ["consignment.created"]);
    const c = await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    expect(await deliver()).toBe(2);
    expect(bodies("/ok/quick").map((b) => b.data.id)).toEqual([c.id]);
    const [hung] = await deliveriesOf(slow.webhook.id);
    const [done] = await deliveriesOf(quick.webhook.id);
    expect(done!.state).toBe("succeeded");
    expect(hung!.state).toBe("pending");
    const [a] = await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, hung!.id));
    expect(a).toMatchObject({ status: null, error: "No answer within 0.3 s" });
  });

  it("does not follow a redirect: the attempt fails with its location logged", async () => {
    const { webhook } = await addEndpoint(owner, "/redirect", ["consignment.created"]);
    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    expect(await deliver()).toBe(1);
    const log = await owner.json<Json>(`/api/webhooks/${webhook.id}/deliveries`);
    expect(log.body.deliveries[0].state).toBe("pending");
    expect(log.body.deliveries[0].attempts[0]).toMatchObject({ status: 302, error: "Redirect to http://127.0.0.1:1/elsewhere not followed: the URL must answer itself" });
  });

  it("keeps the first KB of an answer", async () => {
    const { webhook } = await addEndpoint(owner, "/big", ["consignment.created"]);
    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    await deliver();
    const log = await owner.json<Json>(`/api/webhooks/${webhook.id}/deliveries`);
    expect(log.body.deliveries[0].attempts[0].response).toBe("x".repeat(1024));
  });

  it("pauses the endpoint after 24 hours of failures and tells the customer's admins by e-mail; made active again, it takes events", async () => {
    const { webhook } = await addEndpoint(owner, "/fail/pause", ["consignment.created"]);
    const start = Date.now();
    entry.webhookSeams.now = () => new Date(start);
    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    expect(await deliver()).toBe(1);
    entry.webhookSeams.now = () => new Date(start + 23 * HOUR);
    expect(await deliver()).toBe(1);
    let [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id));
    expect(endpoint!.active).toBe(true);
    // the window's end: the last try, then given up
    entry.webhookSeams.now = () => new Date(start + 24 * HOUR);
    expect(await deliver()).toBe(1);
    const [d] = await deliveriesOf(webhook.id);
    expect(d).toMatchObject({ state: "failed", attempts: 3 });
    [endpoint] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id));
    expect(endpoint).toMatchObject({ active: false, pausedReason: "Paused: a delivery still failed after 24 hours of retries." });
    const mail = await db().select().from(mailMessages).where(and(eq(mailMessages.subject, "Webhook endpoint paused"), eq(mailMessages.to, "superdespatcher@example.com")));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain(`${receiver.base}/fail/pause`);
    // a paused endpoint is sent nothing more
    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    expect(await deliver()).toBe(0);
    const res = await owner.json<Json>(`/api/webhooks/${webhook.id}`, { method: "PUT", json: { active: true, url: `${receiver.base}/ok/resumed` } });
    expect(res.body.webhook).toMatchObject({ active: true, paused_reason: null });
  });

  it("replays a delivery from /api: the same event and webhook-id again", async () => {
    const { webhook } = await addEndpoint(owner, "/ok/replay", ["consignment.created"]);
    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    await deliver();
    const [first] = await deliveriesOf(webhook.id);
    const replay = await owner.json<Json>(`/api/webhooks/deliveries/${first!.id}/replay`, { method: "POST" });
    expect(replay.status, JSON.stringify(replay.body)).toBe(202);
    expect(await deliver()).toBe(1);
    const [a, b] = receiver.at("/ok/replay");
    expect(b!.body).toBe(a!.body);
    expect(b!.headers["webhook-id"]).toBe(a!.headers["webhook-id"]);
    expect((await deliveriesOf(webhook.id)).map((d) => d.state)).toEqual(["succeeded", "succeeded"]);
    // GET is not a replay
    expect((await owner.request(`/api/webhooks/deliveries/${first!.id}/replay`)).status).toBe(405);
  });

  it("refuses, at delivery, a name that resolves inside the network (DNS rebinding), and logs the attempt", async () => {
    allowLocal(false);
    const created = await owner.json<Json>("/api/webhooks", { json: { url: "https://hooks.rebinding.test/in", events: ["consignment.created"] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    entry.webhookSeams.resolve = async () => [{ address: "127.0.0.1", family: 4 }];
    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    const before = receiver.received.length;
    expect(await deliver()).toBe(1);
    expect(receiver.received.length).toBe(before);
    const log = await owner.json<Json>(`/api/webhooks/${created.body.webhook.id}/deliveries`);
    expect(log.body.deliveries[0].state).toBe("pending");
    expect(log.body.deliveries[0].attempts[0]).toMatchObject({
      status: null,
      error: "Refused: hooks.rebinding.test resolves to 127.0.0.1 is a loopback, private, link-local or unspecified address (checked at delivery: DNS rebinding)",
    });
    // an IPv6 mapped form of the metadata address too
    entry.webhookSeams.resolve = async () => [{ address: "2606:4700::1111", family: 6 }, { address: "::ffff:169.254.169.254", family: 6 }];
    entry.webhookSeams.now = () => new Date(Date.now() + HOUR);
    expect(await deliver()).toBe(1);
    const again = await owner.json<Json>(`/api/webhooks/${created.body.webhook.id}/deliveries`);
    expect(again.body.deliveries[0].attempts[0].error).toMatch(/^Refused: hooks\.rebinding\.test resolves to 169\.254\.169\.254/);
  });
});

describe("saving an endpoint", () => {
  it("refuses http, localhost and inside addresses by field without the development setting", async () => {
    allowLocal(false);
    const cases: Array<[string, RegExp]> = [
      ["http://hooks.example.com/in", /^URL must start with https:\/\/$/],
      ["https://localhost/in", /^URL must not point at localhost$/],
      ["https://127.0.0.1:8443/in", /inside the network: 127\.0\.0\.1/],
      ["https://10.1.2.3/in", /inside the network: 10\.1\.2\.3/],
      ["https://169.254.169.254/latest/meta-data", /inside the network: 169\.254\.169\.254/],
      ["https://[::1]/in", /inside the network: ::1/],
      ["https://[fd00::1]/in", /inside the network: fd00::1/],
      ["not a url", /^URL must be a full address/],
    ];
    for (const [url, message] of cases) {
      const res = await owner.json<Json>("/api/webhooks", { json: { url, events: ["consignment.created"] } });
      expect(res.status, url).toBe(422);
      expect(res.body.errors.url[0], url).toMatch(message);
    }
    const events = await owner.json<Json>("/api/webhooks", { json: { url: "https://hooks.example.com/in", events: ["consignment.eaten"] } });
    expect(events.status).toBe(422);
    expect(Object.keys(events.body.errors)[0]).toMatch(/^events/);
    const none = await owner.json<Json>("/api/webhooks", { json: { url: "https://hooks.example.com/in", events: [] } });
    expect(none.body.errors.events).toEqual(["Events must name at least one event"]);
    const junk = await owner.json<Json>("/api/webhooks", { json: { url: "https://hooks.example.com/in", events: ["consignment.created"], secret: "mine" } });
    expect(junk.status).toBe(422);
    const ok = await owner.json<Json>("/api/webhooks", { json: { url: "https://hooks.example.com/in", events: ["consignment.created"] } });
    expect(ok.status).toBe(201);
    // a change is checked the same way
    const put = await owner.json<Json>(`/api/webhooks/${ok.body.webhook.id}`, { method: "PUT", json: { url: "https://192.168.0.10/in" } });
    expect(put.status).toBe(422);
    expect(put.body.errors.url[0]).toMatch(/inside the network/);
  });

  it("rotates the secret, answered once, and signs with the new one", async () => {
    const { webhook, secret } = await addEndpoint(owner, "/ok/rotate", ["consignment.created"]);
    const res = await owner.json<Json>(`/api/webhooks/${webhook.id}`, { method: "PUT", json: { rotate_secret: true } });
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(secret);
    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    await deliver();
    const [r] = receiver.at("/ok/rotate");
    const headers = { id: String(r!.headers["webhook-id"]), timestamp: String(r!.headers["webhook-timestamp"]), signature: String(r!.headers["webhook-signature"]) };
    expect(verify(res.body.secret, headers, r!.body)).toBe(true);
    expect(verify(secret, headers, r!.body)).toBe(false);
  });
});

describe("who may manage webhooks", () => {
  it("staff any customer's, a customer's admin their own; another customer's endpoint is 404 to them; others 403", async () => {
    const { webhook } = await addEndpoint(owner, "/ok/tenancy", ["consignment.created"]);
    const [first] = [await addEndpoint(owner, "/ok/tenancy2", ["consignment.created"])];
    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    await deliver();
    const [delivery] = await deliveriesOf(first.webhook.id);

    // the other customer's admin: Acme's endpoint does not exist for them
    for (const [method, p] of [
      ["GET", `/api/webhooks/${webhook.id}`],
      ["PUT", `/api/webhooks/${webhook.id}`],
      ["DELETE", `/api/webhooks/${webhook.id}`],
      ["GET", `/api/webhooks/${webhook.id}/deliveries`],
      ["POST", `/api/webhooks/deliveries/${delivery!.id}/replay`],
      ["GET", `/api/webhooks?customer_id=${acmeId}`],
    ] as const) {
      const res = await otherOwner.json<Json>(p, { method, ...(method === "PUT" ? { json: { active: false } } : {}) });
      expect(res.status, `${method} ${p}`).toBe(404);
    }
    const theirs = await otherOwner.json<Json>("/api/webhooks");
    expect(theirs.status).toBe(200);
    expect(theirs.body.customer.id).toBe(otherId);
    expect(theirs.body.webhooks).toEqual([]);
    // naming another customer on create is 404 too; their own is made for their customer
    expect((await otherOwner.json<Json>("/api/webhooks", { json: { url: `${receiver.base}/ok/x`, events: ["invoice.created"], customer_id: acmeId } })).status).toBe(404);
    const own = await otherOwner.json<Json>("/api/webhooks", { json: { url: `${receiver.base}/ok/x`, events: ["invoice.created"] } });
    expect(own.body.webhook.customer_id).toBe(otherId);

    // staff see and change any customer's
    const listed = await staff.json<Json>(`/api/webhooks?customer_id=${acmeId}`);
    expect(listed.body.webhooks.map((w: Json) => w.id)).toContain(webhook.id);
    expect((await staff.json<Json>(`/api/webhooks?customer_id=${otherId}`)).body.webhooks.map((w: Json) => w.id)).toEqual([own.body.webhook.id]);
    expect((await staff.json<Json>(`/api/webhooks/${own.body.webhook.id}`, { method: "PUT", json: { active: false } })).body.webhook.active).toBe(false);
    const forOther = await staff.json<Json>("/api/webhooks", { json: { url: `${receiver.base}/ok/y`, events: ["invoice.created"], customer_id: otherId } });
    expect(forOther.status).toBe(201);
    expect(forOther.body.webhook.customer_id).toBe(otherId);
    expect((await staff.json<Json>("/api/webhooks?customer_id=99999")).status).toBe(404);

    // a despatcher (not the customer's admin) and another customer's plain user: 403
    for (const client of [world.clients.despatcher, world.clients.tester]) {
      expect((await client.json<Json>("/api/webhooks")).status).toBe(403);
      expect((await client.json<Json>(`/api/webhooks/${webhook.id}`)).status).toBe(403);
      expect((await client.json<Json>("/api/webhooks", { json: { url: `${receiver.base}/ok/z`, events: ["invoice.created"] } })).status).toBe(403);
    }
    // and without a user, 401
    expect((await new Client(world.server.url).json<Json>("/api/webhooks")).status).toBe(401);

    // the owner deletes theirs, with its log
    expect((await owner.json<Json>(`/api/webhooks/${first.webhook.id}`, { method: "DELETE" })).status).toBe(200);
    expect(await deliveriesOf(first.webhook.id)).toEqual([]);
    expect((await owner.json<Json>(`/api/webhooks/${first.webhook.id}`)).status).toBe(404);
  });
});

describe("the /webhooks screen, without JavaScript", () => {
  /** A form as a browser posts it (repeated fields kept), answering the status and page. */
  const post = async (client: Client, p: string, fields: Array<[string, string]>) => {
    const res = await fetch(world.server.url + p, { method: "POST", body: new URLSearchParams(fields), headers: { cookie: client.cookie, "content-type": "application/x-www-form-urlencoded", accept: "text/html" }, redirect: "manual" });
    return { status: res.status, location: res.headers.get("location"), html: await res.text() };
  };

  it("adds an endpoint (the secret shown once), marks a bad URL by its field, shows the log and replays", async () => {
    const blank = await postFormBlank(owner, "/webhooks", ["url"], { button: "Add endpoint" });
    expect(blank.status).toBe(422);
    expectMarked(blank.$, ["url"]);

    const made = await post(owner, "/webhooks", [["intent", "create"], ["url", `${receiver.base}/ok/screen`], ["events", "consignment.created"], ["events", "tracking.updated"], ["active", "on"]]);
    expect(made.status).toBe(200);
    const secret = /whsec_[A-Za-z0-9+/=]+/.exec(made.html)?.[0];
    expect(secret).toBeTruthy();
    const [row] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.url, `${receiver.base}/ok/screen`));
    expect(row).toMatchObject({ customerId: acmeId, events: ["consignment.created", "tracking.updated"], active: true, secret });
    // the list and the endpoint's page never show it again
    expect(await (await owner.request("/webhooks", { headers: { accept: "text/html" } })).text()).not.toContain(secret);

    await support.createDespatchable(world, owner, "MEL", "NORTHLINE", "GEN");
    await deliver();
    const $ = await readPage(owner, `/webhooks/${row!.id}`);
    expect($("table").text()).toContain("consignment.created");
    expect($("table").text()).toContain("200");
    expect($(`#url`).val()).toBe(`${receiver.base}/ok/screen`);
    const [d] = await deliveriesOf(row!.id);
    const replay = await post(owner, `/webhooks/${row!.id}`, [["intent", "replay"], ["delivery_id", String(d!.id)]]);
    expect(replay.status).toBe(302);
    expect(replay.location).toBe(`/webhooks/${row!.id}?done=replayed`);
    expect(await deliveriesOf(row!.id)).toHaveLength(2);

    // unticking Active pauses it, by the same form
    const saved = await post(owner, `/webhooks/${row!.id}`, [["intent", "save"], ["url", `${receiver.base}/ok/screen`], ["events", "consignment.created"]]);
    expect(saved.status).toBe(302);
    const [after] = await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, row!.id));
    expect(after).toMatchObject({ active: false, events: ["consignment.created"] });
  });

  it("is refused to those who may not manage webhooks, and another customer's endpoint is not found", async () => {
    const { webhook } = await addEndpoint(owner, "/ok/screen-scope", ["consignment.created"]);
    expect((await world.clients.despatcher.request("/webhooks", { headers: { accept: "text/html" } })).status).toBe(403);
    const other = new Client(world.server.url);
    expect((await other.signIn("other-owner@example.test")).status).toBe(200);
    expect((await other.request(`/webhooks/${webhook.id}`, { headers: { accept: "text/html" } })).status).toBe(404);
    expect((await post(other, `/webhooks/${webhook.id}`, [["intent", "delete"]])).status).toBe(404);
    expect((await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, webhook.id))).length).toBe(1);
    // staff choose the customer
    const $ = await readPage(staff, `/webhooks?customer_id=${otherId}`);
    expect($("h1").text()).toContain("Webhooks of");
    expect($("select#customer_id option:selected").val() ?? $("select#customer_id").val()).toBe(String(otherId));
  });
});
