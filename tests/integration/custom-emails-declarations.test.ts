import { and, asc, desc, eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customEmails, customers, itemTypes, jobs, mailMessages, notificationConfigs, notificationTypes } from "../../db/schema";
import { createItemType } from "../../db/seed/factories";
import { runJob } from "../../queues/queue.server";
import { MESSAGES as DECLARATION } from "../../app/modules/declarations/declarations";
import { MESSAGES as CUSTOM } from "../../app/modules/custom-emails/custom-emails";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import { futureDate, type DespatchWorld, type Json } from "../support/despatch";

/**
 * Custom e-mails and declarations (issue 16 item 8) through the real server: staff-only calls and
 * screens, the wording sanitised and used by the return and notification e-mails (read back from
 * the database mailbox), PDF uploads checked by their bytes and size, and the declarations
 * appended to the dangerous goods document when the customer's print_declarations is on.
 */
let world: DespatchWorld;
let server: TestServer;
let c: DespatchWorld["clients"];
let acmeId: number;
let testCoId: number;
let palletId: number;
let cartonId: number;

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  c = world.clients;
  const all = await server.db.select().from(customers);
  acmeId = all.find((x) => x.code === "ACME")!.id;
  testCoId = all.find((x) => x.code === "TESTCO")!.id;
  const types = await server.db.select().from(itemTypes).where(eq(itemTypes.customerId, acmeId));
  palletId = types.find((t) => t.name === "Pallet")!.id;
  cartonId = types.find((t) => t.name === "Carton")!.id;
}, 120_000);
afterAll(() => server.close());

async function pdf(pages: number, text = "declaration"): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]).drawText(`${text} ${i + 1}`, { x: 10, y: 100, size: 12 });
  return doc.save();
}

/** A multipart call with the client's session, as the screen or a script sends it. */
async function upload(client: Client, path: string, fields: Record<string, string>, file?: { bytes: Uint8Array; name: string; type?: string }, method = "POST") {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  if (file) form.set("file", new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type ?? "application/pdf" }), file.name);
  const res = await fetch(server.url + path, { method, body: form, headers: { cookie: client.cookie, "X-Requested-With": "XMLHttpRequest", Accept: "application/json" }, redirect: "manual" });
  return { status: res.status, body: (await res.json().catch(() => null)) as Json, res };
}

const emails = (id = acmeId) => `/api/customers/${id}/custom_emails`;
const decls = (id = acmeId) => `/api/customers/${id}/declarations`;

