// @engines: PostgreSQL and PGlite in CI, because the typeahead's index and its extension must load on both engines.
import { gzipSync } from "node:zlib";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addresses, customers, localities, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createAddress, createCustomer, createSite, createUser } from "../../db/seed/factories";
import {
  MAX_RECIPIENTS_UNPACKED_BYTES,
  RECIPIENT_COLUMNS,
  RECIPIENTS_TYPES_ONLY,
  RECIPIENTS_UNPACKED_TOO_LARGE,
} from "../../app/modules/recipients/limits";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "../../app/utils/upload-limits";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Recipients administration (issue 16 item 5; spec 2 /customers/{id}/index_recipients and its
 * /api calls): staff open any customer's address book, despatchers only their own; editing needs
 * can_edit_recipients or the customer's all_users_can_edit_recipients.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const clients = {} as Record<"admin" | "customerService" | "despatcher" | "editor", Client>;
const EMAILS = { admin: "admin@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com", editor: "superdespatcher@example.com" };
const signedIn = async (email: string) => {
  const c = new Client(server.url);
  expect((await c.signIn(email)).status).toBe(200);
  return c;
};

beforeAll(async () => {
  server = await startTestServer({ work: true });
  demo = await seedDemo(server.db);
  await server.db.insert(localities).values([
    { country: "AUSTRALIA", locality: "SYDNEY", postcode: "2000", region: "NSW" },
    { country: "AUSTRALIA", locality: "MELBOURNE", postcode: "3000", region: "VIC" },
    { country: "NEW ZEALAND", locality: "AUCKLAND", sublocality: "AUCKLAND CENTRAL", postcode: "1010" },
  ]);
  for (const [k, email] of Object.entries(EMAILS)) clients[k as keyof typeof EMAILS] = await signedIn(email);
}, 120_000);
afterAll(() => server?.close());

const base = (customerId: number) => `/api/customers/${customerId}/recipients`;
const SYDNEY = { name: "Harbour Traders", address_line_1: "1 George Street", locality: "SYDNEY", postcode: "2000", region: "NSW", country: "AUSTRALIA" };

/** A fresh customer with its own despatcher (who may not edit) and a few recipients. */
async function freshCustomer(options: Record<string, unknown> = {}, names: string[] = []) {
  const customer = await createCustomer(server.db, { options });
  const email = `d${customer.id}@example.test`;
  await createUser(server.db, customer.id, { email });
  for (const name of names) await createAddress(server.db, customer.id, { name });
  return { customer, despatcher: await signedIn(email) };
}

/** A multipart upload of `bytes` as a file named `name`; an import taken (202) is followed to its job's end, whose report is the body. */
async function upload(client: Client, customerId: number, name: string, bytes: Uint8Array | string, type = "text/csv") {
  const form = new FormData();
  form.set("file", new File([bytes as BlobPart], name, { type }));
  const res = await fetch(`${server.url}${base(customerId)}/import`, { method: "POST", body: form, headers: { cookie: client.cookie, Accept: "application/json" } });
  const body = (await res.json()) as Json;
  if (res.status !== 202) return { status: res.status, body };
  let job: Json = {};
  for (let i = 0; i < 300 && job.status !== "complete" && job.status !== "failed"; i++) {
    await new Promise((r) => setTimeout(r, 100));
    job = (await client.json<Json>(`/api/job_status/${body.job_id}`)).body;
  }
  expect(job.status, JSON.stringify(job)).toBe("complete");
  return { status: res.status, body: job.info as Json, message: job.message as string };
}

const csv = (...lines: string[]) => lines.join("\n") + "\n";
const HEADER = "name,address_line_1,locality,postcode,country,special_instructions,email";

