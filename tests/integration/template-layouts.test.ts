/**
 * The template language for common layouts (issue 29 item 6), through the server: every demo
 * template and one with every step and action come back unchanged from GET, open in the editor
 * (its HTML form posted as a browser posts it) and save; a layout with a header block and a
 * credit line imports with the header's invoice number and date on every line and the credit's
 * fuel part as credit_adjustment; one template reads the same layout as CSV and as XLSX.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, invoiceCosts, invoiceDetails, invoices } from "../../db/schema";
import { auspostTemplate, northlineTemplate, simexTemplate } from "../../db/seed/invoices/templates";
import { EVERY_STEP } from "../support/every-step";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";
import { postFiles, xlsxOf } from "../support/invoice-import";

let world: DespatchWorld;
let server: TestServer;
let admin: Client;
let carrierId = 0;

const entity = (s: string) => s.replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#10;/g, "\n").replace(/&amp;/g, "&");
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? entity(m[1]!) : null;
};
const has = (tag: string, name: string) => new RegExp(`\\s${name}(=|\\s|/?>)`).test(tag);

/**
 * What a browser posts for the editor's form: its inputs (checkboxes when ticked; not files or
 * buttons), each select's chosen option (else its first) and each textarea's text, in page order.
 */
function formEntries(html: string): [string, string][] {
  const start = html.indexOf('aria-label="Template"');
  const form = html.slice(start, html.indexOf("</form>", start));
  const out: [string, string][] = [];
  const control = /<input\b[^>]*>|<select\b[^>]*>[\s\S]*?<\/select>|<textarea\b[^>]*>[\s\S]*?<\/textarea>/g;
  for (const m of form.matchAll(control)) {
    const tag = m[0];
    const open = /^<[^>]*>/.exec(tag)![0];
    const name = attr(open, "name");
    if (!name || has(open, "disabled")) continue;
    if (tag.startsWith("<input")) {
      const type = attr(open, "type") ?? "text";
      if (type === "file" || type === "submit") continue;
      if (type === "checkbox" && !has(open, "checked")) continue;
      out.push([name, attr(open, "value") ?? (type === "checkbox" ? "on" : "")]);
    } else if (tag.startsWith("<select")) {
      const options = [...tag.matchAll(/<option\b([^>]*)>([\s\S]*?)<\/option>/g)];
      const chosen = options.find((o) => has(`<option${o[1]}>`, "selected")) ?? options[0];
      if (chosen) out.push([name, attr(`<option${chosen[1]}>`, "value") ?? entity(chosen[2]!.replace(/<!-- -->/g, ""))]);
    } else {
      out.push([name, entity(/^<textarea\b[^>]*>([\s\S]*?)<\/textarea>$/.exec(tag)![1]!)]);
    }
  }
  return out;
}

const withoutIds = (c: Json) => ({ ...c, transformations: c.transformations.map(({ id: _id, ...t }: Json) => t) });

async function roundTrip(id: number) {
  const before = (await admin.json<Json>(`/api/carrier_invoice_configs/${id}`)).body;
  const page = await admin.request(`/carrier_invoice_config/${id}`);
  expect(page.status).toBe(200);
  const form = new FormData();
  for (const [k, v] of formEntries(await page.text())) form.append(k, v);
  form.set("intent", "save");
  const saved = await fetch(`${admin.base}/carrier_invoice_config/${id}`, { method: "POST", body: form, redirect: "manual", headers: { cookie: admin.cookie } });
  expect(saved.status, (await saved.text()).slice(0, 300)).toBe(302);
  const after = (await admin.json<Json>(`/api/carrier_invoice_configs/${id}`)).body;
  // a save writes the steps anew, so only their ids change
  expect(withoutIds(after)).toEqual(withoutIds(before));
  return after;
}

const make = async (template: Json) => {
  const made = await admin.json<Json>("/api/carrier_invoice_configs", { method: "POST", json: template });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return made.body as Json;
};

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  ({ admin } = world.clients);
  const [carrier] = await server.db.select({ id: carriers.id }).from(carriers).limit(1);
  carrierId = carrier!.id;
}, 120_000);
afterAll(() => server.close());

describe("the editor keeps everything the API accepts", () => {
  it("GET, open in the editor, save unchanged, GET: equal, for every demo template", async () => {
    for (const template of [northlineTemplate, auspostTemplate, simexTemplate]) {
      const made = await make(template(carrierId));
      await roundTrip(made.id);
    }
  });

  it("GET, open in the editor, save unchanged, GET: equal, for a template with every step and action, two formats and two columns of one category", async () => {
    const made = await make({ name: "Every step", carrier_id: carrierId, parser: { formats: ["XLSX", "CSV"], sheets: ["Charges"] }, transformations: EVERY_STEP });
    expect(made.parser).toEqual({ format: "CSV", formats: ["CSV", "XLSX"], sheets: ["Charges"] });
    const after = await roundTrip(made.id);
    const map = after.transformations.at(-1).options;
    expect(map.costs.filter((c: Json) => c.category === "freight_charge").map((c: Json) => c.column)).toEqual(["Freight", "Linehaul"]);
    expect(after.transformations.map((t: Json) => t.type)).toEqual(EVERY_STEP.map((t) => t.type));
  });
});

// a header block above the column header (row 5), a credit line, a tail lift, a totals row
const HEADER_CSV = (invoice: string) =>
  [
    "Northline Logistics,,,,,Tax invoice",
    `Invoice No:,,${invoice},,,`,
    "Invoice Date,05/11/2026,,,,",
    "Account: ACC-9,,,,,",
    "Con Note,Freight,Fuel,Tail Lift,Security,Total",
    'CN-H1,"$1,000.00",$12.50,$35.00,,"$1,047.50"',
    "CN-H2,-$40.00,-$5.00,,$3.00,-$42.00",
    ",,,,Total,\"$1,005.50\"",
  ].join("\n");

