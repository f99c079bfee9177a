import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customEmails, customers } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { ESCAPES, THE_REPORTED_SUBJECT } from "../support/template-escapes";
import { signInAll, startTestServer, type Client, type TestServer } from "../support/server";

/**
 * Template injection (issue 35 finding 1) through the real server: every class of escape from a
 * user-written template (files read by include/render/layout, HTML through raw or url_decode,
 * loops, huge output, unknown filters, prototype access) is refused at save by /api and by the
 * screen, nothing is stored, what is stored is what was checked, and a template that got into the
 * table some other way is never run: the preview says why and answers at once.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let clients: Record<"admin" | "customerService", Client>;
let acmeId: number;

/** A page's text as read: entities React writes read back. */
const text = (html: string) => html.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
/** What the server's own files hold, which must never reach a page or an answer (read as text: entities and JSON escapes undone). */
const SECRETS = ['"name": "freightdesk"', '"devDependencies"', "root:x:0:0"];
const leaks = (answer: string) => SECRETS.filter((s) => text(answer.replaceAll('\\"', '"')).includes(s));

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  clients = await signInAll(server.url, { admin: "admin@example.com", customerService: "customerservice@example.com" });
  acmeId = (await server.db.select().from(customers).where(eq(customers.name, "Acme Distribution")))[0]!.id;
}, 120_000);
afterAll(() => server?.close());

const api = (kind = "return") => `/api/customers/${acmeId}/custom_emails/${kind}`;
const pagePath = (kind = "return") => `/customers/${acmeId}/custom_emails/${kind}`;
const rowOf = async (kind: "return" | "notification" = "return") => (await server.db.select().from(customEmails).where(and(eq(customEmails.customerId, acmeId), eq(customEmails.kind, kind))))[0];

describe("saving a custom e-mail refuses every escape from the template", () => {
  it("the reported subject: 422 on subject, nothing stored, no file read", async () => {
    await clients.admin.json(api(), { method: "DELETE" });
    const started = Date.now();
    const res = await clients.customerService.json<Json>(api(), { method: "PUT", json: { subject: THE_REPORTED_SUBJECT, body: "<p>Hello</p>" } });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors.subject[0]).toMatch(/\{% include %\} is not allowed/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await rowOf()).toBeUndefined();
    const page = await (await clients.customerService.request(pagePath(), { headers: { Accept: "text/html" } })).text();
    expect(leaks(page)).toEqual([]);
  });

  for (const [kind, payloads] of Object.entries(ESCAPES)) {
    it(`${kind}: refused in the subject, in a body, and hidden in a body's attribute, per field`, async () => {
      await clients.admin.json(api(), { method: "DELETE" });
      for (const payload of payloads) {
        for (const [field, value] of [
          ["subject", `Labels ${payload}`],
          ["body", `<p>Hi ${payload}</p>`],
          // an attribute the sanitiser drops: checked before it goes as well as after
          ["body", `<p><b title="x ${payload.replaceAll('"', "'")} y">z</b></p>`],
          ["footer", `<p>${payload}</p>`],
        ] as const) {
          const started = Date.now();
          const res = await clients.customerService.json<Json>(api(), { method: "PUT", json: { [field]: value } });
          expect(res.status, `${field}: ${value} answered ${JSON.stringify(res.body)}`).toBe(422);
          expect(Object.keys(res.body.errors), value).toEqual([field]);
          expect(res.body.errors[field][0], value).toMatch(/\S/);
          expect(Date.now() - started, value).toBeLessThan(5_000);
          expect(leaks(JSON.stringify(res.body)), value).toEqual([]);
        }
      }
      expect(await rowOf()).toBeUndefined();
    }, 120_000);
  }

  it("the notification frame refuses them too (header and footer)", async () => {
    for (const payload of Object.values(ESCAPES).flat()) {
      const res = await clients.admin.json<Json>(api("notification"), { method: "PUT", json: { header: `<p>${payload}</p>`, footer: "<p>ok</p>" } });
      expect(res.status, payload).toBe(422);
      expect(Object.keys(res.body.errors), payload).toEqual(["header"]);
    }
    expect(await rowOf("notification")).toBeUndefined();
  }, 60_000);

  it("stores exactly what was checked: the answer, the row and a second save agree", async () => {
    const input = { subject: "  Labels  for {{ consignment_number | upcase }}  ", header: '<p onclick="x()">Top<script>alert(1)</script></p>', body: "<p>Dear {{ receiver_name | default: 'customer' }}</p>", footer: "<p>Call {{ sender_site_phone }}</p>" };
    const saved = await clients.customerService.json<Json>(api(), { method: "PUT", json: input });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const row = await rowOf();
    expect({ subject: row!.subject, header: row!.header, body: row!.body, footer: row!.footer }).toEqual({ subject: saved.body.subject, header: saved.body.header, body: saved.body.body, footer: saved.body.footer });
    expect(row!.subject).toBe("Labels for {{ consignment_number | upcase }}");
    expect(row!.header).toBe("<p>Top</p>");
    // what is stored passes the check unchanged: saving it again stores the same
    const again = await clients.customerService.json<Json>(api(), { method: "PUT", json: { subject: row!.subject, header: row!.header, body: row!.body, footer: row!.footer } });
    expect(again.status).toBe(200);
    const second = await rowOf();
    expect([second!.subject, second!.header, second!.body, second!.footer]).toEqual([row!.subject, row!.header, row!.body, row!.footer]);
    // and the preview fills it in
    const page = text(await (await clients.customerService.request(pagePath(), { headers: { Accept: "text/html" } })).text());
    expect(page).toContain("Labels for ABC000123");
    expect(page).toContain("Dear Brisbane Hardware");
  });

  it("a subject is plain text: markup in it is refused, not stored as something other than what was checked", async () => {
    const before = await rowOf();
    const res = await clients.customerService.json<Json>(api(), { method: "PUT", json: { subject: "Labels for {{ consignment_number }} <b title=x>z</b>" } });
    expect(res.status).toBe(422);
    expect(res.body.errors.subject[0]).toMatch(/plain text/);
    expect((await rowOf())!.subject).toBe(before!.subject);
  });
});