describe("who may read and edit an address book", () => {
  it("lets staff open any customer's, a despatcher only their own, and nobody without a session", async () => {
    const { customer, despatcher } = await freshCustomer({}, ["Zeta", "Alpha"]);
    for (const c of [clients.admin, clients.customerService, despatcher]) {
      const res = await c.json<Json>(base(customer.id));
      expect(res.status).toBe(200);
      expect(res.body.recipients.map((r: Json) => r.name)).toEqual(["Alpha", "Zeta"]);
    }
    // another customer's id is 404 to a despatcher, for every call
    const first = (await clients.admin.json<Json>(base(customer.id))).body.recipients[0].id;
    for (const [path, method] of [
      [base(customer.id), "GET"],
      [`${base(customer.id)}/${first}`, "GET"],
      [`${base(customer.id)}/${first}`, "PUT"],
      [`${base(customer.id)}/${first}`, "DELETE"],
      [base(customer.id), "DELETE"],
      [`${base(customer.id)}/import_sites`, "POST"],
      [`/api/export_recipients/${customer.id}`, "GET"],
    ] as const) {
      const res = await clients.editor.request(path, { method, json: method === "PUT" ? SYDNEY : undefined });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await upload(clients.editor, customer.id, "r.csv", csv(HEADER))).status).toBe(404);
    expect((await new Client(server.url).json(base(customer.id))).status).toBe(401);
    expect((await clients.admin.json(base(999_999))).status).toBe(404);
    expect((await clients.admin.json("/api/customers/abc/recipients")).status).toBe(422);
  });

  it("refuses writes (403) to a despatcher without can_edit_recipients, and lets one with it or with all_users_can_edit_recipients", async () => {
    const { customer, despatcher } = await freshCustomer({}, ["Kept"]);
    const [kept] = await server.db.select().from(addresses).where(eq(addresses.customerId, customer.id));
    const writes = [
      () => despatcher.json(base(customer.id), { json: SYDNEY }),
      () => despatcher.json(`${base(customer.id)}/${kept!.id}`, { method: "PUT", json: SYDNEY }),
      () => despatcher.json(`${base(customer.id)}/${kept!.id}`, { method: "DELETE" }),
      () => despatcher.json(base(customer.id), { method: "DELETE" }),
      () => despatcher.json(`${base(customer.id)}/import_sites`, { method: "POST" }),
      () => upload(despatcher, customer.id, "r.csv", csv(HEADER, "A,1 George Street,SYDNEY,2000,,,")),
    ];
    for (const write of writes) expect((await write()).status).toBe(403);
    expect((await despatcher.json(`${base(customer.id)}/${kept!.id}`)).status).toBe(200);

    // the user's own flag
    await server.db.update(users).set({ canEditRecipients: true }).where(eq(users.email, `d${customer.id}@example.test`));
    expect((await despatcher.json(base(customer.id), { json: SYDNEY })).status).toBe(201);
    // or the customer's option for every user
    await server.db.update(users).set({ canEditRecipients: false }).where(eq(users.email, `d${customer.id}@example.test`));
    expect((await despatcher.json(base(customer.id), { json: SYDNEY })).status).toBe(403);
    await server.db.update(customers).set({ options: { all_users_can_edit_recipients: true } }).where(eq(customers.id, customer.id));
    expect((await despatcher.json(base(customer.id), { json: SYDNEY })).status).toBe(201);
  });
});

