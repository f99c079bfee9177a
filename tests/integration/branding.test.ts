import { IMAGE_TOO_MANY_PIXELS, MAX_IMAGE_SIDE } from "../../app/utils/image-size";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandings, customers } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createCustomer, createSite } from "../../db/seed/factories";
import { BRANDING_MESSAGES } from "../../app/modules/branding/images.server";
import { NO_IMAGE } from "../../app/modules/branding/branding";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/** Branding (issue 17 item 7; spec 2 "Branding", PUT /api/customers/{id}/branding, GET /api/branding, the branded login page). */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
const EMAILS = { devs: "devs@example.com", superAdmin: "superadmin@example.com", admin: "admin@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com" };
type Who = keyof typeof EMAILS;
const clients = {} as Record<Who, Client>;

// the smallest valid PNG (1x1) and a JPEG's opening bytes
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from("JFIF\0"), Buffer.alloc(64, 1), Buffer.from([0xff, 0xd9])]);
const SVG_EVIL = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10" onload="alert(1)">
  <script>alert(2)</script>
  <style>rect { fill: url(http://evil.example/x) }</style>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
  <a xlink:href="javascript:alert(3)"><rect width="10" height="10" fill="url(#g)" onclick="alert(4)"/></a>
  <rect width="5" height="5" fill="url(http://evil.example/paint)"/>
  <image href="http://evil.example/track.png" width="1" height="1"/>
  <use href="http://evil.example/sprite.svg#a"/><use href="#g"/>
  <foreignObject><iframe src="http://evil.example"></iframe></foreignObject>
</svg>`;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  await server.db.update(customers).set({ brandingPrefix: "acme" }).where(eq(customers.id, demo.acme.id));
  Object.assign(clients, await signInAll(server.url, EMAILS));
}, 120_000);
afterAll(() => server?.close());

type Part = { name: string; body: Uint8Array | string; type?: string };
function put(client: Client | null, customerId: number, fields: Record<string, string>, files: Record<string, Part> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  for (const [k, f] of Object.entries(files)) form.set(k, new File([f.body as BlobPart], f.name, f.type !== undefined ? { type: f.type } : {}));
  const headers: Record<string, string> = { Accept: "application/json", "X-Requested-With": "XMLHttpRequest", Origin: server.url };
  if (client) headers.cookie = client.cookie;
  return fetch(`${server.url}/api/customers/${customerId}/branding`, { method: "PUT", body: form, headers }).then(async (res) => ({ status: res.status, body: (await res.json()) as Json }));
}
const png = (name = "logo.png", type = "image/png"): Part => ({ name, body: PNG, type });
const au = { country_code: "au", env: "qa" };

describe("roles", () => {
  it("lets admins and super admins brand, and refuses customer service and despatchers on every call and the screen", async () => {
    const expected: Record<Who, number> = { devs: 200, superAdmin: 200, admin: 200, customerService: 403, despatcher: 403 };
    for (const who of Object.keys(EMAILS) as Who[]) {
      expect((await put(clients[who], demo.acme.id, { country_code: "nz", env: "uat" }, { logo_image: png() })).status, who).toBe(expected[who]);
      expect((await clients[who].json("/api/branding")).status, who).toBe(expected[who]);
      expect((await clients[who].json(`/api/customers/${demo.acme.id}/branding`)).status, who).toBe(expected[who]);
      const page = await clients[who].request("/branding");
      if (expected[who] === 200) expect(page.status, who).toBe(200);
      else expect(page.headers.get("location"), who).toBe("/");
    }
    expect((await put(null, demo.acme.id, au, { logo_image: png() })).status).toBe(401);
  });
});

describe("PUT /api/customers/{id}/branding", () => {
  it("accepts PNG and JPEG, serves them with their type and nosniff, and keeps an image not sent again", async () => {
    const first = await put(clients.admin, demo.acme.id, au, { logo_image: png(), bg_image: { name: "bg.jpg", body: JPEG, type: "image/jpeg" } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ customer_id: demo.acme.id, site_id: null, country_code: "au", env: "qa", logo_type: "image/png", bg_type: "image/jpeg" });
    const logo = await fetch(server.url + first.body.logo_url);
    expect(logo.status).toBe(200);
    expect(logo.headers.get("content-type")).toBe("image/png");
    expect(logo.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await logo.arrayBuffer()).equals(PNG)).toBe(true);
    const bg = await fetch(server.url + first.body.bg_url);
    expect(bg.headers.get("content-type")).toBe("image/jpeg");
    // a second save of the same scope with only a new logo: one row, the background kept
    const second = await put(clients.admin, demo.acme.id, au, { logo_image: { name: "logo.jpeg", body: JPEG, type: "image/jpeg" } });
    expect(second.status).toBe(200);
    expect(second.body.id).toBe(first.body.id);
    expect(second.body).toMatchObject({ logo_type: "image/jpeg", bg_type: "image/jpeg" });
  });

  it("keeps one branding per country, environment and site", async () => {
    const customer = await createCustomer(server.db, { code: "BRANDX" });
    const site = await createSite(server.db, customer.id, { code: "BX1", name: "Brand Site" });
    const scopes: Array<Record<string, string>> = [
      { country_code: "au", env: "production" },
      { country_code: "nz", env: "production" },
      { country_code: "au", env: "development" },
      { country_code: "au", env: "production", site_id: String(site.id) },
    ];
    for (const s of scopes) expect((await put(clients.superAdmin, customer.id, s, { logo_image: png() })).status).toBe(200);
    for (const s of scopes) expect((await put(clients.superAdmin, customer.id, s, { bg_image: png("bg.png") })).status).toBe(200);
    const list = await clients.admin.json<Json>(`/api/branding?customer_id=${customer.id}`);
    expect(list.body.brandings).toHaveLength(4);
    expect(list.body.brandings.every((b: Json) => b.logo_type === "image/png" && b.bg_type === "image/png")).toBe(true);
    expect(list.body.brandings.filter((b: Json) => b.site_id === site.id)[0].site_name).toBe("Brand Site");
  });

  it("refuses a site of another customer, bad country and environment, and a first save without an image", async () => {
    const other = await put(clients.admin, demo.acme.id, { ...au, site_id: String((await createSite(server.db, demo.testCustomer.id, { code: "OTH" })).id) }, { logo_image: png() });
    expect(other.status).toBe(422);
    expect(other.body.errors.site_id).toEqual(["Site must be one of the customer's sites"]);
    const bad = await put(clients.admin, demo.acme.id, { country_code: "us", env: "staging" }, { logo_image: png() });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["country_code", "env"]);
    const empty = await put(clients.admin, demo.acme.id, { country_code: "nz", env: "development" });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.logo_image).toEqual([NO_IMAGE]);
    expect(await server.db.select().from(brandings).where(eq(brandings.environment, "development"))).toHaveLength(1); // BRANDX's only
    expect((await put(clients.admin, 999_999, au, { logo_image: png() })).status).toBe(404);
  });

  it("refuses a PNG named .svg, HTML named .png, a GIF, and an image over 2 MB", async () => {
    const renamed = await put(clients.admin, demo.acme.id, au, { logo_image: { name: "logo.svg", body: PNG, type: "image/svg+xml" } });
    expect(renamed.status).toBe(422);
    expect(renamed.body.errors.logo_image).toEqual([BRANDING_MESSAGES.mismatch]);
    const html = await put(clients.admin, demo.acme.id, au, { bg_image: { name: "bg.png", body: "<html><script>alert(1)</script></html>", type: "image/png" } });
    expect(html.status).toBe(422);
    expect(html.body.errors.bg_image).toEqual([BRANDING_MESSAGES.typesOnly]);
    const gif = await put(clients.admin, demo.acme.id, au, { logo_image: { name: "a.gif", body: "GIF89a\x01\x00\x01\x00", type: "image/gif" } });
    expect(gif.body.errors.logo_image).toEqual([BRANDING_MESSAGES.typesOnly]);
    const big = await put(clients.admin, demo.acme.id, au, { logo_image: { name: "big.png", body: Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024)]), type: "image/png" } });
    expect(big.status).toBe(422);
    expect(big.body.errors.logo_image).toEqual([BRANDING_MESSAGES.tooLarge]);
  });

  it("on the screen without JavaScript, a 3 MB PNG is told it is too large, with the limit, not that its type is wrong (issue 31 item 8)", async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ customer_id: String(demo.acme.id), ...au, site_id: "" })) form.set(k, v);
    form.set("logo_image", new File([Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024, 7)])], "logo.png", { type: "image/png" }));
    const res = await fetch(`${server.url}/branding`, { method: "POST", body: form, headers: { cookie: clients.admin.cookie, Origin: server.url } });
    expect(res.status).toBe(422);
    const html = (await res.text()).replace(/<script[\s\S]*?<\/script>/g, "");
    expect(html).toContain(`id="logo_image-error" class="field-error">${BRANDING_MESSAGES.tooLarge}`);
    expect(BRANDING_MESSAGES.tooLarge).toContain("2 MB");
    expect(html).not.toContain(BRANDING_MESSAGES.typesOnly);
  });

  it("refuses a PNG or JPEG larger than the pixel cap, small as its file is (issue 35 finding 10)", async () => {
    const pngOf = (width: number, height: number) => {
      const b = Buffer.from(PNG);
      b.writeUInt32BE(width, 16);
      b.writeUInt32BE(height, 20);
      return b;
    };
    // a baseline JPEG's opening: SOI, then a start-of-frame naming its height and width
    const jpegOf = (width: number, height: number) => Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 255, width >> 8, width & 255, 0x03]), Buffer.alloc(64, 1), Buffer.from([0xff, 0xd9])]);
    for (const [name, body] of [["huge.png", pngOf(60_000, 60_000)], ["wide.png", pngOf(MAX_IMAGE_SIDE + 1, 1)], ["tall.jpg", jpegOf(1, 60_000)]] as const) {
      const res = await put(clients.admin, demo.acme.id, au, { logo_image: { name, body, type: name.endsWith("png") ? "image/png" : "image/jpeg" } });
      expect(res.status, name).toBe(422);
      expect(res.body.errors.logo_image, name).toEqual([IMAGE_TOO_MANY_PIXELS]);
    }
    for (const [name, body] of [["edge.png", pngOf(MAX_IMAGE_SIDE, MAX_IMAGE_SIDE)], ["edge.jpg", jpegOf(MAX_IMAGE_SIDE, 10)]] as const) {
      expect((await put(clients.admin, demo.acme.id, au, { logo_image: { name, body, type: name.endsWith("png") ? "image/png" : "image/jpeg" } })).status, name).toBe(200);
    }
  });

  it("sanitises an SVG: no scripts, handlers, styles or outside references, served with a closed CSP", async () => {
    const saved = await put(clients.admin, demo.acme.id, { country_code: "nz", env: "qa" }, { logo_image: { name: "logo.svg", body: SVG_EVIL, type: "image/svg+xml" } });
    expect(saved.status).toBe(200);
    expect(saved.body.logo_type).toBe("image/svg+xml");
    const res = await fetch(server.url + saved.body.logo_url);
    const text = await res.text();
    expect(res.headers.get("content-type")).toBe("image/svg+xml");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(text).toMatch(/^<svg[\s>]/);
    for (const banned of ["script", "alert", "onload", "onclick", "<style", "evil.example", "javascript:", "<image", "foreignObject", "iframe"]) expect(text, banned).not.toContain(banned);
    // what a logo needs survives: the drawing, its gradient and the local references to it
    expect(text).toContain('viewBox="0 0 10 10"');
    expect(text).toContain('fill="url(#g)"');
    expect(text).toContain('href="#g"');
    const doctype = await put(clients.admin, demo.acme.id, au, { logo_image: { name: "x.svg", body: '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>', type: "image/svg+xml" } });
    expect(doctype.status).toBe(422);
    expect(doctype.body.errors.logo_image).toEqual([BRANDING_MESSAGES.badSvg]);
  });
});

describe("the login page on a customer URL", () => {
  it("shows the brand's logo and background for its prefix (this environment, country, site) and not for another", async () => {
    const customer = await createCustomer(server.db, { code: "LOGINB", brandingPrefix: "loginbrand" });
    const site = await createSite(server.db, customer.id, { code: "LB1" });
    const whole = await put(clients.admin, customer.id, { country_code: "au", env: "qa" }, { logo_image: png(), bg_image: png("bg.png") });
    const nz = await put(clients.admin, customer.id, { country_code: "nz", env: "qa" }, { logo_image: png() });
    const prod = await put(clients.admin, customer.id, { country_code: "au", env: "production" }, { logo_image: png() });
    const ofSite = await put(clients.admin, customer.id, { country_code: "au", env: "qa", site_id: String(site.id) }, { logo_image: png() });
    const anon = new Client(server.url);
    const page = async (query: string) => (await anon.request(`/login${query}`, { headers: { Accept: "text/html" } })).text();
    const html = await page("?brand=LoginBrand");
    expect(html).toContain(whole.body.logo_url.replace(/&/g, "&amp;"));
    expect(html).toContain(whole.body.bg_url);
    expect(html).not.toContain(prod.body.logo_url); // the server runs as qa
    expect(await page("?brand=loginbrand&country=nz")).toContain(nz.body.logo_url);
    expect(await page("?brand=loginbrand&site=lb1")).toContain(ofSite.body.logo_url);
    for (const other of ["?brand=acme", "?brand=nobody", "", "?brand=%3Cscript%3E"]) expect(await page(other)).not.toContain(`/branding_images/${whole.body.id}/`);
    expect(await page("")).not.toContain('data-testid="brand-logo"');
  });

  it("answers 404 for an image that does not exist", async () => {
    expect((await fetch(`${server.url}/branding_images/999999/logo`)).status).toBe(404);
    expect((await fetch(`${server.url}/branding_images/1/other`)).status).toBe(404);
  });
});
