import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccounts, carriers, customers, notificationConfigs, notificationMedia, notificationTypes, sites } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { MESSAGES } from "../../app/modules/notifications/configs";
import { resolveConfigs } from "../../app/modules/notifications/configs.server";
import { imageTypeOf } from "../../app/modules/notifications/media.server";
import { TEMPLATE_REQUIRED } from "../../app/modules/templates/tags";
import { IMAGE_TOO_LARGE, IMAGE_TYPES_ONLY, MAX_IMAGE_BYTES } from "../../app/utils/upload-limits";
import { Client, signInAll, startTestServer, type TestServer } from "../support/server";

/**
 * Notification preferences (issue 14 item 6; spec 2 /{parentType}/{parentId}/notification_configs
 * and its API): templates per customer, site and carrier account, the most specific applying;
 * checked when saved; images uploaded for them and served without a session.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const clients = {} as Record<"admin" | "superAdmin" | "devs" | "customerService" | "despatcher", Client>;
const EMAILS = { admin: "admin@example.com", superAdmin: "superadmin@example.com", devs: "devs@example.com", customerService: "customerservice@example.com", despatcher: "despatcher@example.com" };
const ids = { acme: 0, testCustomer: 0, mel: 0, syd: 0, tst: 0, melAP: 0, melNL: 0, sydNL: 0, email: 0, sms: 0 };

const GOOD = "<p>Hello {{ receiver_name }}, your goods left {{ sender_locality }}.</p>";

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  Object.assign(clients, await signInAll(server.url, EMAILS));
  const db = server.db;
  const customer = async (name: string) => (await db.select().from(customers).where(eq(customers.name, name)))[0]!.id;
  const site = async (code: string) => (await db.select().from(sites).where(eq(sites.code, code)))[0]!.id;
  const account = async (siteId: number, carrierCode: string) =>
    (await db.select({ id: carrierAccounts.id }).from(carrierAccounts).innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId)).where(and(eq(carrierAccounts.siteId, siteId), eq(carriers.code, carrierCode))))[0]!.id;
  const type = async (name: string) => (await db.select().from(notificationTypes).where(eq(notificationTypes.name, name)))[0]!.id;
  ids.acme = await customer("Acme Distribution");
  ids.testCustomer = await customer("Testing Pty Ltd");
  ids.mel = await site("MEL");
  ids.syd = await site("SYD");
  ids.tst = await site("TST");
  ids.melAP = await account(ids.mel, "auspost");
  ids.melNL = await account(ids.mel, "NORTHLINE");
  ids.sydNL = await account(ids.syd, "NORTHLINE");
  ids.email = await type("Email");
  ids.sms = await type("SMS");
}, 120_000);
afterAll(() => server?.close());

const page = (customerId: number, siteId?: number, accountId?: number) => `/customers/${customerId}${siteId ? `/sites/${siteId}` : ""}${accountId ? `/accounts/${accountId}` : ""}/notification_configs`;
const configsOf = (parentType: "customer" | "site" | "account", parentId: number) =>
  server.db.select().from(notificationConfigs).where(and(eq(notificationConfigs.parentType, parentType), eq(notificationConfigs.parentId, parentId)));
const configCount = async () => Number(((await server.db.select({ n: count() }).from(notificationConfigs)) as [{ n: number }])[0].n);
/** A page's form, as a browser without JavaScript posts it (repeated fields allowed). */
const postForm = (client: Client, path: string, fields: Array<[string, string]>) =>
  fetch(server.url + path, { method: "POST", body: new URLSearchParams(fields), headers: { cookie: client.cookie, "content-type": "application/x-www-form-urlencoded" }, redirect: "manual" });
const saveForm = (state: string, template: string, more: Array<[string, string]> = [], typeId = ids.email): Array<[string, string]> => [
  ["intent", "save"],
  ["notification_type", String(typeId)],
  ["consignment_state", state],
  ["status", "enabled"],
  ["template", template],
  ...more,
];
/** A page's text as read: React's separators between text parts gone, entities read. */
const html = (text: string) => text.replaceAll("<!-- -->", "").replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");

