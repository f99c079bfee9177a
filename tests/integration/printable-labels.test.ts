/**
 * A despatched consignment always has printable labels (issue 13 part 4 item 2): whether its
 * labels were never printed (saved, then despatched from the list), or printed and then changed
 * by a merge or a consolidation, Reprint prints one label per package. And a print address a
 * person opens in the browser answers a page they can read, with a way back, never raw JSON.
 */
import { eq, sql } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccounts, itemTypes } from "../../db/schema";
import { isValidSscc } from "../../app/modules/numbers/format";
import { NOT_PRINTED } from "../../app/modules/printing/labels.server";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import { futureDate, receiver, type DespatchWorld, type Json } from "../support/despatch";

let world: DespatchWorld;
let server: TestServer;
let despatcher: Client;
let carton: number;
let pallet: number; // 2 labels a pallet

beforeAll(async () => {
  world = await support.startDespatchWorld();
  ({ server, cartonTypeId: carton } = world);
  ({ despatcher } = world.clients);
  const [p] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Pallet"));
  pallet = p!.id;
}, 120_000);
afterAll(() => server.close());

const cartons = (quantity = 2) => ({ quantity, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: "10" });
const pallets = (quantity = 1) => ({ quantity, item_type_id: pallet, length: 120, width: 120, height: 150, weight_in_uom: "300" });

/** A despatchable Northline consignment from Melbourne; merge partners share receiver and date. */
const create = (reference: string, items: unknown[], over: Record<string, unknown> = {}) =>
  support.createDespatchable(world, despatcher, "MEL", "NORTHLINE", "GEN", { reference, items, despatch_date: futureDate(9), receiver_address: { ...receiver, name: `Labels ${reference}` }, ...over });

const rowsOf = (ids: number[]) => support.rowsOf(world, ids);
const read = async (id: number) => (await despatcher.json<Json>(`/api/consignments/${id}`)).body;
const ssccsOf = (c: Json) => (c.items as Array<{ ssccs: string[] }>).map((i) => i.ssccs);

async function print(id: number) {
  const res = await despatcher.request(`/print/${id}/labels`, { method: "POST" });
  expect(res.status).toBe(200);
  return read(id);
}

/** Reprint (GET /print/{id}/labels): a PDF, answering its number of pages (one per label). */
async function reprintedPages(id: number): Promise<number> {
  const res = await despatcher.request(`/print/${id}/labels`);
  expect(res.status, await res.clone().text()).toBe(200);
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return (await PDFDocument.load(new Uint8Array(await res.arrayBuffer()))).getPageCount();
}

/** Despatches through the list's Despatch button (no script), as a person does; answers the job. */
async function despatchFromList(ids: number[]): Promise<Json> {
  const res = await despatcher.request("/consignments/complete/next_7_days?site=all", { form: { intent: "despatch", ids: ids.join(",") } });
  expect(res.status).toBe(302);
  const job = new URL(res.headers.get("location")!, server.url).searchParams.get("job");
  expect(job).toBeTruthy();
  return support.workJob(world, job!);
}

async function expectDespatched(ids: number[]) {
  const job = await despatchFromList(ids);
  expect(job.status, JSON.stringify(job)).toBe("complete");
  for (const id of ids) expect((await read(id)).state).toBe("despatched");
}

/** Every line carries one valid SSCC per label, none shared. */
function expectLabelRecords(c: Json, perLine: number[]) {
  const ssccs = ssccsOf(c);
  expect(ssccs.map((s) => s.length)).toEqual(perLine);
  expect(ssccs.flat().every(isValidSscc)).toBe(true);
  expect(new Set(ssccs.flat()).size).toBe(ssccs.flat().length);
  expect(c.number_of_labels).toBe(perLine.reduce((a, b) => a + b, 0));
}

