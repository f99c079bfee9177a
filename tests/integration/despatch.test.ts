import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccounts, carriers, consignmentChanges, consignments, jobs, mailMessages, manifests } from "../../db/schema";
import { runDespatch } from "../../app/modules/despatch/despatch.server";
import { initiateCancel } from "../../app/modules/despatch/cancel.server";
import { loadCurrentUser } from "../../app/modules/auth/current-user.server";
import { createMailer } from "../../app/modules/mail/mailer.server";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import { futureDate, receiver, senders, type DespatchWorld, type Json } from "../support/despatch";

let world: DespatchWorld;
let server: TestServer;
let despatcher: Client;
let admin: Client;
let devs: Client;
let customerService: Client;
let tester: Client;
let cartonTypeId: number;

const pickupWindow = () => ({ ready_at: `${futureDate()} 09:00`, closing_at: `${futureDate()} 17:00` });
const create = (client: Client, site: "MEL" | "SYD", carrier: string, service: string, over: Record<string, unknown> = {}) => support.createDespatchable(world, client, site, carrier, service, over);
const work = (jobId: string) => support.workJob(world, jobId);
const rowsOf = (ids: number[]) => support.rowsOf(world, ids);
const simulate = (settings: Record<string, unknown>) => support.simulate(world, settings);