describe("notification configs through the API", () => {
  it("creates, lists, reads and changes a customer's template; another level's id is not found; a second of the same kind is refused", async () => {
    const created = await clients.admin.json<Json>(`/api/customers/${ids.acme}/notification_configs`, {
      json: { notification_type: ids.email, consignment_state: "despatched", status: true, template: `${GOOD}<script>alert(1)</script>` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ customer_id: ids.acme, parent_type: "customer", parent_id: ids.acme, notification_type: ids.email, notification_type_name: "Email", consignment_state: "despatched", status: true, accounts_with_custom_templates: [] });
    // sanitised as stored: the script is gone, the tags stay
    expect(created.body.template).toBe(GOOD);
    const id = created.body.id as number;

    const list = await clients.devs.json<Json>(`/api/customers/${ids.acme}/notification_configs`);
    expect(list.body.notification_configs.map((c: Json) => [c.id, c.consignment_state])).toEqual([[id, "despatched"]]);
    const { applied_to_accounts: applied, ...config } = created.body;
    expect(applied).toEqual([]);
    expect((await clients.superAdmin.json<Json>(`/api/customers/${ids.acme}/notification_configs/${id}`)).body).toEqual(config);

    const changed = await clients.admin.json<Json>(`/api/customers/${ids.acme}/notification_configs/${id}`, { method: "PUT", json: { status: "disabled" } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ id, status: false, template: GOOD });
    const again = await clients.admin.json<Json>(`/api/customers/${ids.acme}/notification_configs/${id}`, { method: "PUT", json: { status: true, template: "<p>{{ consignment_number | upcase }} is on its way</p>" } });
    expect(again.body).toMatchObject({ status: true, template: "<p>{{ consignment_number | upcase }} is on its way</p>" });

    expect((await clients.admin.json<Json>(`/api/sites/${ids.mel}/notification_configs/${id}`)).status).toBe(404);
    expect((await clients.admin.json<Json>(`/api/stores/${ids.mel}/notification_configs`)).status).toBe(404);
    const twice = await clients.admin.json<Json>(`/api/customers/${ids.acme}/notification_configs`, { json: { notification_type: ids.email, consignment_state: "despatched", template: GOOD } });
    expect([twice.status, twice.body.errors.consignment_state]).toEqual([409, [MESSAGES.taken]]);
    const badState = await clients.admin.json<Json>(`/api/customers/${ids.acme}/notification_configs`, { json: { notification_type: ids.email, consignment_state: "booked", template: GOOD } });
    expect([badState.status, badState.body.errors.consignment_state]).toEqual([422, [MESSAGES.state]]);
    const badType = await clients.admin.json<Json>(`/api/customers/${ids.acme}/notification_configs`, { json: { notification_type: 999_999, consignment_state: "delivered", template: GOOD } });
    expect([badType.status, badType.body.errors.notification_type]).toEqual([422, [MESSAGES.unknownType]]);

    const removed = await clients.admin.json<Json>(`/api/customers/${ids.acme}/notification_configs/${id}`, { method: "DELETE" });
    expect(removed.body).toEqual({ id, deleted: true });
    expect(await configsOf("customer", ids.acme)).toEqual([]);
  });

  it("refuses an unknown tag, a statement and an empty template with the template's message, storing nothing", async () => {
    const before = await configCount();
    for (const [template, message] of [
      ["<p>Hi {{ receiver_email }}</p>", /^Unknown tag \{\{ receiver_email \}\}/],
      ["<p>{% if receiver_name %}Hi{% endif %}</p>", /\{% if %\} is not allowed/],
      ["<p><br></p>", new RegExp(`^${TEMPLATE_REQUIRED}$`)],
      ["", new RegExp(`^${TEMPLATE_REQUIRED}$`)],
    ] as const) {
      const res = await clients.admin.json<Json>(`/api/sites/${ids.mel}/notification_configs`, { json: { notification_type: ids.email, consignment_state: "delivered", template } });
      expect(res.status, template).toBe(422);
      expect(res.body.errors.template[0], template).toMatch(message);
    }
    expect(await configCount()).toBe(before);
  });
});

describe("notification preferences screens", () => {
  it("saves a site's own template from the form, showing first what it inherits", async () => {
    await clients.admin.json(`/api/customers/${ids.acme}/notification_configs`, { json: { notification_type: ids.email, consignment_state: "picked_up", template: "<p>Customer says {{ carrier_name }} collected it</p>" } });
    const before = html(await (await clients.admin.request(`${page(ids.acme, ids.mel)}?type=${ids.email}&state=picked_up`)).text());
    expect(before).toContain("This site has no template of its own: the customer's (");
    expect(before).toContain("Customer says {{ carrier_name }} collected it");

    const saved = await postForm(clients.admin, page(ids.acme, ids.mel), saveForm("picked_up", "<p>Melbourne: {{ carrier_name }} has it</p>"));
    expect(saved.status).toBe(200);
    expect(html(await saved.text())).toContain(MESSAGES.saved);
    const [row] = await configsOf("site", ids.mel);
    expect(row).toMatchObject({ customerId: ids.acme, notificationTypeId: ids.email, consignmentState: "picked_up", enabled: true, template: "<p>Melbourne: {{ carrier_name }} has it</p>" });
    const after = html(await (await clients.admin.request(`${page(ids.acme, ids.mel)}?type=${ids.email}&state=picked_up`)).text());
    expect(after).toContain("This site has its own template.");

    // unticked: turned off, which is kept
    const off = await postForm(clients.admin, page(ids.acme, ids.mel), saveForm("picked_up", "<p>Melbourne: {{ carrier_name }} has it</p>").filter(([k]) => k !== "status"));
    expect(off.status).toBe(200);
    expect((await configsOf("site", ids.mel))[0]!.enabled).toBe(false);
  });

  it("refuses an unknown tag, {% if %} and an empty template on the form with the field's message and the spec's alert, storing nothing", async () => {
    const before = await configCount();
    for (const [template, message] of [
      ["<p>{{ receiver_mobile }}</p>", "Unknown tag {{ receiver_mobile }}"],
      ["<p>{% if receiver_name %}x{% endif %}</p>", "{% if %} is not allowed"],
      ["", TEMPLATE_REQUIRED],
    ] as const) {
      const res = await postForm(clients.admin, page(ids.acme, ids.syd), saveForm("delivered", template));
      expect(res.status, template).toBe(422);
      const body = html(await res.text());
      expect(body).toContain(MESSAGES.saveFailed);
      expect(body).toContain(message);
      // what was typed comes back to be corrected
      if (template) expect(body).toContain(template.replaceAll("<", "&lt;").replaceAll(">", "&gt;"));
    }
    expect(await configCount()).toBe(before);
  });

  it("saves an account's own template from its page, and removes it again", async () => {
    const path = page(ids.acme, ids.syd, ids.sydNL);
    expect((await postForm(clients.superAdmin, path, saveForm("in_transit", "<p>Northline Sydney: {{ consignment_number }}</p>"))).status).toBe(200);
    const [row] = await configsOf("account", ids.sydNL);
    expect(row).toMatchObject({ customerId: ids.acme, consignmentState: "in_transit" });
    expect((await postForm(clients.superAdmin, path, [["intent", "remove"], ["config_id", String(row!.id)]])).status).toBe(200);
    expect(await configsOf("account", ids.sydNL)).toEqual([]);
  });
});

describe("which template applies", () => {
  it("the most specific: an account's over its site's over its customer's; a disabled one wins and sends nothing", async () => {
    const state = "on_board_for_delivery";
    const post = (path: string, template: string, status = true) => clients.admin.json<Json>(`/api${path}/notification_configs`, { json: { notification_type: ids.sms, consignment_state: state, status, template } });
    expect((await post(`/customers/${ids.acme}`, "<p>customer {{ consignment_number }}</p>")).status).toBe(201);
    expect((await post(`/sites/${ids.mel}`, "<p>site {{ consignment_number }}</p>")).status).toBe(201);
    expect((await post(`/accounts/${ids.melAP}`, "<p>account {{ consignment_number }}</p>")).status).toBe(201);
    const applied = async (siteId: number, carrierAccountId: number | null) =>
      (await resolveConfigs(server.db, { customerId: ids.acme, siteId, carrierAccountId }, { notificationTypeId: ids.sms, consignmentState: state })).map((c) => [c.parentType, c.template, c.enabled]);
    expect(await applied(ids.mel, ids.melAP)).toEqual([["account", "<p>account {{ consignment_number }}</p>", true]]);
    expect(await applied(ids.mel, ids.melNL)).toEqual([["site", "<p>site {{ consignment_number }}</p>", true]]);
    expect(await applied(ids.syd, ids.sydNL)).toEqual([["customer", "<p>customer {{ consignment_number }}</p>", true]]);
    // another customer's placement finds none of Acme's
    expect(await resolveConfigs(server.db, { customerId: ids.testCustomer, siteId: ids.tst, carrierAccountId: null }, { consignmentState: state })).toEqual([]);

    // the site turned off: its accounts without their own send nothing, and are not sent the customer's
    const site = (await configsOf("site", ids.mel)).find((c) => c.notificationTypeId === ids.sms);
    await clients.admin.json(`/api/sites/${ids.mel}/notification_configs/${site!.id}`, { method: "PUT", json: { status: false } });
    expect(await applied(ids.mel, ids.melNL)).toEqual([["site", "<p>site {{ consignment_number }}</p>", false]]);

    // the screen says where each applies
    const screen = html(await (await clients.admin.request(`${page(ids.acme, ids.mel, ids.melNL)}?type=${ids.sms}&state=${state}`)).text());
    expect(screen).toContain("the site's (");
    expect(screen).toContain("Inherited: the site's (Melbourne DC)");
    expect(screen).toContain("Inherited: the customer's (Acme Distribution)");
  });
});

describe("applying a customer's change to accounts with their own templates", () => {
  const state = "delivered_with_pod";
  const body = (selected: number[]) => ({ custom_accounts: [ids.melNL, ids.sydNL], selected_account_ids: selected, notification_type: ids.email, status: true, consignment_state: state, template: "<p>Delivered: {{ consignment_number }}</p>" });

  it("updates the chosen accounts only, and refuses none chosen with the spec's message", async () => {
    for (const account of [ids.melNL, ids.sydNL]) {
      expect((await clients.admin.json(`/api/accounts/${account}/notification_configs`, { json: { notification_type: ids.email, consignment_state: state, template: `<p>own ${account}</p>` } })).status).toBe(201);
    }
    const none = await clients.admin.json<Json>(`/api/customers/${ids.acme}/update_account_notifications`, { method: "PUT", json: body([]) });
    expect([none.status, none.body.errors.selected_account_ids]).toEqual([422, [MESSAGES.chooseAccounts]]);
    const notCustom = await clients.admin.json<Json>(`/api/customers/${ids.acme}/update_account_notifications`, { method: "PUT", json: body([ids.melAP]) });
    expect([notCustom.status, notCustom.body.errors.selected_account_ids]).toEqual([422, [MESSAGES.notCustomAccount]]);

    const res = await clients.admin.json<Json>(`/api/customers/${ids.acme}/update_account_notifications`, { method: "PUT", json: body([ids.melNL]) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.updated).toEqual([ids.melNL]);
    expect((await configsOf("account", ids.melNL)).find((c) => c.consignmentState === state)!.template).toBe("<p>Delivered: {{ consignment_number }}</p>");
    expect((await configsOf("account", ids.sydNL)).find((c) => c.consignmentState === state)!.template).toBe(`<p>own ${ids.sydNL}</p>`);

    // the customer's own config lists them
    const own = await clients.admin.json<Json>(`/api/customers/${ids.acme}/notification_configs`, { json: { notification_type: ids.email, consignment_state: state, template: "<p>customer</p>" } });
    expect(own.body.accounts_with_custom_templates.sort()).toEqual([ids.melNL, ids.sydNL].sort());
  });

  it("on the customer's screen: the accounts are offered, none chosen is refused, the chosen take the change", async () => {
    const path = page(ids.acme);
    const shown = html(await (await clients.admin.request(`${path}?type=${ids.email}&state=${state}`)).text());
    expect(shown).toContain("Accounts with their own template (2)");
    const before = await configsOf("customer", ids.acme);

    const refused = await postForm(clients.admin, path, saveForm(state, "<p>Screen: {{ consignment_number }}</p>"));
    expect(refused.status).toBe(422);
    const refusedHtml = html(await refused.text());
    expect(refusedHtml).toContain(MESSAGES.saveFailed);
    expect(refusedHtml).toContain(MESSAGES.chooseAccounts);
    expect(await configsOf("customer", ids.acme)).toEqual(before);

    const saved = await postForm(clients.admin, path, saveForm(state, "<p>Screen: {{ consignment_number }}</p>", [["selected_account_ids", String(ids.sydNL)]]));
    expect(saved.status).toBe(200);
    expect(html(await saved.text())).toContain(`${MESSAGES.saved} Also applied to 1 account.`);
    expect((await configsOf("customer", ids.acme)).find((c) => c.consignmentState === state)!.template).toBe("<p>Screen: {{ consignment_number }}</p>");
    expect((await configsOf("account", ids.sydNL)).find((c) => c.consignmentState === state)!.template).toBe("<p>Screen: {{ consignment_number }}</p>");
    expect((await configsOf("account", ids.melNL)).find((c) => c.consignmentState === state)!.template).toBe("<p>Delivered: {{ consignment_number }}</p>");
  });
});

describe("who may, and which customer's", () => {
  it("another customer's site, or an account under another site, is not found", async () => {
    expect((await clients.admin.request(page(ids.acme, ids.tst))).status).toBe(404);
    expect((await clients.admin.request(page(ids.acme, ids.syd, ids.melAP))).status).toBe(404);
    expect((await clients.admin.request(page(ids.testCustomer, ids.mel))).status).toBe(404);
    expect((await postForm(clients.admin, page(ids.acme, ids.tst), saveForm("despatched", GOOD))).status).toBe(404);
    expect((await clients.admin.request(page(ids.acme, 99_999_999))).status).toBe(404);
    expect((await clients.admin.json(`/api/accounts/99999999/notification_configs`)).status).toBe(404);
    // staff work on any customer, as with its other administration
    expect((await clients.admin.request(page(ids.testCustomer, ids.tst))).status).toBe(200);
  });

  it("refuses customer service and despatchers everywhere: pages go to /, the API answers 403", async () => {
    for (const who of ["customerService", "despatcher"] as const) {
      const client = clients[who];
      for (const path of [page(ids.acme), page(ids.acme, ids.mel), page(ids.acme, ids.mel, ids.melAP)]) {
        const res = await client.request(path);
        expect([who, path, res.status, res.headers.get("location")]).toEqual([who, path, 302, "/"]);
        const post = await postForm(client, path, saveForm("despatched", GOOD));
        expect([who, path, post.status, post.headers.get("location")]).toEqual([who, path, 302, "/"]);
      }
      const before = await configCount();
      for (const [method, path, json] of [
        ["GET", `/api/customers/${ids.acme}/notification_configs`, undefined],
        ["POST", `/api/customers/${ids.acme}/notification_configs`, { notification_type: ids.email, consignment_state: "despatched", template: GOOD }],
        ["GET", `/api/sites/${ids.mel}/notification_configs/1`, undefined],
        ["PUT", `/api/sites/${ids.mel}/notification_configs/1`, { status: false }],
        ["DELETE", `/api/sites/${ids.mel}/notification_configs/1`, undefined],
        ["PUT", `/api/customers/${ids.acme}/update_account_notifications`, { selected_account_ids: [ids.melNL], notification_type: ids.email, consignment_state: "delivered_with_pod", template: GOOD }],
      ] as const) {
        const res = await client.json<Json>(path, { method, json });
        expect([who, method, path, res.status]).toEqual([who, method, path, 403]);
      }
      expect(await configCount()).toBe(before);
      expect((await uploadAs(client, png, "pixel.png")).status).toBe(403);
    }
  });

  it("offers the working customer's preferences on the home page to admins, not to customer service", async () => {
    expect(await (await clients.admin.request("/home")).text()).toContain(`href="/customers/${ids.acme}/notification_configs"`);
    expect(await (await clients.customerService.request("/home")).text()).not.toContain("/notification_configs");
  });
});

// a 1×1 PNG
const png = Uint8Array.from(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64"));

function uploadAs(client: Client, bytes: Uint8Array<ArrayBuffer>, name: string, type = "image/png") {
  const form = new FormData();
  form.set("file", new File([bytes], name, { type }));
  return fetch(`${server.url}/api/notifications_media_upload`, { method: "POST", body: form, headers: { cookie: client.cookie, Origin: server.url, Accept: "application/json" } });
}

describe("images for templates", () => {
  it("takes a PNG and serves it back byte for byte to anyone, without a session", async () => {
    const res = await uploadAs(clients.admin, png, "pixel.png");
    expect(res.status).toBe(201);
    const body = (await res.json()) as Json;
    expect(body.url).toBe(`${server.url}/api/notifications_media/${body.id}`);
    expect(body.path).toBe(`/api/notifications_media/${body.id}`);
    const [row] = await server.db.select().from(notificationMedia).where(eq(notificationMedia.id, body.id));
    expect(row).toMatchObject({ customerId: ids.acme, contentType: "image/png" });

    const served = await fetch(body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(served.headers.get("cache-control")).toContain("max-age=31536000");
    expect(served.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);

    // a template may place it
    const saved = await clients.admin.json<Json>(`/api/sites/${ids.syd}/notification_configs`, { json: { notification_type: ids.email, consignment_state: "despatched", template: `<p>Logo <img src="${body.url}" alt="Acme"></p>` } });
    expect(saved.body.template).toContain(`<img src="${body.url}" alt="Acme"`);

    expect((await fetch(`${server.url}/api/notifications_media/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/notifications_media/not-a-uuid`)).status).toBe(404);
  });

  it("refuses a text file named .png, and an image over 2 MB with 413", async () => {
    const text = await uploadAs(clients.admin, new TextEncoder().encode("just some text, not a picture\n"), "picture.png");
    expect([text.status, await text.json()]).toEqual([422, { errors: { file: [IMAGE_TYPES_ONLY] } }]);
    const big = new Uint8Array(MAX_IMAGE_BYTES + 1);
    big.set(png);
    const tooBig = await uploadAs(clients.admin, big, "big.png");
    expect([tooBig.status, await tooBig.json()]).toEqual([413, { errors: { base: [IMAGE_TOO_LARGE], file: [IMAGE_TOO_LARGE] } }]);
    // exactly 2 MB is taken
    const most = new Uint8Array(MAX_IMAGE_BYTES);
    most.set(png);
    expect((await uploadAs(clients.admin, most, "most.png")).status).toBe(201);
    const json = await clients.admin.json<Json>("/api/notifications_media_upload", { json: { file: "x" } });
    expect(json.status).toBe(422);
  });

  it("stops a body far past 2 MB while it streams, with the same answer", async () => {
    const huge = new Uint8Array(6 * 1024 * 1024);
    huge.set(png);
    const res = await uploadAs(clients.admin, huge, "huge.png");
    expect([res.status, await res.json()]).toEqual([413, { errors: { base: [IMAGE_TOO_LARGE], file: [IMAGE_TOO_LARGE] } }]);
    // the session still works
    expect((await clients.admin.json("/api/users/current")).status).toBe(200);
  });

  it("knows PNG, JPEG, GIF and WebP by their bytes, and nothing else", () => {
    const bytes = (...parts: Array<string | number[]>) => Uint8Array.from(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));
    expect(imageTypeOf(png)).toBe("image/png");
    expect(imageTypeOf(bytes([0xff, 0xd8, 0xff, 0xe0], "JFIF"))).toBe("image/jpeg");
    expect(imageTypeOf(bytes("GIF89a", [1, 0, 1, 0]))).toBe("image/gif");
    expect(imageTypeOf(bytes("RIFF", [0, 0, 0, 0], "WEBPVP8 "))).toBe("image/webp");
    expect(imageTypeOf(bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "))).toBeNull();
    expect(imageTypeOf(bytes("<svg xmlns='http://www.w3.org/2000/svg'/>"))).toBeNull();
    expect(imageTypeOf(new Uint8Array())).toBeNull();
  });
});
