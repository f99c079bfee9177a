import fc from "fast-check";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { itemTypes, jobs, localities } from "../../db/schema";
import { encodeCursor } from "../../app/modules/consignments/list";
import { loadDangerousGoods } from "../../db/seed/dangerous-goods";
import { seedDemo } from "../../db/seed/demo";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { openApiDocument } from "../../app/modules/api/openapi";
import { MEL_TO_BNE_LOCALITIES } from "../support/rating";
import { Client, startTestServer, type TestServer } from "../support/server";

/**
 * Generated junk at every route of the OpenAPI document (issue 12 finding 8): junk path ids,
 * query values and bodies, as a despatcher and as an admin. Any answer is fine but a 500 or a
 * hang: every bad input is the caller's mistake and gets a 4xx saying so. Seeded, so a failure
 * in CI reproduces with the seed and path it prints.
 */

const SEED = 20_261_123;
const RUNS = 20;
/** exports write a whole scope's zones or lanes: a few runs cover their input checks */
const EXPORT_RUNS = 6;
/** a guard against a request that never answers, not a timing assertion */
const REQUEST_TIMEOUT_MS = 15_000;

let server: TestServer;
const clients: Record<"despatcher" | "admin", Client> = {} as never;
let consignmentId = 0;
let cartonTypeId = 0;

// ---------------------------------------------------------------------------------------------
// Junk

const NUL = "\u0000";
const numericJunk = fc.constantFrom("99999999999", "2147483648", "2147483647", "-2147483649", "9007199254740993", "1e20", "-1", "0", "1.5", "NaN", "Infinity", "0x10", " 7", "1,2", "00000000000000000000001");
const stringJunk = fc.oneof(
  numericJunk,
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 3000 }),
  fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 })).map(([a, b]) => `${a}${NUL}${b}`),
  // far dates in both of the product's spellings (issue 35 finding 7; far-dates.test.ts sends them to every date field)
  fc.constantFrom("0001-01-01", "01/01/0001", "9999-12-31", "31/12/9999", "2101-01-01", "1999-12-31", "+275760-09-13", "0001-01-01T00:00:00Z"),
  fc.constantFrom("2024-99-99", "0000-00-00", "2026-02-30 25:61", "2026-13-01T00:00", "%00", "../../etc/passwd", "' OR 1=1 --", "true", "null", "[]", "{}", "ALL", ""),
);
const numberJunk = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(1e20, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e308, -1, 0, 0.5, Number.MAX_SAFE_INTEGER),
);
const valueJunk: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: stringJunk },
  { weight: 2, arbitrary: numberJunk },
  { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}) },
  { weight: 2, arbitrary: fc.jsonValue({ stringUnit: "binary", maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.array(fc.oneof(numberJunk, stringJunk), { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(stringJunk, fc.oneof(numberJunk, stringJunk), { maxKeys: 4 }) },
);

/** Field names the routes read, so junk reaches the checks past "unknown key". */
const FIELDS = [
  "id", "ids", "source_id", "version", "reference", "options", "receiver_address", "sender_address", "items", "despatch_date",
  "site_code", "carrier_code", "service_code", "customer_code", "rate_code", "name", "query", "type", "country", "region", "date",
  "email", "uuid", "length", "zones", "surcharge_sets", "site_services", "site_codes", "service_codes", "filename", "seen", "after",
  "limit", "offset", "page", "return_info", "return_type", "is_quote", "send_email", "charge_account", "label_printer_id",
  "manifest_printer_id", "connote_printer_id", "printable_type", "printable_id", "fromDate", "toDate", "siteId", "filter", "dateFilter",
  "sort", "dir", "fail_despatch", "cancel_result", "user", "password", "redespatch", "despatch", "superadmin", "group_by", "q",
  "events", "journey_minutes", "fail_delivery", "consignmentNumbers", "carrier",
];

const consignmentBody = () => ({
  site_code: "MEL",
  reference: "PO-JUNK",
  despatch_date: new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10),
  sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", country: "AUSTRALIA" },
  receiver_address: { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD", country: "AUSTRALIA" },
  items: [{ quantity: 2, item_type_id: cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10" }],
  options: { note: "x" },
});

/** A near-valid body of the route, so one junk field meets the route's real checks. */
function baseBody(path: string): Record<string, unknown> {
  if (/^\/api\/(consignments|returns|carrier_selection)(\/\{id\})?$/.test(path)) {
    return { ...consignmentBody(), version: 1, return_type: "return", return_info: { ready_at: "2030-01-07 09:00", closing_at: "2030-01-07 17:00", contact_name: "Pat", phone_number: "0300001111" } };
  }
  if (path === "/api/tracking_events") return { events: [{ consignment_number: "SXMEL1000001", event: "picked_up", event_time: "2026-05-04T09:00:00+10:00" }] };
  if (path.startsWith("/api/notification_types")) return { name: "Junk type", max_length: 160, field_name: "phone" };
  if (/notification_configs|update_account_notifications/.test(path)) return { notification_type: 1, consignment_state: "despatched", status: true, template: "<p>Hello {{ receiver_name }}</p>", selected_account_ids: [] };
  if (path.startsWith("/users/sign_in")) return { user: { email: "despatcher@example.com", password: "wrong-password-1" } };
  return { ids: [consignmentId], id: consignmentId, source_id: consignmentId, options: { a: 1 }, carrier_code: "SIMEX", seen: true };
}

/** Sets a (possibly nested) field of a copy of the body. */
function withField(body: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  let at: Record<string, unknown> = copy;
  for (const key of path.slice(0, -1)) {
    const next = at[key];
    at = (at[key] = next && typeof next === "object" && !Array.isArray(next) ? next : {}) as Record<string, unknown>;
  }
  at[path[path.length - 1]!] = value;
  return copy;
}

const nestedKeys = ["name", "locality", "postcode", "country", "quantity", "weight_in_uom", "item_type_id", "length", "ready_at", "email"];
const fieldPath = fc.oneof(
  fc.constantFrom(...FIELDS).map((k) => [k]),
  fc.tuple(fc.constantFrom("receiver_address", "sender_address", "return_info", "options", "user"), fc.oneof(fc.constantFrom(...nestedKeys), stringJunk)),
);

/** A raw body: its content type and text. */
type Body = { type: string; text: string } | null;

const json = (value: unknown): Body => ({ type: "application/json", text: JSON.stringify(value) });
const deep = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth);

const bodyJunk = (path: string): fc.Arbitrary<Body> =>
  fc.oneof(
    { weight: 6, arbitrary: fc.tuple(fieldPath, valueJunk).map(([p, v]) => json(withField(baseBody(path), p, v))) },
    { weight: 2, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), stringJunk), valueJunk, { maxKeys: 6 }).map(json) },
    { weight: 1, arbitrary: valueJunk.map(json) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.integer({ min: 40, max: 100_000 }), fc.boolean()).map(([n, arrays]): Body => ({
        type: "application/json",
        text: arrays ? `{"options":${deep(n, "[", "]")}}` : `{"options":${deep(n, '{"a":', "}").replace('{"a":}', '{"a":1}')}}`,
      })),
    },
    { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), stringJunk, { maxKeys: 4 }).map((f): Body => ({ type: "application/x-www-form-urlencoded", text: new URLSearchParams(f).toString() })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }).map((t): Body => ({ type: "multipart/form-data; boundary=junk", text: t })) },
    { weight: 1, arbitrary: fc.constantFrom<Body>(null, { type: "application/json", text: "{" }, { type: "application/json", text: "" }, { type: "text/plain", text: "x" }) },
  );

