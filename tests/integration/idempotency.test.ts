/**
 * Idempotency keys (issue 34 item 3, docs/decisions/038): an Idempotency-Key on an /api POST keeps
 * the first answer for 24 hours and gives it again, marked Idempotent-Replayed, without running
 * the call twice; the same key with another request answers 422, a duplicate still in flight 409;
 * keys are the caller's own; a 4xx is kept, a 5xx is not; the nightly cleanup removes keys past
 * their 24 hours. Times move by the test's clock (vi.setSystemTime: the app runs in this process).
 */
import { count, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { bulkUploads, consignments, idempotencyKeys, tickets, users } from "../../db/schema";
import { runJob } from "../../queues/queue.server";
import { KEY_IN_FLIGHT, KEY_INVALID, KEY_REUSED } from "../../app/modules/idempotency/key";
import { requestHash } from "../../app/modules/idempotency/request-hash";
import * as support from "../support/despatch";
import { futureDate, receiver, senders, type DespatchWorld, type Json } from "../support/despatch";
import { Client, serveApp } from "../support/server";

let world: DespatchWorld;
/** API callers by token (a token has no idle timeout, so the clock can move a day) */
let despatcher: Client, superDespatcher: Client, tester: Client;
let despatcherId: number, acmeId: number;

const HOUR = 3_600_000;
const db = () => world.server.db;

const consignment = (reference: string, over: Record<string, unknown> = {}) => ({
  site_code: "MEL",
  reference,
  despatch_date: futureDate(),
  sender_address: senders.MEL,
  receiver_address: receiver,
  items: [{ quantity: 2, item_type_id: world.cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10" }],
  ...over,
});

/** A POST of JSON, with the key when one is given; the answer's text as sent. */
async function post(client: Client, path: string, json: unknown, key?: string) {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (key !== undefined) headers["Idempotency-Key"] = key;
  const res = await client.request(path, { method: "POST", json, headers });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Json, replayed: res.headers.get("idempotent-replayed"), res };
}

const consignmentsWith = async (reference: string) => (await db().select({ n: count() }).from(consignments).where(eq(consignments.reference, reference)))[0]!.n;
const keyRows = async (key: string) => db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));

beforeAll(async () => {
  world = await support.startDespatchWorld();
  const tokens = { despatcher: "tok-idem-despatcher", superdespatcher: "tok-idem-super", tester: "tok-idem-tester" };
  for (const [name, token] of Object.entries(tokens)) await db().update(users).set({ authenticationToken: token }).where(eq(users.email, `${name}@example.com`));
  despatcher = new Client(world.server.url, tokens.despatcher);
  superDespatcher = new Client(world.server.url, tokens.superdespatcher);
  tester = new Client(world.server.url, tokens.tester);
  const [row] = await db().select({ id: users.id, customerId: users.customerId }).from(users).where(eq(users.email, "despatcher@example.com"));
  despatcherId = row!.id;
  acmeId = row!.customerId;
}, 240_000);
afterAll(() => world?.server.close());
afterEach(() => {
  vi.useRealTimers();
});

