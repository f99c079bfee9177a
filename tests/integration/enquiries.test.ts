import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, customers, mailMessages, sites, ticketCategories } from "../../db/schema";
import { seedEnquiryTypesDemo } from "../../db/seed/demo";
import { Client, serveApp } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

/**
 * Issue 15 item 1: enquiries (support tickets) through /api/tickets and their screens: the
 * spec's messages, scoping (another customer's ticket or consignment is 404), status by role,
 * the mails and their recipients, escaping, has_tickets and the latest 3.
 */
let world: DespatchWorld;
let despatcher: Client, superDespatcher: Client, tester: Client, customerService: Client;
let despatched: Json;
let types: Record<string, number>;

const ticket = (over: Record<string, unknown> = {}) => ({ full_name: "Dana Despatcher", email: "dana@example.com", subject: "Where is my freight?", ...over });
const mailsTo = (to: string) => world.server.db.select().from(mailMessages).where(eq(mailMessages.to, to));

beforeAll(async () => {
  world = await support.startDespatchWorld();
  ({ despatcher, superDespatcher, tester, customerService } = world.clients);
  const all = await world.server.db.select({ id: customers.id, code: customers.code }).from(customers);
  await seedEnquiryTypesDemo(world.server.db, all.filter((c) => c.code === "ACME" || c.code === "TESTCO").map((c) => c.id));
  const acme = all.find((c) => c.code === "ACME")!;
  types = Object.fromEntries((await world.server.db.select().from(ticketCategories).where(eq(ticketCategories.customerId, acme.id))).map((t) => [t.name, t.id]));
  const c = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
  const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
  await support.workJob(world, res.body.job_id);
  despatched = (await despatcher.json<Json>(`/api/consignments/${c.id}`)).body;
  expect(despatched.state).toBe("despatched");
}, 120_000);
afterAll(() => world.server.close());

describe("enquiry types", () => {
  it("GET /api/tickets/categories.json answers the user's customer's types in order; another customer has its own list", async () => {
    const mine = await despatcher.json<Json>("/api/tickets/categories.json");
    expect(mine.status).toBe(200);
    expect(mine.body.categories.map((c: Json) => c.name)).toEqual(["Delivery delay", "Damaged goods", "Missing items", "Other"]);
    const theirs = await tester.json<Json>("/api/tickets/categories.json");
    expect(theirs.body.categories.map((c: Json) => c.id)).not.toContain(types["Other"]);
    expect((await new Client(world.server.url).json("/api/tickets/categories.json")).status).toBe(401);
  });

  it("the header's enquiries menu lists the types: for customer service on every page, for others where a consignment or the enquiries are loaded", async () => {
    const menuLink = 'href="/enquiries?type=Delivery%20delay"';
    expect(await (await customerService.request("/home")).text()).toContain(menuLink);
    expect(await (await despatcher.request("/home")).text()).not.toContain(menuLink);
    expect(await (await despatcher.request(`/consignment/${despatched.id}`)).text()).toContain(menuLink);
    expect(await (await despatcher.request("/enquiries")).text()).toContain(menuLink);
  });

  it("staff add, rename, order and remove a customer's types on /customers/{id}/enquiry_types; a despatcher may not", async () => {
    const acmeId = despatched.customer_id;
    const path = `/customers/${acmeId}/enquiry_types`;
    expect((await customerService.request(path)).status).toBe(200);
    expect((await despatcher.request(path)).status).toBe(302);
    expect((await despatcher.request(path, { form: { intent: "add", name: "Sneaky" } })).status).toBe(302);
    const add = await customerService.request(path, { form: { intent: "add", name: "Billing" } });
    expect(add.status).toBe(302);
    const taken = await customerService.request(path, { form: { intent: "add", name: "billing" } });
    expect(taken.status).toBe(422);
    expect(await taken.text()).toContain("Name has already been taken");
    const names = async () => (await despatcher.json<Json>("/api/tickets/categories.json")).body.categories.map((c: Json) => c.name);
    expect(await names()).toEqual(["Delivery delay", "Damaged goods", "Missing items", "Other", "Billing"]);
    const billing = (await despatcher.json<Json>("/api/tickets/categories.json")).body.categories.find((c: Json) => c.name === "Billing").id;
    await customerService.request(path, { form: { intent: "up", id: String(billing) } });
    await customerService.request(path, { form: { intent: "rename", id: String(billing), name: "Invoices" } });
    expect(await names()).toEqual(["Delivery delay", "Damaged goods", "Missing items", "Invoices", "Other"]);
    await customerService.request(path, { form: { intent: "remove", id: String(billing) } });
    expect(await names()).toEqual(["Delivery delay", "Damaged goods", "Missing items", "Other"]);
  });
});