describe("the screen", () => {
  it("refuses the reported subject with the field's message, keeps what was typed, stores nothing, and previews nothing", async () => {
    await clients.admin.json(api(), { method: "DELETE" });
    for (const intent of ["save", "preview"]) {
      const res = await clients.customerService.request(pagePath(), { form: { intent, subject: THE_REPORTED_SUBJECT, header: "", body: "<p>Body</p>", footer: "" }, headers: { Accept: "text/html" } });
      expect(res.status, intent).toBe(422);
      const html = await res.text();
      expect(leaks(html), intent).toEqual([]);
      const page = text(html);
      expect(page).toMatch(/\{% include %\} is not allowed/);
      // the input keeps what was typed
      expect(page).toContain(`value="${THE_REPORTED_SUBJECT}"`);
    }
    expect(await rowOf()).toBeUndefined();
  });
});

describe("a template that reached the table without the check", () => {
  const planted = {
    include: { subject: THE_REPORTED_SUBJECT, body: "<p>{% include 'package.json' %}</p>" },
    loop: { subject: "{% for i in (1..5000) %}{% for j in (1..5000) %}x{% endfor %}{% endfor %}", body: "<p>{% for i in (1..5000) %}{% for j in (1..5000) %}{{ receiver_name }}{% endfor %}{% endfor %}</p>" },
    raw: { subject: "Hi", body: '<p>{{ "%3Cscript%3Ealert(1)%3C/script%3E" | url_decode | raw }}</p>' },
  };
  for (const [name, wording] of Object.entries(planted)) {
    it(`${name}: the editor's preview answers at once with why, and runs nothing`, async () => {
      await server.db.delete(customEmails).where(eq(customEmails.customerId, acmeId));
      await server.db.insert(customEmails).values({ customerId: acmeId, kind: "return", subject: wording.subject, header: null, body: wording.body, footer: null });
      const started = Date.now();
      const res = await clients.customerService.request(pagePath(), { headers: { Accept: "text/html" } });
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(leaks(html)).toEqual([]);
      expect(html).not.toContain("<script>alert(1)</script>");
      expect(text(html)).toMatch(/could not be filled in/);
      // the API shows no part that does not pass the check either
      const json = await clients.customerService.json<Json>(api());
      expect(json.status).toBe(200);
      expect(leaks(JSON.stringify(json.body))).toEqual([]);
    });
  }
  afterAll(() => server.db.delete(customEmails).where(eq(customEmails.customerId, acmeId)));
});