describe("a consignment created with an Idempotency-Key", () => {
  it("is created once: the retry gets the same status and body, marked Idempotent-Replayed, and no second consignment", async () => {
    const body = consignment("IDEM-REPLAY");
    const first = await post(despatcher, "/api/consignments", body, "order-1001");
    expect(first.status, first.text).toBe(201);
    expect(first.replayed).toBeNull();
    const again = await post(despatcher, "/api/consignments", body, "order-1001");
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.replayed).toBe("true");
    expect(again.res.headers.get("content-type")).toBe(first.res.headers.get("content-type"));
    expect(await consignmentsWith("IDEM-REPLAY")).toBe(1);
    // without a key each POST creates, as before
    await post(despatcher, "/api/consignments", consignment("IDEM-NO-KEY"));
    await post(despatcher, "/api/consignments", consignment("IDEM-NO-KEY"));
    expect(await consignmentsWith("IDEM-NO-KEY")).toBe(2);
  });

  it("the same key with another body, or on another call, answers 422 and runs nothing", async () => {
    const first = await post(despatcher, "/api/consignments", consignment("IDEM-CONFLICT"), "order-2002");
    expect(first.status).toBe(201);
    const other = await post(despatcher, "/api/consignments", consignment("IDEM-CONFLICT", { reference: "IDEM-CONFLICT-2" }), "order-2002");
    expect(other.status).toBe(422);
    expect(other.body.errors.base).toEqual([KEY_REUSED]);
    expect(other.replayed).toBeNull();
    const elsewhere = await post(despatcher, "/api/returns", consignment("IDEM-CONFLICT", { return_type: "return" }), "order-2002");
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.errors.base).toEqual([KEY_REUSED]);
    expect(await consignmentsWith("IDEM-CONFLICT")).toBe(1);
    expect(await consignmentsWith("IDEM-CONFLICT-2")).toBe(0);
  });

  it("two sends at once with the same key: one runs, the other is told 409 (with Retry-After) or gets its answer", async () => {
    const body = consignment("IDEM-RACE");
    const both = await Promise.all([post(despatcher, "/api/consignments", body, "race-1"), post(despatcher, "/api/consignments", body, "race-1")]);
    expect(await consignmentsWith("IDEM-RACE")).toBe(1);
    const ran = both.filter((r) => r.status === 201 && !r.replayed);
    expect(ran).toHaveLength(1);
    const other = both.find((r) => r !== ran[0])!;
    if (other.status === 409) {
      expect(other.body.errors.base).toEqual([KEY_IN_FLIGHT]);
      expect(other.res.headers.get("retry-after")).toBe("1");
    } else {
      expect(other.replayed).toBe("true");
      expect(other.text).toBe(ran[0]!.text);
    }
  });

  it("a key still in flight answers 409 with Retry-After; a claim left by a process that died (over 10 minutes) is taken over", async () => {
    const body = consignment("IDEM-IN-FLIGHT");
    const hash = requestHash({ method: "POST", target: "/api/consignments", contentType: "application/json", body: new TextEncoder().encode(JSON.stringify(body)) });
    const claim = { userId: despatcherId, customerId: acmeId, requestHash: hash, state: "in_flight" as const };
    await db().insert(idempotencyKeys).values([
      { ...claim, key: "flight-1", createdAt: new Date(Date.now() - 5_000) },
      { ...claim, key: "flight-dead", createdAt: new Date(Date.now() - 11 * 60_000) },
    ]);
    const busy = await post(despatcher, "/api/consignments", body, "flight-1");
    expect(busy.status).toBe(409);
    expect(busy.body.errors.base).toEqual([KEY_IN_FLIGHT]);
    expect(busy.res.headers.get("retry-after")).toBe("1");
    expect(await consignmentsWith("IDEM-IN-FLIGHT")).toBe(0);
    const taken = await post(despatcher, "/api/consignments", body, "flight-dead");
    expect(taken.status).toBe(201);
    expect(await consignmentsWith("IDEM-IN-FLIGHT")).toBe(1);
    expect((await keyRows("flight-dead"))[0]!.state).toBe("done");
  });
});

describe("keys belong to their caller", () => {
  it("another user's same key, with the same body, is their own: each creates a consignment", async () => {
    const body = consignment("IDEM-CALLERS");
    const mine = await post(despatcher, "/api/consignments", body, "shared-key");
    const theirs = await post(superDespatcher, "/api/consignments", body, "shared-key");
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.replayed).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await consignmentsWith("IDEM-CALLERS")).toBe(2);
    // another customer's user too
    const tester1 = await post(tester, "/api/tickets", { full_name: "Tess", email: "tess@example.com", subject: "Hello" }, "shared-key");
    expect(tester1.replayed).toBeNull();
    expect(tester1.status, tester1.text).toBe(201);
  });

  it("without a caller the call answers its own 401 and nothing is kept", async () => {
    const res = await post(new Client(world.server.url), "/api/consignments", consignment("IDEM-ANON"), "anon-key");
    expect(res.status).toBe(401);
    expect(await keyRows("anon-key")).toEqual([]);
  });

  it("a key that is empty, over 255 characters or not printable ASCII answers 400", async () => {
    for (const key of ["", "k".repeat(256), "caf\u00e9"]) {
      const res = await post(despatcher, "/api/consignments", consignment("IDEM-BAD-KEY"), key);
      expect(res.status, JSON.stringify(key)).toBe(400);
      expect(res.body.errors.base).toEqual([KEY_INVALID]);
    }
    expect((await post(despatcher, "/api/consignments", consignment("IDEM-BAD-KEY"), "k".repeat(255))).status).toBe(201);
    expect(await consignmentsWith("IDEM-BAD-KEY")).toBe(1);
  });
});