describe("recipients through the API", () => {
  it("adds, reads, edits and deletes a recipient, with errors per field", async () => {
    const { customer } = await freshCustomer();
    const created = await clients.admin.json<Json>(base(customer.id), { json: { ...SYDNEY, special_instructions: "Rear dock", phone: "02 9000 0000" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ name: "Harbour Traders", locality: "SYDNEY", special_instructions: "Rear dock" });
    const url = `${base(customer.id)}/${created.body.id}`;
    expect((await clients.admin.json<Json>(url)).body).toEqual(created.body);

    const edited = await clients.customerService.json<Json>(url, { method: "PUT", json: { ...SYDNEY, name: "Harbour Traders Pty", locality: "MELBOURNE", postcode: "3000" } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ id: created.body.id, name: "Harbour Traders Pty", locality: "MELBOURNE" });

    const bad = await clients.admin.json<Json>(url, { method: "PUT", json: { ...SYDNEY, locality: "NOWHERE", special_instructions: "x".repeat(81) } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.special_instructions).toEqual(["Special instructions is too long (maximum is 80 characters)"]);
    const unknown = await clients.admin.json<Json>(url, { method: "PUT", json: { ...SYDNEY, locality: "NOWHERE" } });
    expect(unknown.body.errors).toEqual({ locality: ["2000 NOWHERE is not a known place"] });
    expect((await clients.admin.json<Json>(base(customer.id), { json: { ...SYDNEY, name: "" } })).body.errors.name).toEqual(["Name is required"]);

    expect((await clients.admin.json<Json>(url, { method: "DELETE" })).body).toEqual({ id: created.body.id });
    expect((await clients.admin.json(url)).status).toBe(404);
    expect((await clients.admin.json(url, { method: "DELETE" })).status).toBe(404);
    // a recipient of another customer is not found under this one
    const other = await createAddress(server.db, demo.acme.id, { name: "Acme's own" });
    expect((await clients.admin.json(`${base(customer.id)}/${other.id}`)).status).toBe(404);
  });

  it("the form without JavaScript takes a locality without its postcode, as the site form does (one resolver)", async () => {
    const { customer } = await freshCustomer();
    await server.db.insert(localities).values([
      { country: "AUSTRALIA", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
      { country: "AUSTRALIA", locality: "RICHMOND", postcode: "3121", region: "VIC" },
      { country: "AUSTRALIA", locality: "RICHMOND", postcode: "2753", region: "NSW" },
    ]);
    const page = `/customers/${customer.id}/index_recipients`;
    const post = (locality: string) =>
      clients.admin.request(page, { form: { intent: "save", "address.name": "Gabba Traders", "address.address_line_1": "5 Ipswich Road", "address.locality": locality, "address.postcode": "", "address.country": "AUSTRALIA" } });
    const saved = await post("Woolloongabba");
    expect(saved.status, await saved.clone().text()).toBe(302);
    const [row] = await server.db.select().from(addresses).where(and(eq(addresses.customerId, customer.id), eq(addresses.name, "Gabba Traders")));
    expect(row).toMatchObject({ locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" });

    // a name several places share asks for the postcode, beside the locality, as the site form asks
    const several = await post("Richmond");
    expect(several.status).toBe(422);
    expect(await several.text()).toContain("More than one place matches: choose the locality from the list, or add its postcode");
    const api = await clients.admin.json<Json>(base(customer.id), { json: { ...SYDNEY, locality: "richmond", postcode: "", region: "" } });
    expect(api.body.errors).toEqual({ locality: ["More than one place matches: choose the locality from the list, or add its postcode"] });
  });

  it("pages by limit and offset (40 by default), by name, with a name prefix filter", async () => {
    const names = Array.from({ length: 45 }, (_, i) => `R${String(i).padStart(2, "0")}`);
    const { customer } = await freshCustomer({}, [...names, "Zed%_"]);
    const first = (await clients.admin.json<Json>(base(customer.id))).body;
    expect(first.recipients).toHaveLength(40);
    expect(first).toMatchObject({ limit: 40, offset: 0, has_more: true });
    const second = (await clients.admin.json<Json>(`${base(customer.id)}?limit=40&offset=40`)).body;
    expect(second.recipients.map((r: Json) => r.name)).toEqual([...names.slice(40), "Zed%_"]);
    expect(second.has_more).toBe(false);
    expect((await clients.admin.json<Json>(`${base(customer.id)}?q=r4`)).body.recipients.map((r: Json) => r.name)).toEqual(names.slice(40));
    // LIKE's wildcards are only text in the prefix
    expect((await clients.admin.json<Json>(`${base(customer.id)}?q=%25`)).body.recipients).toEqual([]);
    expect((await clients.admin.json<Json>(`${base(customer.id)}?q=zed%25`)).body.recipients.map((r: Json) => r.name)).toEqual(["Zed%_"]);
  });

  it("continues a page from where the previous one ended (?after=next), the same rows as by offset, also among equal names", async () => {
    // equal names (case aside) are ordered by id, so a cursor between them neither repeats nor skips one
    const names = Array.from({ length: 25 }, (_, i) => (i % 2 ? "same name" : "Same Name"));
    const { customer } = await freshCustomer({}, [...names, "Alpha", "zulu"]);
    const byOffset: string[] = [];
    for (let offset = 0; offset < 27; offset += 10) {
      byOffset.push(...(await clients.admin.json<Json>(`${base(customer.id)}?limit=10&offset=${offset}`)).body.recipients.map((r: Json) => `${r.id}`));
    }
    const byCursor: string[] = [];
    let page = (await clients.admin.json<Json>(`${base(customer.id)}?limit=10`)).body;
    byCursor.push(...page.recipients.map((r: Json) => `${r.id}`));
    while (page.has_more) {
      expect(page.next).toEqual(expect.any(String));
      page = (await clients.admin.json<Json>(`${base(customer.id)}?limit=10&after=${page.next}`)).body;
      byCursor.push(...page.recipients.map((r: Json) => `${r.id}`));
    }
    expect(page.next).toBeNull();
    expect(byCursor).toEqual(byOffset);
    expect(new Set(byCursor).size).toBe(27);
    // a cursor that is not one starts at the beginning
    expect((await clients.admin.json<Json>(`${base(customer.id)}?limit=10&after=nonsense`)).body.recipients.map((r: Json) => `${r.id}`)).toEqual(byOffset.slice(0, 10));
  });

  it("imports the customer's sites only when it has global recipients, once", async () => {
    const { customer } = await freshCustomer();
    await createSite(server.db, customer.id, { code: "MEL", name: "Melbourne depot", locality: "MELBOURNE", postcode: "3000" });
    const refused = await clients.admin.json<Json>(`${base(customer.id)}/import_sites`, { method: "POST" });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.base).toEqual(["This customer does not use global recipients."]);
    await server.db.update(customers).set({ options: { global_recipients: true } }).where(eq(customers.id, customer.id));
    expect((await clients.admin.json<Json>(`${base(customer.id)}/import_sites`, { method: "POST" })).body).toEqual({ created: 1 });
    expect((await clients.admin.json<Json>(`${base(customer.id)}/import_sites`, { method: "POST" })).body).toEqual({ created: 0 });
    const list = (await clients.admin.json<Json>(base(customer.id))).body.recipients;
    expect(list).toMatchObject([{ name: "Melbourne depot", code: "MEL", locality: "MELBOURNE" }]);
  });

  it("exports the whole address book as CSV, formulas neutralised, in the import's columns", async () => {
    const { customer, despatcher } = await freshCustomer({}, ["=HYPERLINK(\"http://evil\")", "Plain, with comma"]);
    const res = await despatcher.request(`/api/export_recipients/${customer.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/csv");
    const text = await res.text();
    const lines = text.trim().split("\n");
    expect(lines[0]).toBe(RECIPIENT_COLUMNS.join(","));
    expect(lines).toHaveLength(3);
    expect(text).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(text).toContain('"Plain, with comma"');
    // and it imports back into another book
    const { customer: copy } = await freshCustomer();
    const back = await upload(clients.admin, copy.id, "export.csv", text);
    expect(back.body).toMatchObject({ created: 2, skipped_total: 0 });
  });

  it("deletes the whole address book as a job", async () => {
    const { customer } = await freshCustomer({}, ["One", "Two", "Three"]);
    const keep = await createAddress(server.db, demo.acme.id, { name: "Not touched" });
    const res = await clients.admin.json<Json>(base(customer.id), { method: "DELETE" });
    expect(res.status).toBe(202);
    expect(res.body.job_id).toMatch(/^[0-9a-f-]{36}$/);
    let status: Json = {};
    for (let i = 0; i < 100 && status.status !== "completed" && status.status !== "complete" && status.status !== "failed"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await clients.admin.json<Json>(`/api/job_status/${res.body.job_id}`)).body;
    }
    expect(status).toMatchObject({ message: "Deleted 3 recipient(s)." });
    expect((await clients.admin.json<Json>(base(customer.id))).body.recipients).toEqual([]);
    expect(await server.db.select().from(addresses).where(eq(addresses.id, keep.id))).toHaveLength(1);
  });
});

describe("importing recipients", () => {
  it("adds good lines and lists every skipped line with its number and reasons", async () => {
    const { customer } = await freshCustomer();
    const file = csv(
      HEADER,
      "Good One,1 George Street,SYDNEY,2000,,Leave at dock,a@example.com",
      ",2 George Street,SYDNEY,2000,,,",
      "No Place,3 George Street,NOWHERE,2000,,,",
      "Bad Mail,4 George Street,sydney,2000,australia,,not-an-email",
      "Too Long,5 George Street,SYDNEY,2000,,\"" + "x".repeat(81) + "\",",
      "No Street,,MELBOURNE,3000,,,",
      "Kiwi,12 Queen Street,AUCKLAND CENTRAL,1010,NEW ZEALAND,,",
      "Bad Country,6 Street,SYDNEY,2000,MARS,,",
    );
    const res = await upload(clients.admin, customer.id, "recipients.csv", file);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.message).toBe("Recipients imported: 2 added, 6 skipped.");
    expect(res.body).toMatchObject({ created: 2, updated: 0, skipped_total: 6 });
    expect(res.body.skipped).toEqual([
      { line: 3, errors: ["Name is required"] },
      { line: 4, errors: ["2000 NOWHERE is not a known place"] },
      { line: 5, errors: ["Email is not a valid e-mail address"] },
      { line: 6, errors: ["Special instructions is too long (maximum is 80 characters)"] },
      { line: 7, errors: ["Address line 1 is required"] },
      { line: 9, errors: [expect.stringMatching(/^Country must be one of /)] },
    ]);
    const rows = await server.db.select().from(addresses).where(and(eq(addresses.customerId, customer.id), eq(addresses.isRecipient, true)));
    expect(rows.map((r) => r.name).sort()).toEqual(["Good One", "Kiwi"]);
  });

  it("lists the first 100 skipped lines of many and counts them all", async () => {
    const { customer } = await freshCustomer();
    const lines = Array.from({ length: 150 }, (_, i) => `Bad ${i},1 St,NOWHERE,2000,,,`);
    const res = await upload(clients.admin, customer.id, "many.csv", csv(HEADER, ...lines));
    expect(res.body.skipped_total).toBe(150);
    expect(res.body.skipped).toHaveLength(100);
    expect(res.body.skipped[99].line).toBe(101);
  });

  it("reads gz files, and cuts a gz bomb off at the stated size", async () => {
    const { customer } = await freshCustomer();
    const gz = gzipSync(csv(HEADER, "Zipped,1 George Street,SYDNEY,2000,,,"));
    expect((await upload(clients.admin, customer.id, "r.csv.gz", gz, "application/gzip")).body).toMatchObject({ created: 1 });
    const raw = await clients.admin.request(`${base(customer.id)}/import`, { method: "POST", headers: { "content-type": "application/gzip" } });
    expect(raw.status).toBe(422);
    const bomb = gzipSync(Buffer.concat([Buffer.from(HEADER + "\n"), Buffer.alloc(MAX_RECIPIENTS_UNPACKED_BYTES, 0x41)]));
    const res = await upload(clients.admin, customer.id, "bomb.gz", bomb, "application/gzip");
    expect(res.status).toBe(422);
    expect(res.body.errors.file).toEqual([RECIPIENTS_UNPACKED_TOO_LARGE]);
    const fake = await upload(clients.admin, customer.id, "fake.gz", "name\nx", "application/gzip");
    expect(fake.body.errors.file).toEqual(["The gz file is not gzip-compressed."]);
  });

  it("refuses other types, oversize files, files that are not CSV and missing columns before storing anything", async () => {
    const { customer } = await freshCustomer();
    expect((await upload(clients.admin, customer.id, "r.xlsx", "PK\u0003\u0004")).body.errors.file).toEqual([RECIPIENTS_TYPES_ONLY]);
    const json = await clients.admin.json<Json>(`${base(customer.id)}/import`, { json: { name: "x" } });
    expect(json.status).toBe(422);
    expect(json.body.errors.file).toEqual([RECIPIENTS_TYPES_ONLY]);
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x41);
    const over = await fetch(`${server.url}${base(customer.id)}/import`, { method: "POST", body: big, headers: { cookie: clients.admin.cookie, "content-type": "text/csv" } });
    // just over: the import's own check; far over: the Express body limit, before the app reads a byte
    expect(over.status).toBe(422);
    expect(((await over.json()) as Json).errors.file).toEqual([FILE_TOO_LARGE]);
    const far = await fetch(`${server.url}${base(customer.id)}/import`, { method: "POST", body: Buffer.alloc(MAX_UPLOAD_BYTES + 128 * 1024, 0x41), headers: { cookie: clients.admin.cookie, "content-type": "text/csv" } });
    expect(far.status).toBe(413);
    expect(((await far.json()) as Json).errors.file).toEqual([FILE_TOO_LARGE]);
    const missing = await upload(clients.admin, customer.id, "r.csv", csv("name,locality", "A,SYDNEY"));
    expect(missing.body.errors.file).toEqual(["Missing columns: address_line_1, postcode"]);
    const binary = await upload(clients.admin, customer.id, "r.csv", "\u0001\u0002binary");
    expect(binary.status).toBe(422);
    const unknown = await upload(clients.admin, customer.id, "r.csv", csv(HEADER + ",colour", "A,1 St,SYDNEY,2000,,,,red"));
    expect(unknown.body.errors.file).toEqual(["Unknown columns: colour"]);
    const stored = await server.db.select().from(addresses).where(eq(addresses.customerId, customer.id));
    expect(stored).toEqual([]);
  });
});