/** A return from a receiver back to Melbourne on `carrier`, with a pickup window and the given pickup details. */
async function createReturn(reference: string, carrier: [string, string], info: Record<string, unknown>): Promise<Json> {
  const res = await despatcher.json<Json>("/api/returns", {
    json: {
      site_code: "MEL",
      reference,
      despatch_date: futureDate(),
      sender_address: receiver,
      receiver_address: senders.MEL,
      items: [{ quantity: 1, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "5" }],
      carrier_code: carrier[0],
      service_code: carrier[1],
      ...(carrier[0] === "SIMEX" ? { pickup_at: `${futureDate()} 10:00` } : {}),
      return_info: { ...pickupWindow(), contact_name: "Sam", phone_number: "07 3333 4444", pickup_location: "Dock 2", ...info },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.state, JSON.stringify(res.body.errors)).toBe("despatchable");
  return res.body;
}

beforeAll(async () => {
  world = await support.startDespatchWorld();
  ({ server, cartonTypeId } = world);
  ({ despatcher, admin, devs, customerService, tester } = world.clients);
}, 120_000);
afterAll(() => server.close());

describe("despatch", () => {
  it("despatches a mixed selection into one manifest per site, carrier and account, with numbers from the account ranges", async () => {
    const created = [
      await create(despatcher, "MEL", "NORTHLINE", "GEN"),
      await create(despatcher, "MEL", "NORTHLINE", "RXP"),
      await create(despatcher, "MEL", "SIMEX", "ONT"),
      await create(despatcher, "SYD", "NORTHLINE", "GEN"),
      await create(despatcher, "MEL", "auspost", "PP"),
    ];
    const ids = created.map((c) => c.id);
    // Northline and Simulated Express print consignment notes (print_consignments); Australia Post does not
    expect(created.map((c) => c.print_connote)).toEqual([true, true, true, true, false]);
    expect(created.every((c) => c.print_dangerous_goods_documents === false)).toBe(true);
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.job_id).toMatch(/^[0-9a-f-]{36}$/);
    // queued: the selection is despatching and no longer despatchable
    expect((await rowsOf(ids)).map((r) => r.state)).toEqual(Array(5).fill("despatching"));

    const job = await work(res.body.job_id);
    expect(job.status).toBe("complete");
    expect(job.message).toBe("Your consignments have been despatched.");
    expect(job.errors).toEqual([]);
    expect(job.info.despatched.sort()).toEqual([...ids].sort());
    expect(job.info.failed).toEqual([]);

    const rows = await rowsOf(ids);
    expect(rows.every((r) => r.state === "despatched")).toBe(true);
    // MEL+Northline (two services, one account), MEL+Simex, SYD+Northline, MEL+Australia Post
    const manifestIds = new Set(rows.map((r) => r.manifestId));
    expect(manifestIds.size).toBe(4);
    expect(rows[0]!.manifestId).toBe(rows[1]!.manifestId);
    expect(job.info.manifest_ids.sort()).toEqual([...manifestIds].sort());
    // Australia Post goes separately; its manifest is polled before printing
    expect(job.info.auspost_manifest_ids).toEqual([rows[4]!.manifestId]);

    const ms = await server.db
      .select({ id: manifests.id, number: manifests.number, siteId: manifests.siteId, status: manifests.status, failed: manifests.failedDespatch, printConnote: manifests.printConnote, accountNumber: carrierAccounts.accountNumber, prefix: carrierAccounts.manifestNumberPrefix })
      .from(manifests)
      .innerJoin(carrierAccounts, eq(carrierAccounts.id, manifests.carrierAccountId))
      .where(inArray(manifests.id, [...manifestIds] as number[]));
    for (const m of ms) {
      expect(m.printConnote).toBe(!m.accountNumber.startsWith("AP"));
      expect(m.number.startsWith(m.prefix)).toBe(true);
      expect(m.status).toBe("ready");
      expect(m.failed).toBe(false);
    }
    expect(ms.map((m) => m.accountNumber).sort()).toEqual(["APMEL001", "NLMEL001", "NLSYD001", "SXMEL001"]);
    // every consignment got its number from its own account's range, and a cancellation window
    for (const r of rows) {
      const [account] = await server.db.select().from(carrierAccounts).where(eq(carrierAccounts.id, r.carrierAccountId!));
      expect(r.consignmentNumber!.startsWith(account!.consignmentNumberPrefix)).toBe(true);
      expect(r.cancellationAllowedDate!.getTime()).toBeGreaterThan(Date.now());
    }
    expect(new Set(rows.map((r) => r.consignmentNumber)).size).toBe(5);
    // the history says who despatched it
    const history = await server.db.select().from(consignmentChanges).where(and(eq(consignmentChanges.consignmentId, ids[0]!), eq(consignmentChanges.field, "state")));
    expect(history.map((h) => `${h.fromValue}->${h.toValue}`)).toEqual(expect.arrayContaining(["despatchable->despatching", "despatching->despatched"]));
    // despatched consignments cannot be despatched again
    const again = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [ids[0]] } });
    expect(again.status).toBe(409);
    expect(again.body.errors.base).toEqual(["At least one of the consignments you have selected is not despatchable."]);
  });

  it("refuses an empty selection, a selection with one that is not despatchable, and someone else's consignment, changing nothing", async () => {
    const empty = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [] } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.ids).toEqual(["No consignments have been selected for despatch."]);
    const none = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: {} });
    expect(none.status).toBe(422);

    const ready = await create(despatcher, "MEL", "NORTHLINE", "GEN");
    const open = (await despatcher.json<Json>("/api/consignments", { json: { site_code: "MEL", reference: "no items", receiver_address: receiver, items: [] } })).body;
    expect(open.state).toBe("open");
    const mixed = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [ready.id, open.id] } });
    expect(mixed.status).toBe(409);
    expect(mixed.body.errors.base).toEqual(["At least one of the consignments you have selected is not despatchable."]);
    expect((await rowsOf([ready.id]))[0]!.state).toBe("despatchable");

    // another customer's user cannot despatch it, nor learn that it exists
    const foreign = await tester.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [ready.id] } });
    expect(foreign.status).toBe(404);
    expect((await rowsOf([ready.id]))[0]!.state).toBe("despatchable");
    const get = await despatcher.request("/api/consignments/despatch_all");
    expect(get.status).toBe(405);
  });

  it("despatches one consignment from its own PUT, saving it first when the body carries it", async () => {
    const c = await create(despatcher, "MEL", "NORTHLINE", "GEN");
    const res = await despatcher.json<Json>(`/api/consignments/${c.id}`, { method: "PUT", json: { ...c, reference: "CHANGED", despatch: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const job = await work(res.body.job_id);
    expect(job.status).toBe("complete");
    const [row] = await rowsOf([c.id]);
    expect(row!.reference).toBe("CHANGED");
    expect(row!.state).toBe("despatched");
  });

  it("a failing carrier leaves the consignment in despatch_failure; redespatch retries the same manifest and succeeds once the carrier takes it", async () => {
    await simulate({ fail_despatch: true });
    try {
      const failing = await create(despatcher, "MEL", "SIMEX", "ONT");
      const fine = await create(despatcher, "MEL", "NORTHLINE", "GEN");
      const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [failing.id, fine.id] } });
      const job = await work(res.body.job_id);
      expect(job.status).toBe("failed");
      expect(job.message).toBe("Sorry, your consignments failed to despatch. Please contact customer services.");
      const [failedRow, fineRow] = await rowsOf([failing.id, fine.id]);
      expect(failedRow!.state).toBe("despatch_failure");
      expect(fineRow!.state).toBe("despatched");
      expect(job.errors).toEqual([`Despatch failed Consignment(s): ${failedRow!.consignmentNumber}`]);
      const [manifest] = await server.db.select().from(manifests).where(eq(manifests.id, failedRow!.manifestId!));
      expect(manifest!.failedDespatch).toBe(true);
      expect(manifest!.status).toBe("failed");
      expect(manifest!.failureReason).toMatch(/simulated failure/);

      // still failing: the redespatch job says so
      const retry = await despatcher.json<Json>(`/api/consignments/${failing.id}`, { method: "PUT", json: { redespatch: true } });
      expect(retry.status).toBe(200);
      expect((await rowsOf([failing.id]))[0]!.state).toBe("despatching");
      const retryJob = await work(retry.body.job_id);
      expect(retryJob.status).toBe("failed");
      expect(retryJob.message).toBe("Manifest failed to redespatch.");
      expect((await rowsOf([failing.id]))[0]!.state).toBe("despatch_failure");

      await simulate({ fail_despatch: false });
      const second = await despatcher.json<Json>(`/api/consignments/${failing.id}`, { method: "PUT", json: { redespatch: true } });
      const secondJob = await work(second.body.job_id);
      expect(secondJob.status).toBe("complete");
      expect(secondJob.message).toBe("Your consignments have been despatched.");
      const [after] = await rowsOf([failing.id]);
      expect(after!.state).toBe("despatched");
      // the same manifest and numbers: nothing allocated twice
      expect(after!.manifestId).toBe(failedRow!.manifestId);
      expect(after!.consignmentNumber).toBe(failedRow!.consignmentNumber);
      const [again] = await server.db.select().from(manifests).where(eq(manifests.id, failedRow!.manifestId!));
      expect(again!.number).toBe(manifest!.number);
      expect(again!.failedDespatch).toBe(false);

      // only failed consignments can be redespatched
      const refused = await despatcher.json<Json>(`/api/consignments/${fine.id}`, { method: "PUT", json: { redespatch: true } });
      expect(refused.status).toBe(409);
      expect(refused.body.errors.base).toEqual(["Only a consignment whose despatch failed can be redespatched"]);
    } finally {
      await simulate({ fail_despatch: false });
    }
  });

  it("a failed return is reported as a return", async () => {
    await simulate({ fail_despatch: true });
    try {
      const ret = await createReturn("RMA-1", ["SIMEX", "ONT"], {});
      const res = await despatcher.json<Json>(`/api/returns/${ret.id}/despatch`, { json: { send_email: false } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const job = await work(res.body.job_id);
      const [row] = await rowsOf([ret.id]);
      expect(job.errors).toEqual([`Return failed to despatch: ${row!.consignmentNumber}`]);
    } finally {
      await simulate({ fail_despatch: false });
    }
  });

  it("is idempotent: the job run twice, and twice at once, gives the same manifests and numbers", async () => {
    const created = [await create(despatcher, "MEL", "NORTHLINE", "GEN"), await create(despatcher, "MEL", "SIMEX", "ONT"), await create(despatcher, "SYD", "NORTHLINE", "GEN")];
    const ids = created.map((c) => c.id);
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
    const [jobRow] = await server.db.select().from(jobs).where(eq(jobs.id, res.body.job_id));
    expect(jobRow!.status).toBe("queued");
    const [{ id: customerId }] = [{ id: (await rowsOf(ids))[0]!.customerId }];
    const payload = { ids, customerId, userId: jobRow!.userId!, sendEmail: false };
    const before = await server.db.select({ n: sql<number>`count(*)::int` }).from(manifests);
    const noProgress = async () => {};

    const [a, b] = await Promise.all([runDespatch(server.db, payload, noProgress), runDespatch(server.db, payload, noProgress)]);
    const c = await runDespatch(server.db, payload, noProgress);
    const after = await server.db.select({ n: sql<number>`count(*)::int` }).from(manifests);
    expect(after[0]!.n - before[0]!.n).toBe(3);
    expect(a.manifest_ids.sort()).toEqual(b.manifest_ids.sort());
    expect(c.manifest_ids.sort()).toEqual(a.manifest_ids.sort());
    const rows = await rowsOf(ids);
    expect(rows.every((r) => r.state === "despatched")).toBe(true);
    const numbers = rows.map((r) => r.consignmentNumber);
    // and the queued job itself, run afterwards, changes nothing
    const job = await work(res.body.job_id);
    expect(job.status).toBe("complete");
    expect((await rowsOf(ids)).map((r) => r.consignmentNumber)).toEqual(numbers);
    expect((await server.db.select({ n: sql<number>`count(*)::int` }).from(manifests))[0]!.n).toBe(after[0]!.n);
    // each state change written once
    const changes = await server.db.select().from(consignmentChanges).where(and(inArray(consignmentChanges.consignmentId, ids), eq(consignmentChanges.toValue, "despatched")));
    expect(changes).toHaveLength(3);
  });
});

