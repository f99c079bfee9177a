import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, invoices, invoicingSchedules, notices, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { openApiDocument } from "../../app/modules/api/openapi";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * Issue 35 finding 7 (the junk test's far dates): every date the product takes lies in the years
 * 2000 to 2100 (app/modules/calendar). `POST /api/admin_notices` with publish_at 0001-01-01 once
 * answered 500, and invoice, invoicing schedule and notice dates of 9999-12-31, 0001-01-01,
 * 2101-01-01 and 1999-12-31 were stored. Each date field of the OpenAPI document gets far dates,
 * in both of the product's spellings, on an otherwise valid request: 422, and nothing stored.
 */
let server: TestServer;
const EMAILS = { despatcher: "despatcher@example.com", admin: "admin@example.com", finance: "finance@example.com" };
let c: Record<keyof typeof EMAILS, Client>;
let acmeId = 0;
let invoiceId = 0;
let noticeId = 0;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

const FAR = ["0001-01-01", "01/01/0001", "9999-12-31", "31/12/9999", "2101-01-01", "01/01/2101", "1999-12-31", "31/12/1999", "0000-01-01"];
const today = () => new Date().toISOString().slice(0, 10);
const display = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;
const asIso = (d: string) => (d.includes("/") ? `${d.slice(6)}-${d.slice(3, 5)}-${d.slice(0, 2)}` : d);

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  // the bookings calls are for users who may book
  await server.db.update(users).set({ canBook: true }).where(eq(users.email, EMAILS.despatcher));
  c = await signInAll(server.url, EMAILS);
  acmeId = (await server.db.select({ id: customers.id }).from(customers).where(eq(customers.code, "ACME")))[0]!.id;
  const [inv] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: "FAR-1", invoiceDate: "2026-05-01", total: "10.00" }).returning();
  invoiceId = inv!.id;
  const made = await c.admin.json<Json>("/api/admin_notices", { json: { header: "Far", customer_id: acmeId, content: "<p>x</p>", publish_at: "01/05/2026" } });
  expect(made.status, JSON.stringify(made.body)).toBeLessThan(300);
  noticeId = made.body.id ?? made.body.notice?.id;
}, 120_000);
afterAll(() => server?.close());

/** One date field: who sends it, and the request carrying `date` there (the rest of it valid). */
interface DateField {
  user: keyof typeof EMAILS;
  request: (date: string) => { path: string; method: string; json?: unknown };
}

const noticeBody = (date: string) => ({ header: "Far notice", customer_id: acmeId, content: "<p>Hello</p>", publish_at: date });
const schedule = (date: string) => ({ period: "ONCE", options: { invoice_detail_ids: [1], invoicing_options: { date: asIso(date), hour: "09:00", time_zone: "Australia/Sydney" } } });

/** Every date field of the OpenAPI document (its schemas' and its summaries'), keyed "METHOD path field". */
const FIELDS: Record<string, DateField> = {
  "GET /api/manifests fromDate": { user: "despatcher", request: (d) => ({ path: `/api/manifests?fromDate=${asIso(d)}&toDate=${today()}`, method: "GET" }) },
  "GET /api/manifests toDate": { user: "despatcher", request: (d) => ({ path: `/api/manifests?fromDate=${today()}&toDate=${asIso(d)}`, method: "GET" }) },
  "POST /api/replay_tracking_events_by_consignment_numbers fromDate": {
    user: "admin",
    request: (d) => ({ path: "/api/replay_tracking_events_by_consignment_numbers", method: "POST", json: { carrier: "SIMEX", fromDate: asIso(d), toDate: today() } }),
  },
  "POST /api/replay_tracking_events_by_consignment_numbers toDate": {
    user: "admin",
    request: (d) => ({ path: "/api/replay_tracking_events_by_consignment_numbers", method: "POST", json: { carrier: "SIMEX", fromDate: today(), toDate: asIso(d) } }),
  },
  "POST /api/admin_notices publish_at": { user: "admin", request: (d) => ({ path: "/api/admin_notices", method: "POST", json: noticeBody(d) }) },
  "PUT /api/admin_notices/{id} publish_at": { user: "admin", request: (d) => ({ path: `/api/admin_notices/${noticeId}`, method: "PUT", json: noticeBody(d) }) },
  "POST /api/consignments/advanced_search query.from_date": {
    user: "despatcher",
    request: (d) => ({ path: "/api/consignments/advanced_search", method: "POST", json: { query: { from_date: asIso(d), to_date: today() } } }),
  },
  "POST /api/consignments/advanced_search query.to_date": {
    user: "despatcher",
    request: (d) => ({ path: "/api/consignments/advanced_search", method: "POST", json: { query: { from_date: today(), to_date: asIso(d) } } }),
  },
  "POST /api/exports from_date": { user: "finance", request: (d) => ({ path: "/api/exports", method: "POST", json: { from_date: d, to_date: display(today()) } }) },
  "POST /api/exports to_date": { user: "finance", request: (d) => ({ path: "/api/exports", method: "POST", json: { from_date: display(today()), to_date: d } }) },
  "GET /api/bookings from_date": { user: "despatcher", request: (d) => ({ path: `/api/bookings?from_date=${asIso(d)}&to_date=${today()}`, method: "GET" }) },
  "GET /api/bookings to_date": { user: "despatcher", request: (d) => ({ path: `/api/bookings?from_date=${today()}&to_date=${asIso(d)}`, method: "GET" }) },
  "GET /api/bookings/new date": { user: "despatcher", request: (d) => ({ path: `/api/bookings/new?date=${asIso(d)}`, method: "GET" }) },
  "POST /api/tracking_events events.[].event_time": {
    user: "admin",
    request: (d) => ({ path: "/api/tracking_events", method: "POST", json: { events: [{ consignment_number: "SXMEL1000001", event: "picked_up", event_time: `${asIso(d)}T09:00:00+10:00` }] } }),
  },
  // named in the summaries only
  "PUT /api/bookings/book_all bookings.[].booking_date": {
    user: "despatcher",
    request: (d) => ({ path: "/api/bookings/book_all", method: "PUT", json: { bookings: [{ site_id: 1, service_code: "PP", booking_date: asIso(d), consignment_ids: [], ready_at: "09:00", closing_at: "17:00" }] } }),
  },
  "PUT /api/invoices/{id} invoice_date": { user: "admin", request: (d) => ({ path: `/api/invoices/${invoiceId}`, method: "PUT", json: { invoice_date: d } }) },
  "POST /api/invoicing_schedules options.invoicing_options.date": { user: "admin", request: (d) => ({ path: "/api/invoicing_schedules", method: "POST", json: schedule(d) }) },
};

