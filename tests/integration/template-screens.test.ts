/**
 * The carrier invoice template screens (issue 18 item 1): who may list, read and change templates,
 * save with the spec's failure message and what was typed kept, Move down without saving, delete,
 * and the test run of unsaved steps over a sample kept on the server between runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers } from "../../db/schema";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let staff: Client;
let despatcher: Client;
let tester: Client;
let carrierId = 0;

const unescape = (html: string) => html.replace(/<!-- -->/g, "").replace(/&#x27;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&").replace(/&lt;/g, "<").replace(/&gt;/g, ">");

async function send(client: Client, path: string, entries: [string, string][], file?: { name: string; text: string }) {
  const form = new FormData();
  for (const [k, v] of entries) form.append(k, v);
  if (file) form.append("test_file", new File([file.text], file.name, { type: "text/csv" }));
  const res = await fetch(`${client.base}${path}`, { method: "POST", body: form, redirect: "manual", headers: { cookie: client.cookie } });
  return { status: res.status, location: res.headers.get("location"), html: unescape(await res.text()) };
}
const page = async (client: Client, path: string) => {
  const res = await client.request(path);
  return { status: res.status, location: res.headers.get("location"), html: unescape(await res.text()) };
};

const t = (i: number, key: string, value: string): [string, string] => [`transformations.${i}.${key}`, value];
const o = (i: number, key: string, value: string): [string, string] => [`transformations.${i}.options.${key}`, value];
const mapFields = (i: number): [string, string][] => [t(i, "type", "MapFields"), o(i, "map.invoice_number", "Inv"), o(i, "map.consignment_number", "Con"), o(i, "cost.freight_charge.column", "Freight"), t(i, "run", "1")];
const template = (name: string, intent: string): [string, string][] => [
  ["intent", intent],
  ["name", name],
  ["carrier_id", String(carrierId)],
  ["format", "CSV"],
  ["sheets", ""],
  t(0, "type", "NameColumns"),
  o(0, "action", "ROW_INDEX"),
  o(0, "row", "1"),
  t(0, "run", "1"),
  t(1, "type", "DeleteRows"),
  o(1, "action", "COLUMN_MATCH"),
  o(1, "column", "Con"),
  o(1, "pattern", "^total"),
  t(1, "run", "1"),
  ...mapFields(2),
];
const api = async (id: number) => (await admin.json<Json>(`/api/carrier_invoice_configs/${id}`)).body;

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ admin, customerService: staff, despatcher, tester } = world.clients);
  const [carrier] = await server.db.select({ id: carriers.id }).from(carriers).limit(1);
  carrierId = carrier!.id;
}, 600_000);
afterAll(() => server.close());

describe("template screens", () => {
  it("lets finance users read, invoice admins change, and sends despatchers and customer users away", async () => {
    for (const who of [despatcher, tester]) {
      expect((await page(who, "/carrier_invoice_configs")).location).toBe("/");
      expect((await page(who, "/carrier_invoice_config")).location).toBe("/");
      expect((await send(who, "/carrier_invoice_config", template("Refused", "save"))).location).toBe("/");
    }
    const list = await page(staff, "/carrier_invoice_configs");
    expect(list.status).toBe(200);
    expect(list.html).toContain("Invoice templates");
    expect(list.html).not.toContain("New template");
    expect((await send(staff, "/carrier_invoice_config", template("Staff made", "save"))).status).toBe(403);
    const all = (await admin.json<Json>("/api/carrier_invoice_configs")).body.carrier_invoice_configs as Json[];
    expect(all.map((c) => c.name)).not.toContain("Refused");
    expect(all.map((c) => c.name)).not.toContain("Staff made");
  });

  it("saves, refuses a bad template keeping what was typed, moves a step without saving, lists and deletes", async () => {
    const bad = await send(admin, "/carrier_invoice_config", [...template("", "save").filter(([k]) => k !== "transformations.1.options.column"), o(1, "column", " ")]);
    expect(bad.status).toBe(422);
    expect(bad.html).toContain("Carrier invoice import configuration failed to save.");
    expect(bad.html).toMatch(/id="transformations.1.options.column"[^>]*aria-invalid="true"/);
    expect(bad.html).toContain('id="transformations.1.options.column-error"');
    expect(bad.html).toContain('value="^total"');

    const saved = await send(admin, "/carrier_invoice_config", template("Screens CSV", "save"));
    expect(saved.status).toBe(302);
    const id = Number(/\/carrier_invoice_config\/(\d+)\?notice=saved$/.exec(saved.location ?? "")?.[1]);
    expect(id).toBeGreaterThan(0);
    expect((await api(id)).transformations.map((s: Json) => s.type)).toEqual(["NameColumns", "DeleteRows", "MapFields"]);

    const moved = await send(admin, `/carrier_invoice_config/${id}`, template("Screens CSV", "down:0"));
    expect(moved.status).toBe(200);
    expect(moved.html.indexOf("Step 1: DeleteRows")).toBeGreaterThan(-1);
    expect(moved.html.indexOf("Step 1: DeleteRows")).toBeLessThan(moved.html.indexOf("Step 2: NameColumns"));
    // focus stays on the moved step, now last of the movable ones: its Move up
    expect(moved.html).toMatch(/<button[^>]*id="step-1-up"[^>]*autofocus|<button[^>]*autofocus[^>]*id="step-1-up"/i);
    expect((await api(id)).transformations.map((s: Json) => s.type)).toEqual(["NameColumns", "DeleteRows", "MapFields"]);

    const movedForm = template("Screens CSV", "save").map(([k, v]): [string, string] => [k.replace(/^transformations\.0\./, "transformations.X.").replace(/^transformations\.1\./, "transformations.0.").replace(/^transformations\.X\./, "transformations.1."), v]);
    expect((await send(admin, `/carrier_invoice_config/${id}`, movedForm)).status).toBe(302);
    expect((await api(id)).transformations.map((s: Json) => [s.type, s.sequence])).toEqual([["DeleteRows", 1], ["NameColumns", 2], ["MapFields", 999999]]);

    expect((await page(staff, `/carrier_invoice_configs?carrier=${carrierId}`)).html).toContain("Screens CSV");
    expect((await page(staff, `/carrier_invoice_configs?carrier=${carrierId + 100000}`)).html).not.toContain("Screens CSV");
    const readOnly = await page(staff, `/carrier_invoice_config/${id}`);
    expect(readOnly.status).toBe(200);
    expect(readOnly.html).toContain('value="^total"');
    expect((await send(staff, `/carrier_invoice_config/${id}`, [["intent", "delete"]])).status).toBe(403);

    // Remove keeps the step, hidden, until Save sends it as _destroy
    const removing = await send(admin, `/carrier_invoice_config/${id}`, [...movedForm.filter(([k]) => k !== "intent"), ["intent", "remove:1"]]);
    expect(removing.html).toContain("(removed when you save)");
    expect(removing.html).toContain('name="transformations.1._destroy" value="1"');
    expect((await api(id)).transformations).toHaveLength(3);
    expect((await send(admin, `/carrier_invoice_config/${id}`, [...movedForm, t(1, "_destroy", "1")])).status).toBe(302);
    expect((await api(id)).transformations.map((s: Json) => s.type)).toEqual(["DeleteRows", "MapFields"]);

    const deleted = await send(admin, `/carrier_invoice_config/${id}`, [["intent", "delete"]]);
    expect(deleted.location).toBe("/carrier_invoice_configs?notice=deleted");
    expect((await admin.json(`/api/carrier_invoice_configs/${id}`)).status).toBe(404);
  });

  it("test runs the unsaved steps in the form, and runs again on the kept sample", async () => {
    const csv = "Carrier export\nInv,Con,Freight\nI-1,C-1,\"$1,234.50\"\nTotal,,1234.50\n";
    const base: [string, string][] = [["intent", "test"], ["format", "CSV"], ["name", ""], ["carrier_id", ""], t(0, "type", "NameColumns"), o(0, "action", "ROW_INDEX"), o(0, "row", "2"), t(0, "run", "1"), ...mapFields(1)];
    const first = await send(admin, "/carrier_invoice_config", base, { name: "sample.csv", text: csv });
    expect(first.status).toBe(200);
    expect(first.html).toContain("row 4, step 2 MapFields");
    const token = /name="sample" value="([^"]+)"/.exec(first.html)?.[1] ?? "";
    expect(token).toMatch(/^[0-9a-f-]{36}\.csv$/);
    expect(first.html).toContain('<option value="Freight">');

    // an unsaved DeleteRows of the last row, and no file chosen: the kept sample runs
    const withStep: [string, string][] = [...base.filter(([k]) => !k.startsWith("transformations.1.")), t(1, "type", "DeleteRows"), o(1, "action", "ROW_INDEXES"), o(1, "indexes", "-1"), t(1, "run", "1"), ...mapFields(2), ["sample", token]];
    const second = await send(admin, "/carrier_invoice_config", [...withStep, ["row_numbers", "3, 4"]]);
    expect(second.status).toBe(200);
    expect(second.html).toContain("No problems.");
    expect(second.html).toContain("Mapped lines (1)");
    expect(second.html).toContain("After step 2 DeleteRows (Rows by number)");
    // the action by its label, never its code (issue 31 #6)
    expect(second.html).not.toContain(">ROW_INDEXES<");
    expect(second.html).toContain("Freight charge 1234.50");
    // only the rows asked for are shown after each step, and the numbers stay in their field
    expect(second.html).toContain("The file as read (2 rows shown)");
    expect(second.html).toMatch(/id="row_numbers"[^>]*value="3, 4"/);

    // a step left unticked is not run, and the others keep the numbers the editor shows
    const unticked = await send(admin, "/carrier_invoice_config", [...base.filter(([k]) => k !== "transformations.0.run")], { name: "sample.csv", text: csv });
    expect(unticked.html).toContain("row 1, step 2 MapFields");
    expect(unticked.html).not.toContain("After step 1");

    const wrong = await send(admin, "/carrier_invoice_config", base, { name: "sample.xlsx", text: csv });
    expect(wrong.html).toContain("Invalid file format");
    const none = await send(admin, "/carrier_invoice_config", [...base.filter(([k]) => k !== "transformations.1.run")], { name: "empty.csv", text: "Carrier export\nInv,Con,Freight\n" });
    expect(none.html).toContain("No rows present in import results.");
    const xlsx = base.map(([k, v]): [string, string] => [k, k === "format" ? "XLSX" : v]);
    // a zip that is no workbook: the XLSX reader's refusal comes back to the form
    const unreadable = await send(admin, "/carrier_invoice_config", xlsx, { name: "broken.xlsx", text: "PK\u0003\u0004 not really a workbook" });
    expect(unreadable.status).toBe(422);
    expect(unreadable.html).toMatch(/id="test_file"[^>]*aria-invalid="true"/);
    expect(unreadable.html).toContain("Invalid file format");
    const noFile = await send(admin, "/carrier_invoice_config", base);
    expect(noFile.status).toBe(422);
    expect(noFile.html).toContain("Choose a file.");
    expect((await send(staff, "/carrier_invoice_config", base, { name: "sample.csv", text: csv })).status).toBe(403);
  });
});