const headerTemplate = (formats: string[]) => ({
  name: `Header block ${formats.join(" ")}`,
  carrier_id: carrierId,
  parser: { formats, sheets: [] },
  transformations: [
    { type: "HeaderCells", options: { header_row: 5, cells: [{ name: "Invoice", label: "Invoice No" }, { name: "Date", label: "Invoice Date" }, { name: "Account", label: "Account" }] } },
    { type: "NameColumns", options: { action: "ROW_INDEX", row: 5 } },
    { type: "DeleteRows", options: { action: "COLUMN_MATCH", column: "Security", pattern: "^total$" } },
    {
      type: "MapFields",
      options: {
        mappings: [
          { field: "invoice_number", column: "Invoice" },
          { field: "invoice_date", column: "Date" },
          { field: "account_number", column: "Account" },
          { field: "consignment_number", column: "Con Note" },
          { field: "total_cost", column: "Total" },
        ],
        costs: [
          { category: "freight_charge", column: "Freight" },
          { category: "fuel_charge", column: "Fuel", when: { column: "Total", compare: "GE", value: 0 } },
          { category: "credit_adjustment", column: "Fuel", when: { column: "Total", compare: "LT", value: 0 } },
          { category: "tail_lift_surcharge", column: "Tail Lift" },
          { category: "security_surcharge", column: "Security" },
        ],
      },
    },
  ],
});

async function importOne(configId: number, name: string, body: string | Uint8Array) {
  const res = await postFiles(admin, "/api/invoices/import", { config_id: String(configId) }, [{ name, body }]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const job = await support.workJob(world, res.body.job_id, admin);
  expect(job.status, JSON.stringify(job)).toBe("complete");
}

async function linesOf(invoiceNumber: string) {
  const [inv] = await server.db.select().from(invoices).where(eq(invoices.invoiceNumber, invoiceNumber));
  expect(inv, invoiceNumber).toBeDefined();
  const details = await server.db.select().from(invoiceDetails).where(eq(invoiceDetails.invoiceId, inv!.id));
  const lines = [];
  for (const d of details.sort((a, b) => a.id - b.id)) {
    const costs = await server.db.select().from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, d.id));
    lines.push({ con: d.consignmentNumber, account: d.accountNumber, costs: costs.map((c) => [c.category, c.amount]).sort() });
  }
  return { invoice: inv!, lines };
}

describe("a layout with a header block and a credit line", () => {
  it("imports the header's invoice number, date and account on every line, the credit's fuel part as credit_adjustment, tail lift and security as their own", async () => {
    const made = await make(headerTemplate(["CSV"]));
    await importOne(made.id, "header.csv", HEADER_CSV("NL-H-1"));
    const { invoice, lines } = await linesOf("NL-H-1");
    expect([invoice.invoiceDate, invoice.total, invoice.originalFileType]).toEqual(["2026-11-05", "1005.50", "CSV"]);
    expect(lines).toEqual([
      { con: "CN-H1", account: "ACC-9", costs: [["freight_charge", "1000.00"], ["fuel_charge", "12.50"], ["tail_lift_surcharge", "35.00"]] },
      { con: "CN-H2", account: "ACC-9", costs: [["credit_adjustment", "-5.00"], ["freight_charge", "-40.00"], ["security_surcharge", "3.00"]] },
    ]);
  });

  it("one template reads the layout as CSV and as XLSX, and refuses a format it does not name", async () => {
    const made = await make(headerTemplate(["XLSX", "CSV"]));
    const rows = HEADER_CSV("NL-H-3")
      .split("\n")
      .map((l) => l.match(/("[^"]*"|[^,]*)(,|$)/g)!.slice(0, 6).map((c) => c.replace(/,$/, "").replace(/^"|"$/g, "")));
    await importOne(made.id, "twin.xlsx", await xlsxOf(rows));
    await importOne(made.id, "twin.csv", HEADER_CSV("NL-H-2"));
    const xlsx = await linesOf("NL-H-3");
    const csv = await linesOf("NL-H-2");
    expect(xlsx.invoice.originalFileType).toBe("XLSX");
    expect(csv.invoice.originalFileType).toBe("CSV");
    expect(xlsx.lines).toEqual(csv.lines);
    const run = await postFiles(admin, "/api/carrier_invoice_configs/test_run", { id: String(made.id) }, [{ field: "file", name: "t.xlsx", body: await xlsxOf(rows) }]);
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    // the test run shows what the header step added to each line
    const afterHeader = run.body.steps.find((st: Json) => st.name === "HeaderCells");
    expect(afterHeader.rows.find((r: Json) => r.values.A === "CN-H2").values).toMatchObject({ Invoice: "NL-H-3", Date: "05/11/2026", Account: "ACC-9" });
    expect(run.body.lines[1].costs).toContainEqual({ category: "credit_adjustment", description: "Credit adjustment", amount: -5 });
    // the list's format filter finds a template reading the format among others
    const listed = async (format: string) => ((await admin.json<Json>(`/api/carrier_invoice_configs?format=${format}`)).body.carrier_invoice_configs as Json[]).map((c) => c.name);
    expect(await listed("XLSX")).toContain(made.name);
    expect(await listed("XLSX")).not.toContain("Header block CSV");
    expect(await listed("CSV")).toEqual(expect.arrayContaining([made.name, "Header block CSV"]));
    const xls = await postFiles(admin, "/api/invoices/import", { config_id: String(made.id) }, [{ name: "t.xls", body: "x" }]);
    expect(xls.status).toBe(422);
    expect(xls.body.errors.files).toEqual(["Invalid file format"]);
  });
});