/** The date fields the document's schemas declare: by format, or by a name that says date. */
function documentedDateFields(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the document is walked loosely
  const doc = openApiDocument as any;
  const out: string[] = [];
  const isDate = (name: string, s: Json | undefined) => s?.format === "date" || s?.format === "date-time" || (/(^|_)date$|Date$|^publish_at$|_time$/.test(name) && s?.type !== "boolean");
  const walk = (s: Json | undefined, at: string, op: string) => {
    if (!s || typeof s !== "object") return;
    for (const [k, v] of Object.entries<Json>(s.properties ?? {})) {
      if (isDate(k, v)) out.push(`${op} ${at}${k}`);
      walk(v, `${at}${k}.`, op);
    }
    if (s.items) walk(s.items, `${at}[].`, op);
    for (const key of ["oneOf", "anyOf", "allOf"]) for (const x of s[key] ?? []) walk(x, at, op);
  };
  for (const [path, ops] of Object.entries<Json>(doc.paths)) {
    for (const [method, op] of Object.entries<Json>(ops)) {
      const name = `${method.toUpperCase()} ${path}`;
      for (const p of op.parameters ?? []) if (isDate(p.name, p.schema)) out.push(`${name} ${p.name}`);
      for (const content of Object.values<Json>(op.requestBody?.content ?? {})) walk(content.schema, "", name);
    }
  }
  return out;
}

async function send(field: DateField, date: string) {
  const { path, method, json } = field.request(date);
  return c[field.user].json<Json>(path, { method, json });
}

describe("far dates on every date field of the OpenAPI document", () => {
  it("the table below covers every date field the document declares", () => {
    const declared = documentedDateFields();
    expect(declared.length).toBeGreaterThan(10);
    expect(declared.filter((f) => !(f in FIELDS))).toEqual([]);
  });

  it("a date in range is taken by each field (the requests are otherwise valid)", async () => {
    for (const [name, field] of Object.entries(FIELDS)) {
      if (/invoicing_schedules|tracking_events|replay|book_all/.test(name)) continue; // need lines, events, consignments or a carrier's history to succeed
      const res = await send(field, today());
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    }
  });

  it.each(Object.keys(FIELDS))("%s: 422 for each far date, in both spellings", async (name) => {
    const field = FIELDS[name]!;
    for (const date of FAR) {
      const res = await send(field, date);
      expect(res.status, `${name} ${date}: ${JSON.stringify(res.body)}`).toBe(422);
      // refused for the date, beside the date's own field, not for something else in the request
      const key = name.split(" ").at(-1)!.split(".").at(-1)!.toLowerCase();
      expect(Object.keys(res.body.errors ?? {}).some((k) => k.toLowerCase().endsWith(key)), `${name} ${date}: ${JSON.stringify(res.body)}`).toBe(true);
    }
  });

  it("nothing far was stored: the invoice keeps its date, no notice or schedule has a far one", async () => {
    const [inv] = await server.db.select({ date: invoices.invoiceDate }).from(invoices).where(eq(invoices.id, invoiceId));
    expect(String(inv!.date)).toMatch(/^20\d\d-/);
    const years = (await server.db.select({ at: notices.publishAt }).from(notices)).map((n) => n.at.getUTCFullYear());
    expect(years.filter((y) => y < 1999 || y > 2100)).toEqual([]);
    expect(await server.db.select().from(invoicingSchedules)).toEqual([]);
  });

  it("the messages say the window", async () => {
    const notice = await send(FIELDS["POST /api/admin_notices publish_at"]!, "01/01/0001");
    expect(notice.body.errors.publish_at).toEqual(["Publish date must be in the years 2000 to 2100"]);
    const invoice = await send(FIELDS["PUT /api/invoices/{id} invoice_date"]!, "31/12/9999");
    expect(invoice.body.errors.invoice_date).toEqual(["Invoice date must be in the years 2000 to 2100"]);
  });
});