const pathParamJunk = fc.oneof({ weight: 5, arbitrary: stringJunk.filter((s) => s.length > 0) }, { weight: 1, arbitrary: fc.constant("__real__") });

const queryJunk = (names: string[]) => fc.dictionary(fc.constantFrom(...names), stringJunk, { maxKeys: 4 });

// ---------------------------------------------------------------------------------------------
// Routes

type Method = "get" | "post" | "put" | "delete";
interface Operation {
  parameters?: ReadonlyArray<{ name: string; in: string }>;
  responses?: Record<string, unknown>;
}
const paths = openApiDocument.paths as unknown as Record<string, Partial<Record<Method, Operation>>>;
const routes = Object.entries(paths)
  .flatMap(([path, ops]) => (Object.keys(ops) as Method[]).map((method) => ({ path, method, op: ops[method]! })))
  // signing out would end the session the other routes run in; it takes no input anyway
  .filter((r) => r.path !== "/users/custom_sign_out");

/** One seed per route, so each meets different junk and a failure reproduces from its name. */
const seedOf = (name: string) => [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) | 0, SEED);

interface Probe {
  user: keyof typeof clients;
  params: Record<string, string>;
  query: Record<string, string>;
  body: Body;
}

/**
 * The status of one request on a connection of its own: Node closes a kept-alive connection whose
 * request body went unread (a 422 before the body was needed), and fetch would then find the next
 * request's connection reset.
 */
function statusOf(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent: false, timeout: REQUEST_TIMEOUT_MS }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode!));
      res.on("error", () => resolve(res.statusCode!));
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} did not answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