describe("a despatched consignment always has printable labels", () => {
  it("saved without printing (or numbered without printing), then despatched from the list: Reprint prints every label", async () => {
    const saved = await create("SAVED", [cartons(2), pallets(1)]);
    const numbered = await create("NUMBERED", [cartons(3)]);
    const allocated = await despatcher.json<Json>(`/api/consignments/${numbered.id}/allocate_without_printing`, { method: "PUT" });
    expect(allocated.status).toBe(200);
    expect(ssccsOf(allocated.body)).toEqual([[]]);

    await expectDespatched([saved.id, numbered.id]);

    // 2 cartons x 1 label + 1 pallet x 2 labels; 3 cartons
    expectLabelRecords(await read(saved.id), [2, 2]);
    expectLabelRecords(await read(numbered.id), [3]);
    expect((await read(numbered.id)).consignment_number).toBe(allocated.body.consignment_number);
    expect(await reprintedPages(saved.id)).toBe(4);
    expect(await reprintedPages(numbered.id)).toBe(3);
  });

  it("printed, then merged, then despatched: the survivor's labels cover both, its own printed SSCCs kept", async () => {
    const target = await print((await create("MERGE-A", [cartons(2)], { receiver_address: { ...receiver, name: "Merge Labels" } })).id);
    const source = await print((await create("MERGE-B", [pallets(1)], { receiver_address: { ...receiver, name: "Merge Labels" } })).id);
    expectLabelRecords(target, [2]);

    const merged = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: source.id } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    // the label records of the survivor are made again at once: its printed ones kept, the new line's added
    const after = await read(target.id);
    expectLabelRecords(after, [2, 2]);
    expect(ssccsOf(after)[0]).toEqual(ssccsOf(target)[0]);

    await expectDespatched([target.id]);
    expectLabelRecords(await read(target.id), [2, 2]);
    expect(await reprintedPages(target.id)).toBe(4);
  });

  it("a printed consignment merged into one never printed: the survivor still has labels to print, and has them once despatched", async () => {
    const target = await create("MERGE-C", [cartons(1)], { receiver_address: { ...receiver, name: "Merge Unprinted" } });
    const source = await print((await create("MERGE-D", [cartons(2)], { receiver_address: { ...receiver, name: "Merge Unprinted" } })).id);
    const merged = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: source.id } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    // its labels, with its own number, were never printed: the list offers them to print
    expect((await despatcher.json<Json>(`/print/${target.id}/labels`)).body.errors.base).toEqual([NOT_PRINTED]);

    await expectDespatched([target.id]);
    expectLabelRecords(await read(target.id), [1, 2]);
    expect(await reprintedPages(target.id)).toBe(3);
  });

  it("with preserve_ssccs_during_merge the merged lines keep the SSCCs printed on them", async () => {
    await server.db.execute(sql`update customers set options = options || '{"preserve_ssccs_during_merge": true}'::jsonb where id = (select customer_id from users where email = 'despatcher@example.com')`);
    try {
      const target = await print((await create("MERGE-E", [cartons(1)], { receiver_address: { ...receiver, name: "Merge Preserve" } })).id);
      const source = await print((await create("MERGE-F", [pallets(1)], { receiver_address: { ...receiver, name: "Merge Preserve" } })).id);
      const merged = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: source.id } });
      expect(merged.status, JSON.stringify(merged.body)).toBe(200);
      const after = await read(target.id);
      expectLabelRecords(after, [1, 2]);
      expect(ssccsOf(after)).toEqual([...ssccsOf(target), ...ssccsOf(source)]);
      await expectDespatched([target.id]);
      expect(await reprintedPages(target.id)).toBe(3);
    } finally {
      await server.db.execute(sql`update customers set options = options - 'preserve_ssccs_during_merge'`);
    }
  });

  it("printed, then consolidated onto a pallet, then despatched: Reprint prints the pallet's labels", async () => {
    const printed = await print((await create("CONSOLIDATE", [cartons(2), cartons(3)])).id);
    expectLabelRecords(printed, [2, 3]);
    // the Consolidate dialog turns the checked lines into one line of the chosen type, then Save
    const consolidated = { ...pallets(1), weight_in_uom: "20", consolidated: true };
    const saved = await despatcher.json<Json>(`/api/consignments/${printed.id}`, {
      method: "PUT",
      json: { ...printed, version: printed.version, items: [consolidated], carrier_code: "NORTHLINE", service_code: "GEN" },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.state).toBe("despatchable");
    expectLabelRecords(await read(printed.id), [2]);

    await expectDespatched([printed.id]);
    expectLabelRecords(await read(printed.id), [2]);
    expect(await reprintedPages(printed.id)).toBe(2);
  });

  it("an account without an SSCC range cannot despatch what it cannot label: the consignment is ready to despatch again", async () => {
    const c = await create("NO-SSCC", [cartons(1)]);
    const [account] = await server.db.select().from(carrierAccounts).where(eq(carrierAccounts.id, (await rowsOf([c.id]))[0]!.carrierAccountId!));
    await server.db.update(carrierAccounts).set({ ssccPrefix: null }).where(eq(carrierAccounts.id, account!.id));
    try {
      const job = await despatchFromList([c.id]);
      expect(job.status).toBe("failed");
      expect(job.errors.join(" ")).toContain(`Carrier account ${account!.accountNumber} has no SSCC range. Please contact customer services.`);
      const [row] = await rowsOf([c.id]);
      expect(row).toMatchObject({ state: "despatchable", manifestId: null });
    } finally {
      await server.db.update(carrierAccounts).set({ ssccPrefix: account!.ssccPrefix }).where(eq(carrierAccounts.id, account!.id));
    }
  });
});