describe("POST /api/tickets", () => {
  it("answers the spec's messages: 'Please enter an email', 'Please enter a valid email', and the type 'other' without a description", async () => {
    const noEmail = await despatcher.json<Json>("/api/tickets", { json: ticket({ email: "" }) });
    expect(noEmail.status).toBe(422);
    expect(noEmail.body.errors.email).toEqual(["Please enter an email"]);
    const bad = await despatcher.json<Json>("/api/tickets", { json: ticket({ email: "not-an-address" }) });
    expect(bad.body.errors.email).toEqual(["Please enter a valid email"]);
    const other = await despatcher.json<Json>("/api/tickets", { json: ticket({ category_id: types["Other"], description: "  " }) });
    expect(other.status).toBe(422);
    expect(other.body.errors.description).toEqual(["When you pick enquiry 'other', you need a description"]);
    const byName = await despatcher.json<Json>("/api/tickets", { json: ticket({ support_request: "OTHER" }) });
    expect(byName.body.errors.description).toEqual(["When you pick enquiry 'other', you need a description"]);
    // another customer's type is no type of this customer's
    const testerTypes = (await tester.json<Json>("/api/tickets/categories.json")).body.categories;
    const foreign = await despatcher.json<Json>("/api/tickets", { json: ticket({ category_id: testerTypes[0].id }) });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.category_id).toEqual(["Please pick one of the enquiry types"]);
  });

  it("raises one about a despatched consignment: the description is the trail's first comment; support and the raiser are mailed, with the text escaped", async () => {
    const res = await despatcher.json<Json>("/api/tickets", {
      json: ticket({ consignment_id: despatched.id, category_id: types["Damaged goods"], subject: "Crushed <b>box</b>", description: "Box crushed <script>alert(1)</script> <img src=x onerror=alert(2)>", phone: "0400 000 000" }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ status: "open", support_request: "Damaged goods", consignment_id: despatched.id, consignment_number: despatched.consignment_number, consignment_url: `/consignment/${despatched.id}` });
    expect(res.body.last_audit).toMatchObject({ author: "Dana Despatcher", comment: expect.stringContaining("Box crushed") });
    // the consignment's carrier account's support e-mail (an enquiry about no consignment: the customer's)
    const [support] = await mailsTo("support@northline.example");
    expect(support?.subject).toBe(`Enquiry #${res.body.id}: Crushed <b>box</b>`);
    const [raiser] = await mailsTo("dana@example.com");
    expect(raiser?.text).toContain("<script>alert(1)</script>");
    expect(raiser?.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(raiser?.html).not.toMatch(/<script|<img/i);
    // nor on a page
    const html = await (await despatcher.request(`/consignment/${despatched.id}/enquiries`)).text();
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).not.toContain("<script>alert(1)");
    expect(html).not.toContain("<img src=x");
    // has_tickets
    expect((await despatcher.json<Json>(`/api/consignments/${despatched.id}`)).body.has_tickets).toBe(true);
  });

  it("refuses a consignment that is not despatched (422) and another customer's (404)", async () => {
    const open = await support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN");
    const notYet = await despatcher.json<Json>("/api/tickets", { json: ticket({ consignment_id: open.id }) });
    expect(notYet.status).toBe(422);
    expect(notYet.body.errors.consignment_id).toEqual(["An enquiry can be raised once the consignment has been despatched"]);
    expect(open.has_tickets).toBe(false);
    const foreign = await tester.json<Json>("/api/tickets", { json: ticket({ consignment_id: despatched.id }) });
    expect(foreign.status).toBe(404);
  });

  it("a mail that cannot be sent stores nothing and answers 'An error has occurred. Please contact Tech Support at' the support e-mail", async () => {
    const broken = await serveApp({ ...world.server.services, mailer: { transport: "smtp", send: () => Promise.reject(new Error("SMTP down")) } });
    try {
      const client = new Client(broken.url);
      await client.signIn("despatcher@example.com");
      const before = (await despatcher.json<Json>(`/api/tickets.json?consignment_id=${despatched.id}`)).body.total;
      const res = await client.json<Json>("/api/tickets", { json: ticket({ consignment_id: despatched.id, subject: "Lost in the mail" }) });
      expect(res.status).toBe(409);
      expect(res.body.errors.base).toEqual(["An error has occurred. Please contact Tech Support at support@northline.example"]);
      expect((await despatcher.json<Json>(`/api/tickets.json?consignment_id=${despatched.id}`)).body.total).toBe(before);
    } finally {
      await broken.close();
    }
  });
});