async function send(route: (typeof routes)[number], probe: Probe) {
  const pathname = route.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(probe.params[name] === "__real__" ? String(consignmentId) : probe.params[name]!));
  const search = new URLSearchParams(probe.query).toString();
  // the users routes sign in and out: a fresh client keeps the signed-in ones signed in
  const client = route.path.startsWith("/users/") ? new Client(server.url) : clients[probe.user];
  const headers: Record<string, string> = { Accept: "application/json", Origin: server.url, cookie: client.cookie, "X-Requested-With": "XMLHttpRequest" };
  if (probe.body) headers["content-type"] = probe.body.type;
  return statusOf(`${server.url}${pathname}${search ? `?${search}` : ""}`, route.method.toUpperCase(), headers, route.method === "get" ? undefined : probe.body?.text);
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  // the lane the near-valid bodies price: the full 61,000 localities would take most of the run
  await server.db.insert(localities).values([...MEL_TO_BNE_LOCALITIES]);
  await seedRatingDemo(server.db);
  await loadDangerousGoods(server.db);
  for (const user of ["despatcher", "admin"] as const) {
    clients[user] = new Client(server.url);
    const signedIn = await clients[user].signIn(`${user}@example.com`);
    expect(signedIn.status).toBe(200);
  }
  const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
  cartonTypeId = carton!.id;
  const created = await clients.despatcher.json<{ id: number }>("/api/consignments", { json: consignmentBody() });
  expect(created.status).toBe(201);
  consignmentId = created.body.id;
}, 180_000);
afterAll(() => server?.close());