describe("returns despatch and e-mail", () => {
  it("Despatch + email sends the labels and manifest as PDFs to the pickup contact; Resend email sends them again", async () => {
    const ret = await createReturn("RMA-2", ["NORTHLINE", "GEN"], { email: "sam@pickup.example", email_body: "Gate code 1234" });
    const res = await despatcher.json<Json>(`/api/returns/${ret.id}/despatch`, { json: { send_email: true } });
    const job = await work(res.body.job_id);
    expect(job.status, JSON.stringify(job)).toBe("complete");
    // spec 3: what the screen shows once Despatch + email is done
    expect(job.message).toBe("Labels and manifest emailed.");
    const sent = await server.db.select().from(mailMessages).where(eq(mailMessages.to, "sam@pickup.example"));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("Hello Sam,");
    expect(sent[0]!.text).toContain("Gate code 1234");
    expect(sent[0]!.text).toContain("Collection should occur within 3 business days.");
    expect(sent[0]!.attachments.map((a) => a.filename)).toEqual([expect.stringMatching(/^labels-.+\.pdf$/), expect.stringMatching(/^manifest-.+\.pdf$/)]);
    for (const a of sent[0]!.attachments) expect(Buffer.from(a.content_base64, "base64").subarray(0, 5).toString()).toBe("%PDF-");

    const again = await despatcher.json<Json>(`/api/returns/${ret.id}/email`, { method: "POST" });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.message).toBe("Labels and manifest emailed.");
    expect(await server.db.select().from(mailMessages).where(eq(mailMessages.to, "sam@pickup.example"))).toHaveLength(2);
  }, 60_000);

  it("refuses Despatch + email without an address, and e-mail before despatch", async () => {
    const ret = await createReturn("RMA-3", ["NORTHLINE", "GEN"], {});
    const res = await despatcher.json<Json>(`/api/returns/${ret.id}/despatch`, { json: { send_email: true } });
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toEqual(["This return has no email address to send its labels to"]);
    const email = await despatcher.json<Json>(`/api/returns/${ret.id}/email`, { method: "POST" });
    expect(email.status).toBe(422);
    // an outbound consignment is not a return
    const outbound = await create(despatcher, "MEL", "NORTHLINE", "GEN");
    expect((await despatcher.json<Json>(`/api/returns/${outbound.id}/despatch`, { json: {} })).status).toBe(404);
  });
});