/**
 * A person's browser opening an address: a document navigation with the session cookie, no script
 * headers (Node's fetch always sends sec-fetch-mode: cors, so the page is asked for as a browser does).
 */
function browse(path: string, init: { method?: string; form?: Record<string, string>; signedIn?: boolean } = {}) {
  const headers: Record<string, string> = {
    accept: "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
    "sec-fetch-dest": "document",
  };
  if (init.signedIn !== false) headers.cookie = despatcher.cookie;
  let body: string | undefined;
  if (init.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(init.form).toString();
  }
  return fetch(server.url + path, { method: init.method ?? "GET", headers, body, redirect: "manual" });
}

async function expectPage(res: Response, status: number, message: string, back: { href: string; text: RegExp }) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  const html = await res.text();
  expect(html.trimStart().startsWith("{")).toBe(false);
  expect(html).toContain(message.replaceAll("'", "&#39;"));
  const link = [...html.matchAll(/<a [^>]*href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => ({ href: m[1]!.replaceAll("&amp;", "&"), text: m[2]! }));
  expect(link.some((l) => l.href === back.href && back.text.test(l.text)), JSON.stringify(link)).toBe(true);
}

describe("a print address a person opens never shows raw JSON", () => {
  it("labels not printed yet: a page with the message and a way back to the consignment", async () => {
    const c = await create("NOT-PRINTED", [cartons(1)]);
    await expectPage(await browse(`/print/${c.id}/labels`), 409, NOT_PRINTED, { href: `/consignment/${c.id}`, text: /back/i });
    // scripts and /api callers still get the JSON error
    const scripted = await despatcher.json<Json>(`/print/${c.id}/labels`);
    expect(scripted.status).toBe(409);
    expect(scripted.body.errors.base).toEqual([NOT_PRINTED]);
  });

  it("consignment notes and dangerous goods documents of an unnumbered consignment, a batch that cannot print", async () => {
    const c = await create("NO-NUMBER", [cartons(1)]);
    const message = `Print the labels first: consignment ${c.id} has no number yet.`;
    await expectPage(await browse(`/print/consignment_notes?ids=${c.id}`), 409, message, { href: `/consignment/${c.id}`, text: /back/i });
    await expectPage(await browse(`/print/dangerous_goods_documents?ids=${c.id}`), 409, message, { href: `/consignment/${c.id}`, text: /back/i });
    // the list's Print Labels without a script posts its form to a new tab
    const open = (await despatcher.json<Json>("/api/consignments", { json: { site_code: "MEL", reference: "OPEN", despatch_date: futureDate(9), items: [cartons(1)] } })).body;
    await expectPage(await browse("/print/labels", { method: "POST", form: { ids: `${c.id},${open.id}` } }), 409, "Only a complete consignment with a rate can print labels", {
      href: "/consignments",
      text: /back/i,
    });
    expect((await despatcher.json<Json>(`/print/consignment_notes?ids=${c.id}`)).body.errors.base).toEqual([message]);
  });

  it("a manifest report that is not the user's, and bad input: a page with a way back to the manifests", async () => {
    await expectPage(await browse("/print/despatch_manifest_report?ids=999999"), 404, "Manifest not found", { href: "/manifests", text: /back/i });
    await expectPage(await browse("/print/despatch_manifest_report?ids=x"), 422, "ids must be consignment ids", { href: "/manifests", text: /back/i });
  });

  it("signed out: to the sign-in page, then back to the document", async () => {
    const res = await browse("/print/123/labels?format=html", { signedIn: false });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent("/print/123/labels?format=html")}`);
    // a script still gets 401 JSON
    const scripted = await fetch(`${server.url}/print/123/labels`, { headers: { "X-Requested-With": "XMLHttpRequest" } });
    expect(scripted.status).toBe(401);
    expect(scripted.headers.get("content-type")).toMatch(/json/);
  });
});