describe("generated junk at every /api route of the OpenAPI document", () => {
  it("covers the document", () => {
    expect(routes.length).toBeGreaterThan(60);
  });

  it.each(routes.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))("%s answers 4xx, never 500", async (name, route) => {
    const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const queryNames = [...new Set([...(route.op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name), "ids", "id", "after", "query", "date", "type", "country"])];
    const probe: fc.Arbitrary<Probe> = fc.record({
      user: fc.constantFrom("despatcher" as const, "admin" as const),
      params: pathNames.length ? fc.record(Object.fromEntries(pathNames.map((n) => [n, pathParamJunk]))) : fc.constant({}),
      query: queryJunk(queryNames),
      body: route.method === "get" ? fc.constant(null) : bodyJunk(route.path),
    });
    // a 5xx the document promises (501 of single sign-on until configured) is an answer, not a failure
    const documented = new Set(Object.keys(route.op.responses ?? {}));
    const result = await fc.check(
      fc.asyncProperty(probe, async (p) => {
        const status = await send(route, p);
        return status < 500 || documented.has(String(status));
      }),
      // JUNK_RUNS raises the runs for a longer hunt on one's own machine
      { seed: seedOf(name), numRuns: Number(process.env.JUNK_RUNS ?? (route.path.endsWith("/export") ? EXPORT_RUNS : RUNS)) },
    );
    expect(result.failed ? fc.defaultReportMessage(result) : null).toBeNull();
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

describe("the attack run's samples answer 4xx (issue 12 finding 8)", () => {
  it("a NUL in a reference, a receiver's name or an options key: 422 naming the field", async () => {
    for (const [body, field] of [
      [{ ...consignmentBody(), reference: "PO\u00001" }, "reference"],
      [{ ...consignmentBody(), receiver_address: { ...consignmentBody().receiver_address, name: "Bris\u0000bane" } }, "receiver_address.name"],
      [{ ...consignmentBody(), options: { "no\u0000te": "x" } }, "options.no\\u0000te"],
    ] as const) {
      const res = await clients.despatcher.json<Json>("/api/consignments", { json: body });
      expect(res.status).toBe(422);
      expect(res.body.errors[field]).toEqual([`${field} cannot contain a NUL character`]);
    }
  });

  it("a NUL in a form body or a query parameter: 422 naming it", async () => {
    // /api takes JSON only (415 for a form), so the form goes where forms are taken
    const form = await clients.despatcher.json<Json>("/users/forgot_password", { form: { email: "sam\u0000@example.com" } });
    expect(form.status).toBe(422);
    expect(form.body.errors.email).toEqual(["email cannot contain a NUL character"]);
    const query = await clients.despatcher.json<Json>("/api/consignments?service_code=%00");
    expect(query.status).toBe(422);
    expect(query.body.errors.service_code).toEqual(["service_code cannot contain a NUL character"]);
  });

  it("an id beyond any record: 404 in a path, 422 in a list", async () => {
    for (const path of ["/api/consignments/99999999999", "/api/consignments/2147483648", "/api/returns/99999999999", "/api/addresses/99999999999"]) {
      const res = await clients.despatcher.json<Json>(path);
      expect(res.status, path).toBe(404);
    }
    const labels = await clients.despatcher.request("/print/99999999999/labels");
    expect(labels.status).toBe(404);
    for (const path of ["/print/labels?ids=99999999999", "/print/consignment_notes?ids=99999999999", "/print/despatch_manifest_report?ids=2147483648"]) {
      const batch = await clients.despatcher.json<Json>(path);
      expect(batch.status, path).toBe(422);
      expect(Object.values(batch.body.errors).flat()[0], path).toMatch(/^ids must be/);
    }
    const destroy = await clients.despatcher.json<Json>("/api/consignments/destroy_all?ids=1,99999999999", { method: "POST" });
    expect(destroy.status).toBe(422);
    expect(Object.values(destroy.body.errors).flat()).toContain("ids must be consignment ids");
    const despatch = await clients.despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [2 ** 31] } });
    expect(despatch.status).toBe(422);
    const manifests = await clients.despatcher.json<Json>("/api/manifests?ids=99999999999");
    expect(manifests.status).toBe(422);
  });

  it("crafted paging cursors: 422 asking to start again, never a database error", async () => {
    for (const [sort, cursor] of [
      ["despatch_date", encodeCursor("2024-99-99", 1)],
      ["item_count", encodeCursor(1e20, 1)],
      ["party_name", encodeCursor("a", 2 ** 31)],
      ["weight", encodeCursor("123456789012345678", 1)],
    ] as const) {
      const res = await clients.despatcher.json<Json>(`/api/consignments?sort=${sort}&after=${cursor}`);
      expect(res.status, sort).toBe(422);
      expect(res.body.errors.after).toEqual(["The page cursor is not valid; start from the first page"]);
    }
    // the list screen starts the group again rather than failing the page
    const page = await clients.despatcher.request(`/consignments/metadata/last_7_days?sort=item_count&after_none=${encodeCursor(1e20, 1)}`);
    expect(page.status).toBe(200);
  });

  it("options nested 100,000 deep: 400 before anything recurses over it", async () => {
    const depth = 100_000;
    const res = await fetch(`${server.url}/api/consignments`, {
      method: "POST",
      headers: { cookie: clients.despatcher.cookie, Origin: server.url, "content-type": "application/json" },
      body: `{"options":${'{"a":'.repeat(depth)}1${"}".repeat(depth)}}`,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ errors: { base: ["The request body is nested more than 32 levels deep."] } });
  });

  describe("uploads", () => {
    const upload = (body: BodyInit, type?: string) =>
      fetch(`${server.url}/api/zones/import?carrier_code=SIMEX`, { method: "POST", body, headers: { cookie: clients.admin.cookie, Origin: server.url, ...(type ? { "content-type": type } : {}) } });
    const file = (content: BlobPart, name = "zones.csv") => {
      const form = new FormData();
      form.set("file", new File([content], name));
      return form;
    };
    const zoneJobs = async () => Number(((await server.db.select({ n: count() }).from(jobs).where(eq(jobs.name, "zones.import"))) as [{ n: number }])[0].n);

    it.each([
      ["an unbalanced quote", file('postcode,zone\n3175,"MEL\n4102,BNE\n'), "Line 2 opens a quote that is never closed."],
      ["a ragged row", file("postcode,zone\n3175,MEL,extra\n"), "Line 2 has 3 fields; the header has 2."],
      ["PNG bytes named .csv", file(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]), "picture.csv"), "The file is not a CSV text file."],
      ["NUL characters in a cell", file("postcode,zone\n3175,ME\u0000L\n"), "Line 2 contains a NUL character, which cannot be imported."],
    ])("%s: 422 naming the line, and no import job is left behind", async (_name, form, message) => {
      const before = await zoneJobs();
      const res = await upload(form);
      expect(res.status).toBe(422);
      expect(await res.json()).toEqual({ errors: { file: [message] } });
      expect(await zoneJobs()).toBe(before);
    });

    it("a malformed multipart body: 400, on the /api call and on the staff screen", async () => {
      const res = await upload("--junk\r\nnot a part", "multipart/form-data; boundary=junk");
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ errors: { base: ["The request body is not a valid form."] } });
      const page = await fetch(`${server.url}/zones`, {
        method: "POST",
        body: "--junk\r\nnot a part",
        headers: { cookie: clients.admin.cookie, Origin: server.url, "content-type": "multipart/form-data; boundary=junk" },
      });
      expect(page.status).toBe(400);
    });
  });
});