describe("what is kept", () => {
  it("a 4xx answer is replayed too", async () => {
    const bad = { full_name: "Dana", email: "", subject: "No email" };
    const first = await post(despatcher, "/api/tickets", bad, "ticket-4xx");
    expect(first.status).toBe(422);
    expect(first.body.errors.email).toEqual(["Please enter an email"]);
    const again = await post(despatcher, "/api/tickets", bad, "ticket-4xx");
    expect(again.status).toBe(422);
    expect(again.replayed).toBe("true");
    expect(again.text).toBe(first.text);
  });

  it("a ticket is raised once", async () => {
    const ticket = { full_name: "Dana", email: "dana@example.com", subject: "IDEM ticket once" };
    const first = await post(despatcher, "/api/tickets", ticket, "ticket-once");
    expect(first.status, first.text).toBe(201);
    const again = await post(despatcher, "/api/tickets", ticket, "ticket-once");
    expect(again.replayed).toBe("true");
    expect(again.text).toBe(first.text);
    expect((await db().select({ n: count() }).from(tickets).where(eq(tickets.subject, "IDEM ticket once")))[0]!.n).toBe(1);
  });

  it("a 5xx is not kept: the key is released and a retry runs the call again", async () => {
    await db().update(users).set({ canBulkupload: true }).where(eq(users.id, despatcherId));
    // the same app and database, with a job queue that is down: the upload's transaction fails (500)
    const queue = world.server.queue;
    const down = new Proxy(queue, { get: (target, name) => (name === "enqueue" ? () => Promise.reject(new Error("queue down")) : Reflect.get(target, name)) });
    const broken = await serveApp({ ...world.server.services, queue: down });
    const csv = uploadCsv("IDEM-5XX");
    try {
      const failed = await upload(new Client(broken.url, "tok-idem-despatcher"), csv, "upload-5xx");
      expect(failed.status).toBe(500);
      expect(await keyRows("upload-5xx")).toEqual([]);
    } finally {
      await broken.close();
    }
    const retried = await upload(despatcher, csv, "upload-5xx");
    expect(retried.status, retried.text).toBe(200);
    expect(retried.replayed).toBeNull();
    expect((await keyRows("upload-5xx"))[0]).toMatchObject({ state: "done", status: 200 });
  });

  it("a multipart import is replayed, though the retry's form has a fresh boundary: one upload, one job", async () => {
    const csv = uploadCsv("IDEM-IMPORT");
    const first = await upload(despatcher, csv, "import-1");
    expect(first.status, first.text).toBe(200);
    expect(first.body.duplicate).toBe(false);
    const again = await upload(despatcher, csv, "import-1");
    expect(again.replayed).toBe("true");
    expect(again.text).toBe(first.text);
    const rows = await db().select().from(bulkUploads).where(eq(bulkUploads.fileName, "IDEM-IMPORT.csv"));
    expect(rows).toHaveLength(1);
    // another file under the same key is another request
    const other = await upload(despatcher, uploadCsv("IDEM-IMPORT", "IDEM-IMPORT-OTHER"), "import-1");
    expect(other.status).toBe(422);
    expect(other.body.errors.base).toEqual([KEY_REUSED]);
  });
});

describe("after 24 hours", () => {
  it("a key is ignored (the call runs again) and the nightly cleanup removes it; within the 24 hours it is replayed", async () => {
    const start = new Date();
    vi.useFakeTimers({ toFake: ["Date"], now: start, shouldAdvanceTime: true });
    const body = consignment("IDEM-EXPIRY");
    const first = await post(despatcher, "/api/consignments", body, "expiring");
    expect(first.status).toBe(201);
    vi.setSystemTime(start.getTime() + 23 * HOUR + 59 * 60_000);
    const replayed = await post(despatcher, "/api/consignments", body, "expiring");
    expect(replayed.replayed).toBe("true");
    expect(await consignmentsWith("IDEM-EXPIRY")).toBe(1);
    vi.setSystemTime(start.getTime() + 24 * HOUR + 60_000);
    const rerun = await post(despatcher, "/api/consignments", body, "expiring");
    expect(rerun.status).toBe(201);
    expect(rerun.replayed).toBeNull();
    expect(rerun.body.id).not.toBe(first.body.id);
    expect(await consignmentsWith("IDEM-EXPIRY")).toBe(2);

    // the cleanup a day after the rerun's claim removes it, and every key claimed before it
    const kept = await post(despatcher, "/api/consignments", consignment("IDEM-EXPIRY-KEPT"), "kept");
    expect(kept.status).toBe(201);
    const [keptRow] = await keyRows("kept");
    const cleanupAt = new Date(keptRow!.createdAt.getTime() + 24 * HOUR - 1);
    await runJob(world.deps, "maintenance.cleanup", { now: cleanupAt.toISOString() });
    const left = await db().select({ key: idempotencyKeys.key }).from(idempotencyKeys);
    expect(left.map((r) => r.key).sort()).toEqual(["kept"]);
  });
});

/** A one-line bulk upload CSV whose consignment reference and file name are `name`. */
function uploadCsv(name: string, reference = name) {
  const header = "site_code,despatch_date,reference,receiver_name,receiver_address_line_1,receiver_locality,receiver_postcode,receiver_region,carrier_code,service_code,item_type,quantity,length,width,height,weight,item_reference";
  const date = futureDate().split("-").reverse().join("/");
  return { name, text: [header, `MEL,${date},${reference},Brisbane Hardware,5 Ipswich Road,WOOLLOONGABBA,4102,QLD,,,Carton,1,40,30,20,5,`].join("\n") };
}

/** The upload as a form sends it: multipart, a fresh boundary on every send. */
async function upload(client: Client, csv: { name: string; text: string }, key: string) {
  const form = new FormData();
  form.set("type", "consignment");
  form.set("file", new File([csv.text], `${csv.name}.csv`, { type: "text/csv" }));
  const res = await fetch(`${client.base}/api/bulk_upload/import`, { method: "POST", headers: { authorization: `Bearer ${client.bearer}`, Accept: "application/json", "Idempotency-Key": key }, body: form });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) as Json, replayed: res.headers.get("idempotent-replayed") };
}