describe("lists", () => {
  it("GET /api/tickets.json?consignment_id=&limit=3 answers the latest 3, newest first; /enquiries filters by status and type", async () => {
    for (const n of [1, 2, 3, 4]) {
      const r = await despatcher.json<Json>("/api/tickets", { json: ticket({ consignment_id: despatched.id, subject: `Follow-up ${n} with a subject that is far longer than thirty-five characters` }) });
      expect(r.status).toBe(201);
    }
    const latest = await despatcher.json<Json>(`/api/tickets.json?consignment_id=${despatched.id}&limit=3`);
    expect(latest.body.tickets.map((t: Json) => t.subject.slice(0, 11))).toEqual(["Follow-up 4", "Follow-up 3", "Follow-up 2"]);
    expect(latest.body.total).toBe(5);
    const page = await (await despatcher.request("/enquiries")).text();
    expect(page).toContain("Follow-up 4 with a subject that is …");
    const byType = await despatcher.json<Json>("/api/tickets.json?type=damaged%20goods");
    expect(byType.body.tickets.map((t: Json) => t.support_request)).toEqual(["Damaged goods"]);
    expect((await despatcher.json<Json>("/api/tickets.json?status=solved")).body.tickets).toEqual([]);
    expect((await despatcher.json<Json>("/api/tickets.json?status=closed")).status).toBe(422);
    expect((await despatcher.json<Json>("/api/tickets.json?limit=0")).status).toBe(422);
    expect(await (await despatcher.request("/enquiries?status=solved")).text()).toContain("There are no enquiries to display.");
  });

  it("scoping: another customer sees none of them (404 by id and by consignment); customer service sees every customer's, with the customer's name", async () => {
    const mine = (await despatcher.json<Json>("/api/tickets.json")).body.tickets[0];
    expect((await tester.json<Json>("/api/tickets.json")).body.tickets).toEqual([]);
    expect((await tester.json(`/api/tickets/${mine.id}`)).status).toBe(404);
    expect((await tester.json(`/api/tickets/${mine.id}/comments.json`)).status).toBe(404);
    expect((await tester.json(`/api/tickets/${mine.id}/comment`, { json: { comment: "hi" } })).status).toBe(404);
    expect((await tester.json(`/api/tickets.json?consignment_id=${despatched.id}`)).status).toBe(404);
    expect((await tester.request(`/consignment/${despatched.id}/enquiries`)).status).toBe(404);
    const theirs = await tester.json<Json>("/api/tickets", { json: ticket({ full_name: "Terry Tester", email: "terry@example.com", subject: "Testing" }) });
    expect(theirs.status).toBe(201);
    const all = await customerService.json<Json>("/api/tickets.json?limit=100");
    expect(all.body.tickets.map((t: Json) => t.customer_name)).toEqual(expect.arrayContaining(["Acme Distribution", "Testing Pty Ltd"]));
    expect(await (await customerService.request("/enquiries")).text()).toContain("Testing Pty Ltd");
    expect((await despatcher.json<Json>(`/api/tickets/${theirs.body.id}`)).status).toBe(404);
  });

  it("a despatcher sees the enquiries of their sites' consignments only", async () => {
    const c = await support.createDespatchable(world, superDespatcher, "MEL", "NORTHLINE", "GEN");
    const job = await superDespatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [c.id] } });
    await support.workJob(world, job.body.job_id, superDespatcher);
    const raised = await superDespatcher.json<Json>("/api/tickets", { json: ticket({ consignment_id: c.id, subject: "Los Angeles" }) });
    expect(raised.status).toBe(201);
    expect((await despatcher.json(`/api/tickets/${raised.body.id}`)).status).toBe(200);
    // moved to the site the despatcher does not send from
    const [la] = await world.server.db.select().from(sites).where(eq(sites.code, "LAX"));
    await world.server.db.update(consignments).set({ siteId: la!.id }).where(eq(consignments.id, c.id));
    expect((await despatcher.json(`/api/tickets/${raised.body.id}`)).status).toBe(404);
    expect((await superDespatcher.json(`/api/tickets/${raised.body.id}`)).status).toBe(200);
  });
});