describe("cancellation", () => {
  async function despatched(carrier: string, service: string) {
    const c = await create(despatcher, "MEL", carrier, service);
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await work(res.body.job_id)).status).toBe("complete");
    return c.id as number;
  }
  const cancel = (client: Client, id: number) => client.json<Json>(`/api/consignments/${id}/initiate_cancel`, { method: "PUT" });

  it("by e-mail to the account's support address within the window (cancel_confirmed)", async () => {
    const id = await despatched("auspost", "PP");
    const res = await cancel(despatcher, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      result: "cancel_confirmed",
      message: "An email has been sent to the carrier to cancel this consignment. Please follow up with the carrier to make sure it is not collected.",
      state: "cancelled",
    });
    const mail = await server.db.select().from(mailMessages).where(eq(mailMessages.to, "support@auspost.example"));
    expect(mail.some((m) => m.subject.startsWith("Cancellation request"))).toBe(true);
    const twice = await cancel(despatcher, id);
    expect(twice.status).toBe(409);
    expect(twice.body.errors.base).toEqual(["This consignment has already been cancelled"]);
  });

  it("outside the window a despatcher is refused but an admin may still cancel", async () => {
    const id = await despatched("auspost", "PP");
    await server.db.update(consignments).set({ cancellationAllowedDate: new Date(Date.now() - 60_000) }).where(eq(consignments.id, id));
    const refused = await cancel(despatcher, id);
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual(["The time to cancel this consignment has passed. Please contact customer services."]);
    expect((await rowsOf([id]))[0]!.state).toBe("despatched");
    const allowed = await cancel(admin, id);
    expect(allowed.status).toBe(200);
    expect(allowed.body.state).toBe("cancelled");
    // customer service and super admins count as admins here too (spec 1 section 6)
    for (const client of [customerService, devs]) {
      const other = await despatched("auspost", "PP");
      await server.db.update(consignments).set({ cancellationAllowedDate: new Date(Date.now() - 60_000) }).where(eq(consignments.id, other));
      const res = await cancel(client, other);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.state).toBe("cancelled");
    }
  });

  it("a Northline consignment of the demo is cancelled by e-mail to its account's support address", async () => {
    const id = await despatched("NORTHLINE", "GEN");
    const res = await cancel(despatcher, id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ result: "cancel_confirmed", state: "cancelled" });
    const [row] = await rowsOf([id]);
    const mail = await server.db.select().from(mailMessages).where(eq(mailMessages.to, "support@northline.example"));
    expect(mail.some((m) => m.subject.startsWith("Cancellation request") && m.text.includes(row!.consignmentNumber!))).toBe(true);
  });

  it("is refused with 'Account support email is missing' when the account has none", async () => {
    const id = await despatched("NORTHLINE", "GEN");
    const [row] = await rowsOf([id]);
    await server.db.update(carrierAccounts).set({ supportEmail: null }).where(eq(carrierAccounts.id, row!.carrierAccountId!));
    const got = await despatcher.json<Json>(`/api/consignments/${id}`);
    expect(got.body.support_email_empty).toBe(true);
    const res = await cancel(despatcher, id);
    expect(res.status).toBe(422);
    expect(res.body.errors.base).toEqual(["Account support email is missing"]);
  });

  it("cancel_pending, then only customer service confirms it", async () => {
    await simulate({ cancel_result: "cancel_pending" });
    const id = await despatched("SIMEX", "ONT");
    const res = await cancel(despatcher, id);
    expect(res.body).toMatchObject({ result: "cancel_pending", state: "cancelling" });
    expect(res.body.message).toMatch(/sent to the carrier/);
    const byDespatcher = await despatcher.json<Json>(`/api/consignments/${id}/confirm_cancel`, { method: "PUT" });
    expect(byDespatcher.status).toBe(403);
    const byCs = await customerService.json<Json>(`/api/consignments/${id}/confirm_cancel`, { method: "PUT" });
    expect(byCs.status, JSON.stringify(byCs.body)).toBe(200);
    expect(byCs.body).toMatchObject({ message: "The cancellation has been confirmed.", state: "cancelled" });
    // nothing left to confirm
    expect((await customerService.json<Json>(`/api/consignments/${id}/confirm_cancel`, { method: "PUT" })).status).toBe(409);
  });

  it("cancel_rejected keeps the state and answers the carrier's message", async () => {
    await simulate({ cancel_result: "cancel_rejected", reject_message: "Already collected by the driver." });
    try {
      const id = await despatched("SIMEX", "ONT");
      const res = await cancel(despatcher, id);
      expect(res.body).toEqual({ result: "cancel_rejected", message: "Already collected by the driver.", state: "despatched" });
      expect((await rowsOf([id]))[0]!.state).toBe("despatched");
    } finally {
      await simulate({ cancel_result: "cancel_pending" });
    }
  });

  it("an auto-delivered consignment is cancelled at once", async () => {
    const id = await despatched("auspost", "PP");
    await server.db.update(consignments).set({ autoDelivered: true, state: "delivered" }).where(eq(consignments.id, id));
    const res = await cancel(despatcher, id);
    expect(res.body).toEqual({ result: "cancel_confirmed_for_auto_delivered", message: "The consignment has been cancelled.", state: "cancelled" });
  });

  it("is refused before despatch, outside QA and UAT, and for another customer's user", async () => {
    const c = await create(despatcher, "MEL", "auspost", "PP");
    const early = await cancel(despatcher, c.id);
    expect(early.status).toBe(409);
    expect(early.body.errors.base).toEqual(["Only a despatched consignment can be cancelled"]);
    const id = await despatched("auspost", "PP");
    const user = (await loadCurrentUser(server.db, (await rowsOf([id]))[0]!.createdBy!))!;
    await expect(initiateCancel(server.db, createMailer(server.db, { from: "t@x" }), user, id, { offered: false })).rejects.toMatchObject({ code: "forbidden" });
    expect((await cancel(tester, id)).status).toBe(404);
  });

  it("only super admins steer the simulated carrier, and only it", async () => {
    expect((await despatcher.json<Json>("/api/carriers/SIMEX/simulation", { method: "PUT", json: { fail_despatch: true } })).status).toBe(403);
    const generic = await devs.json<Json>("/api/carriers/NORTHLINE/simulation", { method: "PUT", json: { fail_despatch: true } });
    expect(generic.status).toBe(409);
    const bad = await devs.json<Json>("/api/carriers/SIMEX/simulation", { method: "PUT", json: { cancel_result: "maybe" } });
    expect(bad.status).toBe(422);
    const [simex] = await server.db.select().from(carriers).where(eq(carriers.code, "SIMEX"));
    expect((simex!.options.simulate as Json | undefined)?.fail_despatch ?? false).toBe(false);
  });
});