describe("custom e-mails through the API", () => {
  it("lists both kinds, saves sanitised wording, refuses unknown tags, resets to the default", async () => {
    const list = await c.admin.json<Json[]>(emails());
    expect(list.status).toBe(200);
    expect(list.body.map((e) => [e.kind, e.customised])).toEqual([
      ["return", false],
      ["notification", false],
    ]);

    const evil = '<p onclick="steal()">Hello <a href="javascript:alert(1)">x</a><script>alert(3)</script><strong>bold</strong></p>';
    const saved = await c.customerService.json<Json>(`${emails()}/return`, { method: "PUT", json: { subject: "Pickup {{ consignment_number }}", header: evil, body: "<p>Body</p>", footer: "<p>Foot</p>" } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({ kind: "return", customised: true, subject: "Pickup {{ consignment_number }}", body: "<p>Body</p>" });
    expect(saved.body.header).not.toMatch(/script|onclick|javascript/);
    expect(saved.body.header).toContain("<strong>bold</strong>");
    const [row] = await server.db.select().from(customEmails).where(and(eq(customEmails.customerId, acmeId), eq(customEmails.kind, "return")));
    expect(row!.header).not.toMatch(/script|onclick|javascript/);
    // by the row's id too
    expect((await c.admin.json<Json>(`${emails()}/${row!.id}`)).body).toMatchObject({ kind: "return", id: row!.id });

    const bad = await c.admin.json<Json>(`${emails()}/return`, { method: "PUT", json: { subject: "{{ password }}", body: "<p>{% if x %}y{% endif %}</p>" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.subject[0]).toMatch(/^Unknown tag \{\{ password \}\}/);
    expect(bad.body.errors.body[0]).toMatch(/is not allowed/);
    expect((await c.admin.json<Json>(`${emails()}/return`, { method: "PUT", json: { header: "<p><script>x</script></p>" } })).body.errors.base).toEqual([CUSTOM.empty]);
    expect((await c.admin.json<Json>(`${emails()}/other`)).status).toBe(422);

    // a notification frame keeps only header and footer
    const frame = await c.admin.json<Json>(`${emails()}/notification`, { method: "PUT", json: { subject: "x", header: "<p>Reset me</p>", body: "<p>ignored</p>" } });
    expect(frame.body).toMatchObject({ customised: true, subject: null, body: null, header: "<p>Reset me</p>" });
    const reset = await c.admin.json<Json>(`${emails()}/notification`, { method: "DELETE" });
    expect(reset.body).toMatchObject({ customised: false, header: null, id: null });
    expect((await server.db.select().from(customEmails).where(and(eq(customEmails.customerId, acmeId), eq(customEmails.kind, "notification"))))).toHaveLength(0);
  });

  it("is for staff only: despatchers get 403 and the screens send them home; an unknown customer is 404", async () => {
    for (const client of [c.despatcher, c.superDespatcher, c.tester]) {
      expect((await client.json(emails())).status).toBe(403);
      expect((await client.json(`${emails()}/return`, { method: "PUT", json: { body: "<p>x</p>" } })).status).toBe(403);
      expect((await client.json(`${emails()}/return`, { method: "DELETE" })).status).toBe(403);
      const page = await client.request(`/customers/${acmeId}/custom_emails/return`, { headers: { Accept: "text/html" } });
      expect(page.status).toBe(302);
      expect(page.headers.get("location")).toBe("/");
    }
    for (const client of [c.admin, c.devs, c.customerService]) expect((await client.json(emails())).status).toBe(200);
    expect((await c.admin.json(emails(999_999))).status).toBe(404);
    // another customer's row id is not this customer's
    const other = await c.admin.json<Json>(`${emails(testCoId)}/return`, { method: "PUT", json: { body: "<p>Test co</p>" } });
    expect((await c.admin.json(`${emails()}/${other.body.id}`)).status).toBe(404);
    expect((await c.admin.request(`/customers/${acmeId}/custom_emails/${other.body.id}`, { headers: { Accept: "text/html" } })).status).toBe(404);
  });

  it("the screen saves, previews and resets by form post", async () => {
    const path = `/customers/${acmeId}/custom_emails/notification`;
    const page = await c.admin.request(path, { headers: { Accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Notification frame");
    const saved = await c.admin.request(path, { form: { intent: "save", header: "<p>Screen header</p>", footer: "<p>Screen footer</p>" } });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(`${path}?done=saved`);
    const shown = await (await c.admin.request(`${path}?done=saved`, { headers: { Accept: "text/html" } })).text();
    expect(shown).toContain(CUSTOM.saved);
    expect(shown).toContain("Screen header");
    // the trail: the customer, its Custom E-mails, this kind
    expect(shown).toMatch(new RegExp(`href="/customers/${acmeId}/custom_emails">Custom E-mails</a>`));
    const reset = await c.admin.request(path, { form: { intent: "reset" } });
    expect(reset.headers.get("location")).toBe(`${path}?done=reset`);
    expect((await c.admin.json<Json>(`${emails()}/notification`)).body.customised).toBe(false);
  });
});

describe("the e-mails use the customer's wording", () => {
  it("the return e-mail: subject, header, body with its tags, the return's notes, footer", async () => {
    await c.admin.json(`${emails()}/return`, {
      method: "PUT",
      json: { subject: "ACME pickup {{ consignment_number }}", header: "<p>ACME Returns</p>", body: "<p>Dear {{ sender_name }}, your collection is booked.</p>", footer: "<p>Thanks, ACME</p>" },
    });
    const to = "custom-return@pickup.example";
    const ret = await c.despatcher.json<Json>("/api/returns", {
      json: {
        site_code: "MEL",
        reference: "RMA-CUSTOM",
        despatch_date: futureDate(),
        sender_address: support.receiver,
        receiver_address: support.senders.MEL,
        items: [{ quantity: 1, item_type_id: cartonId, length: 40, width: 30, height: 30, weight_in_uom: "5" }],
        carrier_code: "NORTHLINE",
        service_code: "GEN",
        return_info: { ready_at: `${futureDate()} 09:00`, closing_at: `${futureDate()} 17:00`, contact_name: "Sam", phone_number: "07 3333 4444", email: to, email_body: "Gate code 1234" },
      },
    });
    expect(ret.body.state, JSON.stringify(ret.body)).toBe("despatchable");
    const res = await c.despatcher.json<Json>(`/api/returns/${ret.body.id}/despatch`, { json: { send_email: true } });
    expect((await support.workJob(world, res.body.job_id)).status).toBe("complete");
    const [mail] = await server.db.select().from(mailMessages).where(eq(mailMessages.to, to));
    const [row] = await support.rowsOf(world, [ret.body.id]);
    expect(mail!.subject).toBe(`ACME pickup ${row!.consignmentNumber}`);
    expect(mail!.text.split("\n\n")).toEqual(["ACME Returns", `Dear ${support.receiver.name}, your collection is booked.`, "Gate code 1234", "Thanks, ACME"]);
    expect(mail!.html).toContain("ACME Returns");
    expect(mail!.attachments).toHaveLength(2);

    // reset: the default wording again
    await c.admin.json(`${emails()}/return`, { method: "DELETE" });
    await c.despatcher.json(`/api/returns/${ret.body.id}/email`, { method: "POST" });
    const [latest] = await server.db.select().from(mailMessages).where(eq(mailMessages.to, to)).orderBy(desc(mailMessages.id));
    expect(latest!.subject).toBe(`Collection labels for consignment ${row!.consignmentNumber}`);
    expect(latest!.text).toContain("Collection should occur within 3 business days.");
  }, 60_000);

  it("a notification e-mail is framed by the customer's header and footer", async () => {
    const [email] = await server.db.select().from(notificationTypes).where(eq(notificationTypes.name, "Email"));
    await server.db.delete(notificationConfigs);
    await server.db.insert(notificationConfigs).values({ customerId: acmeId, parentType: "customer", parentId: acmeId, notificationTypeId: email!.id, consignmentState: "despatched", template: "<p>Consignment {{ consignment_number }} is on its way.</p>" });
    await c.admin.json(`${emails()}/notification`, { method: "PUT", json: { header: "<p>ACME Deliveries</p>", footer: "<p>Questions? Call {{ sender_site_phone }}</p>" } });
    const to = "framed@example.net";
    const made = await support.createDespatchable(world, c.despatcher, "MEL", "NORTHLINE", "GEN", { receiver_address: { ...support.receiver, email: to } });
    const res = await c.despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [made.id] } });
    expect((await support.workJob(world, res.body.job_id)).status).toBe("complete");
    const queued = await server.db.select().from(jobs).where(and(eq(jobs.name, "notifications.send"), eq(jobs.status, "queued"))).orderBy(asc(jobs.createdAt));
    for (const j of queued) {
      const job = await support.queuedJob(world, j.id);
      await runJob(world.deps, job.name, job.data);
    }
    const [mail] = await server.db.select().from(mailMessages).where(eq(mailMessages.to, to));
    const [row] = await support.rowsOf(world, [made.id]);
    const lines = mail!.text.split("\n\n");
    expect(lines[0]).toBe("ACME Deliveries");
    expect(lines[1]).toBe(`Consignment ${row!.consignmentNumber} is on its way.`);
    expect(lines[2]).toMatch(/^Questions\? Call \S/);
    await c.admin.json(`${emails()}/notification`, { method: "DELETE" });
  }, 60_000);
});

describe("declarations", () => {
  it("uploads, lists, reads, changes, downloads and deletes a PDF declaration", async () => {
    const created = await upload(c.admin, decls(), { name: "Motor spirit SDS", item_type_id: String(palletId) }, { bytes: await pdf(2), name: "sds.pdf" });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ customer_id: acmeId, item_type_id: palletId, item_type_name: "Standard pallet", name: "Motor spirit SDS", filename: "sds.pdf", content_type: "application/pdf", created_by_name: expect.any(String) });
    const id = created.body.id as number;
    expect((await c.customerService.json<Json[]>(decls())).body.map((d) => d.id)).toContain(id);
    expect((await c.admin.json<Json>(`${decls()}/${id}`)).body).toEqual(created.body);

    const file = await c.admin.request(`${decls()}/${id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="sds.pdf"/);
    expect((await PDFDocument.load(new Uint8Array(await file.arrayBuffer()))).getPageCount()).toBe(2);

    const changed = await upload(c.admin, `${decls()}/${id}`, { name: "Renamed", item_type_id: "" }, undefined, "PUT");
    expect(changed.body).toMatchObject({ name: "Renamed", item_type_id: null, filename: "sds.pdf" });
    const replaced = await upload(c.admin, `${decls()}/${id}`, { name: "Renamed" }, { bytes: await pdf(1), name: "v2.pdf" }, "PUT");
    expect(replaced.body).toMatchObject({ filename: "v2.pdf" });

    expect((await c.admin.json<Json>(`${decls()}/${id}`, { method: "DELETE" })).body).toEqual({ id, deleted: true });
    expect((await c.admin.json(`${decls()}/${id}`)).status).toBe(404);
  });

  it("refuses what is not a PDF by its bytes, a file over 5 MB (also without a Content-Length), missing fields and another customer's item type", async () => {
    const notPdf = await upload(c.admin, decls(), { name: "Fake" }, { bytes: new TextEncoder().encode("GIF89a not a pdf"), name: "fake.pdf" });
    expect(notPdf.status).toBe(422);
    expect(notPdf.body.errors.file).toEqual([DECLARATION.pdfOnly]);
    const broken = await upload(c.admin, decls(), { name: "Broken" }, { bytes: new TextEncoder().encode("%PDF-1.7 nothing else"), name: "b.pdf" });
    expect(broken.body.errors.file).toEqual([DECLARATION.unreadable]);
    expect((await upload(c.admin, decls(), { name: "No file" })).body.errors.file).toEqual([DECLARATION.fileRequired]);
    expect((await upload(c.admin, decls(), { name: " " }, { bytes: await pdf(1), name: "x.pdf" })).body.errors.name).toEqual([DECLARATION.nameRequired]);
    const [foreign] = await server.db.select().from(itemTypes).where(eq(itemTypes.customerId, testCoId));
    const foreignType = foreign ?? (await createItemType(server.db, testCoId));
    expect((await upload(c.admin, decls(), { name: "x", item_type_id: String(foreignType.id) }, { bytes: await pdf(1), name: "x.pdf" })).body.errors.item_type_id).toEqual([DECLARATION.itemType]);
    expect((await c.admin.json(decls(), { json: { name: "json" } })).status).toBe(422);

    const big = new Uint8Array(5 * 1024 * 1024 + 100 * 1024);
    big.set(new TextEncoder().encode("%PDF-1.7\n"));
    const tooBig = await upload(c.admin, decls(), { name: "Big" }, { bytes: big, name: "big.pdf" });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errors.file).toEqual([DECLARATION.tooLarge]);
    // chunked, no Content-Length: the read stops at the cap
    const boundary = "----declaration";
    const head = new TextEncoder().encode(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nChunked\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
    const stream = new ReadableStream<Uint8Array>({
      start(ctrl) {
        ctrl.enqueue(head);
        for (let i = 0; i < 12; i++) ctrl.enqueue(new Uint8Array(512 * 1024).fill(65));
        ctrl.close();
      },
    });
    const chunked = await fetch(server.url + decls(), { method: "POST", body: stream, duplex: "half", headers: { cookie: c.admin.cookie, "content-type": `multipart/form-data; boundary=${boundary}`, Accept: "application/json" } } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it("is for staff only, and another customer's declaration is 404 under this customer", async () => {
    const theirs = await upload(c.admin, decls(testCoId), { name: "Test co SDS" }, { bytes: await pdf(1), name: "t.pdf" });
    expect(theirs.status).toBe(201);
    for (const path of [decls(), `${decls(testCoId)}/${theirs.body.id}`, `${decls(testCoId)}/${theirs.body.id}/file`]) {
      expect((await c.despatcher.json(path)).status).toBe(403);
      expect((await c.tester.json(path)).status).toBe(403);
    }
    expect((await upload(c.despatcher, decls(), { name: "x" }, { bytes: await pdf(1), name: "x.pdf" })).status).toBe(403);
    expect((await c.despatcher.json(`${decls(testCoId)}/${theirs.body.id}`, { method: "DELETE" })).status).toBe(403);
    expect((await c.admin.json(`${decls()}/${theirs.body.id}`)).status).toBe(404);
    expect((await c.admin.request(`${decls()}/${theirs.body.id}/file`)).status).toBe(404);
    expect((await c.admin.json(`${decls()}/${theirs.body.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await c.admin.request(`/customers/${acmeId}/declarations/${theirs.body.id}`, { headers: { Accept: "text/html" } })).status).toBe(404);
    const page = await c.despatcher.request(`/customers/${acmeId}/index_declarations`, { headers: { Accept: "text/html" } });
    expect(page.headers.get("location")).toBe("/");
    const list = await c.admin.request(`/customers/${testCoId}/index_declarations`, { headers: { Accept: "text/html" } });
    expect(await list.text()).toContain("Test co SDS");
  });

  it("the screen creates, refuses a file that is not a PDF, and deletes by multipart form post", async () => {
    const screen = `/customers/${acmeId}/declarations`;
    const made = await upload(c.admin, screen, { intent: "save", name: "Screen SDS", item_type_id: "" }, { bytes: await pdf(1), name: "screen.pdf" });
    expect(made.status).toBe(302);
    const at = made.res.headers.get("location")!;
    expect(at).toMatch(new RegExp(`^${screen}/\\d+\\?saved=1$`));
    const page = await (await c.admin.request(at, { headers: { Accept: "text/html" } })).text();
    expect(page).toContain(DECLARATION.saved);
    expect(page).toContain("screen.pdf");
    expect(page).toMatch(new RegExp(`href="/customers/${acmeId}/index_declarations">Declarations</a>`));
    const refused = await fetch(server.url + screen, {
      method: "POST",
      body: (() => {
        const f = new FormData();
        f.set("name", "Not a PDF");
        f.set("file", new Blob(["GIF89a"], { type: "application/pdf" }), "x.pdf");
        return f;
      })(),
      headers: { cookie: c.admin.cookie, Accept: "text/html" },
      redirect: "manual",
    });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain(DECLARATION.pdfOnly);
    const gone = await upload(c.admin, at.split("?")[0]!, { intent: "delete" });
    expect(gone.status).toBe(302);
    expect(gone.res.headers.get("location")).toBe(`/customers/${acmeId}/index_declarations?done=deleted`);
    expect((await c.admin.json(`${decls()}/${at.split("/").pop()!.split("?")[0]}`)).status).toBe(404);
  });

  it("follow the dangerous goods document when print_declarations is on, and not when off", async () => {
    const own = await upload(c.admin, decls(), { name: "A pallet SDS", item_type_id: String(palletId) }, { bytes: await pdf(2), name: "pallet.pdf" });
    const every = await upload(c.admin, decls(), { name: "B general declaration" }, { bytes: await pdf(1), name: "general.pdf" });
    const otherType = await upload(c.admin, decls(), { name: "C carton only" }, { bytes: await pdf(3), name: "carton.pdf" });
    expect([own.status, every.status, otherType.status]).toEqual([201, 201, 201]);
    await upload(c.admin, `${decls()}/${otherType.body.id}`, { name: "C carton only", item_type_id: String(cartonId) }, undefined, "PUT");

    const made = await support.createDespatchable(world, c.despatcher, "MEL", "NORTHLINE", "GEN", {
      items: [
        { quantity: 1, item_type_id: cartonId, length: 40, width: 30, height: 30, weight_in_uom: "10" },
        { quantity: 1, item_type_id: palletId, length: 120, width: 120, height: 150, weight_in_uom: "300", dangerous_goods_items: [{ un_number: "1203", proper_shipping_name: "MOTOR SPIRIT", hazard_class: "3", packing_group: "II", weight_in_uom: 20 }] },
      ],
    });
    expect((await c.despatcher.request(`/print/${made.id}/labels`, { method: "POST" })).status).toBe(200);
    const print = async () => {
      const res = await c.despatcher.request(`/print/dangerous_goods_documents?ids=${made.id}`);
      expect(res.headers.get("content-type")).toBe("application/pdf");
      return (await PDFDocument.load(new Uint8Array(await res.arrayBuffer()))).getPageCount();
    };
    const html = async () => (await c.despatcher.request(`/print/dangerous_goods_documents?ids=${made.id}&format=html`)).text();

    await server.db.update(customers).set({ printDeclarations: false }).where(eq(customers.id, acmeId));
    expect(await print()).toBe(1);
    expect(await html()).not.toContain("A pallet SDS");

    await server.db.update(customers).set({ printDeclarations: true }).where(eq(customers.id, acmeId));
    // the document, then the pallet's declaration (2 pages) and the one for every item type (1); not the carton's
    expect(await print()).toBe(4);
    const preview = await html();
    expect(preview).toContain("A pallet SDS");
    expect(preview).toContain("B general declaration");
    expect(preview).not.toContain("C carton only");
    await server.db.update(customers).set({ printDeclarations: false }).where(eq(customers.id, acmeId));
  }, 60_000);
});