describe("comments and status", () => {
  it("'Please enter a comment' for none; a comment joins the trail; customer service's goes to the raiser, the raiser's to support only", async () => {
    const t = (await despatcher.json<Json>("/api/tickets", { json: ticket({ email: "raiser@example.com", subject: "Trail" }) })).body;
    const empty = await despatcher.json<Json>(`/api/tickets/${t.id}/comment`, { json: { comment: "   " } });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.comment).toEqual(["Please enter a comment"]);
    const answer = await customerService.json<Json>(`/api/tickets/${t.id}/comment`, { json: { comment: "We are on it" } });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ author: "Casey Service", comment: "We are on it" });
    expect((await mailsTo("raiser@example.com")).map((m) => m.text).join()).toContain("We are on it");
    await despatcher.json(`/api/tickets/${t.id}/comment`, { json: { comment: "Thanks, waiting" } });
    expect((await mailsTo("raiser@example.com")).map((m) => m.text).join()).not.toContain("Thanks, waiting");
    expect((await mailsTo("support@acme.example")).map((m) => m.text).join()).toContain("Thanks, waiting");
    const trail = await despatcher.json<Json>(`/api/tickets/${t.id}/comments.json`);
    expect(trail.body.comments.map((c: Json) => [c.author, c.comment])).toEqual([
      ["Casey Service", "We are on it"],
      ["Dana Despatcher", "Thanks, waiting"],
    ]);
  });

  it("only customer service (and admins, super admins, devs) move the status, by PUT /api/tickets/{id} and by the page's form", async () => {
    const t = (await despatcher.json<Json>("/api/tickets", { json: ticket({ subject: "Status" }) })).body;
    expect((await despatcher.json(`/api/tickets/${t.id}`, { method: "PUT", json: { status: "solved" } })).status).toBe(403);
    const bad = await customerService.json<Json>(`/api/tickets/${t.id}`, { method: "PUT", json: { status: "closed" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.status).toEqual(["Status must be open, pending or solved"]);
    const pending = await customerService.json<Json>(`/api/tickets/${t.id}`, { method: "PUT", json: { status: "pending" } });
    expect(pending.body.status).toBe("pending");
    const form = await customerService.request("/enquiries", { form: { intent: "status", ticket_id: String(t.id), status: "solved" } });
    expect(form.status).toBe(302);
    expect((await despatcher.json<Json>(`/api/tickets/${t.id}`)).body.status).toBe("solved");
    expect((await despatcher.request("/enquiries", { form: { intent: "status", ticket_id: String(t.id), status: "open" } })).status).not.toBe(302);
    expect((await despatcher.json<Json>(`/api/tickets/${t.id}`)).body.status).toBe("solved");
  });

  it("the /enquiries form raises one with the spec's messages and adds comments", async () => {
    const bad = await despatcher.request("/enquiries", { form: { intent: "create", full_name: "Dana", email: "", subject: "Via the page" } });
    expect(bad.status).toBe(422);
    const res = await despatcher.request("/enquiries", { form: { intent: "create", full_name: "Dana", email: "dana@example.com", subject: "Via the page", description: "From the form" } });
    expect(res.status).toBe(302);
    const [made] = (await despatcher.json<Json>("/api/tickets.json?limit=1")).body.tickets;
    expect(made).toMatchObject({ subject: "Via the page", description: "From the form" });
    const empty = await despatcher.request("/enquiries", { form: { intent: "comment", ticket_id: String(made.id), comment: "" } });
    expect(empty.status).toBe(422);
    expect(await empty.text()).toContain("Please enter a comment");
  });
});
