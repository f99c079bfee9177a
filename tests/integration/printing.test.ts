import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { prepareZXingModule, readBarcodes } from "zxing-wasm/reader";
import type { AddressInfo } from "node:net";

import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, itemTypes, manifests } from "../../db/schema";
import { eq, inArray } from "drizzle-orm";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { isValidSscc } from "../../app/modules/numbers/format";
import { labelPage } from "../../print-templates/labels/Labels";
import { createRenderer } from "../../app/modules/printing/renderer.server";
import { chooseBrowser, launchTarget } from "../../app/modules/printing/browser-path.server";
import { chromium } from "playwright-core";
import { chromiumChildren } from "../support/chromium";
import { Client, serveApp, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let client: Client;
let carton: number;
let pallet: number;
// a server that counts every request a rendered page might make
let spy: Server;
let spyHits = 0;
let spyUrl = "";

const mm = (points: number) => Math.round((points / 72) * 25.4);

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  const types = await server.db.select().from(itemTypes);
  carton = types.find((t) => t.name === "Carton")!.id;
  pallet = types.find((t) => t.name === "Pallet")!.id; // 2 labels a pallet
  client = new Client(server.url);
  await client.signIn("despatcher@example.com");
  spy = createServer((_req, res) => {
    spyHits++;
    res.end("x");
  });
  spy.listen(0);
  await new Promise((r) => spy.once("listening", r));
  spyUrl = `http://127.0.0.1:${(spy.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  spy.close();
  await server.close();
});

const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
const consignment = (receiverName = "Brisbane Hardware", line1 = "5 Ipswich Road") => ({
  site_code: "MEL",
  reference: "PRINT-1",
  despatch_date: date,
  special_instructions: "Leave at dock 3",
  sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
  receiver_address: { name: receiverName, address_line_1: line1, locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
  items: [
    { quantity: 2, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 10 },
    { quantity: 1, item_type_id: pallet, length: 120, width: 120, height: 150, weight_in_uom: 300, dangerous_goods_items: [{ un_number: "1203", proper_shipping_name: "MOTOR SPIRIT", hazard_class: "3", packing_group: "II", weight_in_uom: 20 }] },
  ],
});

async function pdfOf(res: Response) {
  expect(res.headers.get("content-type")).toBe("application/pdf");
  return PDFDocument.load(new Uint8Array(await res.arrayBuffer()));
}

describe("item labels: /print/{id}/labels", () => {
  it("prints one page per label (quantity x labels of the type), 100 x 150 mm, allocating the number and SSCCs once", async () => {
    const c = (await client.json<{ id: number; state: string }>("/api/consignments", { json: consignment() })).body;
    expect(c.state).toBe("despatchable");
    const before = await client.request(`/print/${c.id}/labels`);
    expect(before.status).toBe(409);

    const printed = await client.request(`/print/${c.id}/labels`, { method: "POST" });
    expect(printed.status).toBe(200);
    const pdf = await pdfOf(printed);
    // 2 cartons x 1 label + 1 pallet x 2 labels
    expect(pdf.getPageCount()).toBe(4);
    const { width, height } = pdf.getPage(0).getSize();
    expect([mm(width), mm(height)]).toEqual([100, 150]);

    const after = (await client.json<{ consignment_number: string; number_of_labels: number; items: Array<{ ssccs: string[] }> }>(`/api/consignments/${c.id}`)).body;
    expect(after.consignment_number).toMatch(/^[A-Z]+\d+$/);
    expect(after.number_of_labels).toBe(4);
    expect(after.items.map((i) => i.ssccs.length)).toEqual([2, 2]);
    const ssccs = after.items.flatMap((i) => i.ssccs);
    expect(ssccs.every(isValidSscc)).toBe(true);
    expect(new Set(ssccs).size).toBe(4);

    // printing again allocates nothing new; a GET reprints what was allocated
    await client.request(`/print/${c.id}/labels`, { method: "POST" });
    const again = (await client.json<{ consignment_number: string; items: Array<{ ssccs: string[] }> }>(`/api/consignments/${c.id}`)).body;
    expect(again.consignment_number).toBe(after.consignment_number);
    expect(again.items.flatMap((i) => i.ssccs)).toEqual(ssccs);
    expect((await pdfOf(await client.request(`/print/${c.id}/labels`))).getPageCount()).toBe(4);

    const html = await (await client.request(`/print/${c.id}/labels?format=html`)).text();
    expect(html).toContain(after.consignment_number);
    for (const s of ssccs) expect(html).toContain(`(00) ${s}`);
    expect(html).toContain("Item 4 of 4");
    expect(html).toContain("DANGEROUS GOODS UN1203 class 3");
    expect(html).toContain("Leave at dock 3");
    expect(html).toContain("5 kg"); // 10 kg over 2 cartons

    const zpl = await (await client.request(`/print/${c.id}/labels?format=zpl`)).text();
    expect(zpl.match(/\^XA/g)).toHaveLength(4);
    for (const s of ssccs) expect(zpl).toContain(`>;>800${s}`);
  });

  it("refuses incomplete consignments, quotes, and other customers", async () => {
    const open = (await client.json<{ id: number }>("/api/consignments", { json: { ...consignment(), receiver_address: null } })).body;
    const res = await client.json<{ errors: { base: string[] } }>(`/print/${open.id}/labels`, { method: "POST" });
    expect(res.status).toBe(409);
    expect(res.body.errors.base).toEqual(["Only a complete consignment with a rate can print labels"]);
    const ok = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.request(`/print/${ok.id}/labels`, { method: "POST" })).status).toBe(404);
    expect((await new Client(server.url).request(`/print/${ok.id}/labels`)).status).toBe(401);
  });

  it("fetches nothing a label's text names: an image tag and a file:// link print as text", async () => {
    const c = (await client.json<{ id: number }>("/api/consignments", { json: consignment(`<img src="${spyUrl}/leak.png">`, "file:///etc/passwd") })).body;
    const printed = await client.request(`/print/${c.id}/labels`, { method: "POST" });
    expect(printed.status).toBe(200);
    const html = await (await client.request(`/print/${c.id}/labels?format=html`)).text();
    expect(html).toContain(`&lt;img src=&quot;${spyUrl}/leak.png&quot;&gt;`);
    expect(html).toContain("file:///etc/passwd");
    expect(spyHits).toBe(0);
  });

  it("a page that does ask for something is refused by the renderer", async () => {
    const before = server.renderer.blockedRequests();
    const pdf = await server.renderer.renderPdf(`<html><body><img src="${spyUrl}/direct.png"><link rel="stylesheet" href="${spyUrl}/x.css"><iframe src="file:///etc/passwd"></iframe>text</body></html>`, { width: "100mm", height: "150mm" });
    expect(pdf.subarray(0, 4).toString()).toBe("%PDF");
    expect(server.renderer.blockedRequests()).toBeGreaterThan(before);
    expect(spyHits).toBe(0);
  });
});

/** This process's Chromium processes (the renderer's browser is a child of the test server's process). */
describe("prints asked for at once", () => {
  it("all answer their own PDF", async () => {
    const ids = await Promise.all([1, 2, 3].map(async () => (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body.id));
    for (const id of ids) expect((await client.request(`/print/${id}/labels`, { method: "POST" })).status).toBe(200);
    const answers = await Promise.all([...ids, ...ids].map((id, i) => client.request(i % 2 ? `/print/consignment_notes?ids=${id}` : `/print/${id}/labels`)));
    const pages = await Promise.all(answers.map(async (res) => (await pdfOf(res)).getPageCount()));
    expect(pages).toEqual([4, 1, 4, 1, 4, 1]);
  });
});

describe("a browser that dies", () => {
  it("is started again: the next print works", async () => {
    const c = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    expect((await client.request(`/print/${c.id}/labels`, { method: "POST" })).status).toBe(200);
    const pids = await chromiumChildren();
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, "SIGKILL");
    const again = await client.request(`/print/${c.id}/labels`);
    expect(again.status).toBe(200);
    expect((await pdfOf(again)).getPageCount()).toBe(4);
    const now = await chromiumChildren();
    expect(now.length).toBeGreaterThan(0);
    expect(now.some((pid) => pids.includes(pid))).toBe(false);
  });
});

describe("without Chromium", () => {
  it("print routes answer a clear 503 while the HTML preview and ZPL still work", async () => {
    const c = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    expect((await client.request(`/print/${c.id}/labels`, { method: "POST" })).status).toBe(200);
    // the same database and services, but a renderer whose browser cannot start
    const renderer = createRenderer({ executablePath: "/nonexistent/chromium" });
    const app = await serveApp({ ...server.services, renderer });
    try {
      const other = new Client(app.url);
      await other.signIn("despatcher@example.com");
      const message = "Printing is unavailable: the PDF renderer (Chromium) could not be started. The HTML preview (?format=html) still works.";
      for (const url of [`/print/${c.id}/labels`, `/print/consignment_notes?ids=${c.id}`]) {
        const res = await other.json<{ errors: { base: string[] } }>(url);
        expect(res.status, url).toBe(503);
        expect(res.body.errors.base).toEqual([message]);
      }
      const html = await other.request(`/print/${c.id}/labels?format=html`);
      expect(html.status).toBe(200);
      expect(await html.text()).toContain("Item 4 of 4");
      expect((await other.request(`/print/${c.id}/labels?format=zpl`)).status).toBe(200);
    } finally {
      await app.close();
      await renderer.close();
    }
  });
});

describe("a batch of labels: /print/labels?ids=", () => {
  it("prints each consignment's labels on its own paper: portrait and landscape mix in one PDF", async () => {
    const portrait = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    const landscape = (await client.json<{ id: number; options: Record<string, unknown> }>("/api/consignments", { json: { ...consignment(), options: { is_label_portrait: false } } })).body;
    expect(landscape.options.is_label_portrait).toBe(false);
    const printed = await client.request(`/print/labels?ids=${portrait.id},${landscape.id}`, { method: "POST" });
    expect(printed.status).toBe(200);
    const pdf = await pdfOf(printed);
    const sizes = pdf.getPages().map((p) => {
      const { width, height } = p.getSize();
      return `${mm(width)}x${mm(height)}`;
    });
    expect(sizes).toEqual([...Array(4).fill("100x150"), ...Array(4).fill("150x100")]);
  });
});

describe("label page sizes", () => {
  it("100 x 150 mm, 4 x 6 in for US senders; landscape swaps", () => {
    expect(labelPage(false, true)).toEqual({ width: "100mm", height: "150mm" });
    expect(labelPage(true, true)).toEqual({ width: "4in", height: "6in" });
    expect(labelPage(false, false)).toEqual({ width: "150mm", height: "100mm" });
  });
});


describe("barcode round trip", () => {
  it("a printed label, rasterised at 300 dpi, reads back the consignment number (Code 128) and the SSCC (GS1-128) exactly", async () => {
    const c = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    const printed = await client.request(`/print/${c.id}/labels`, { method: "POST" });
    expect(Buffer.from(await printed.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");
    const numbers = (await client.json<{ consignment_number: string; items: Array<{ ssccs: string[] }> }>(`/api/consignments/${c.id}`)).body;
    // the document the PDF was printed from, laid out for print and rasterised by Chromium itself
    // (no poppler needed): the third label, the pallet's first (a different line from the first page)
    const html = await (await client.request(`/print/${c.id}/labels?format=html`)).text();
    const png = await rasteriseLabel(html, 2, 300);
    const wasm = await readFile(path.resolve("node_modules/zxing-wasm/dist/reader/zxing_reader.wasm"));
    await prepareZXingModule({ overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) }, fireImmediately: true });
    const found = await readBarcodes(new Uint8Array(png), { formats: ["Code128"], maxNumberOfSymbols: 4, tryHarder: true });
    const texts = found.map((r) => ({ text: r.text, gs1: r.symbologyIdentifier === "]C1" }));
    expect(texts).toContainEqual({ text: numbers.consignment_number, gs1: false });
    expect(texts).toContainEqual({ text: `(00)${numbers.items[1]!.ssccs[0]}`, gs1: true });
  });
});

/** One label (0-based) of a labels document as a PNG at `dpi`, in print layout, by the browser the renderer uses. */
async function rasteriseLabel(html: string, index: number, dpi: number): Promise<Buffer> {
  const browser = await chromium.launch({ ...(await launchTarget(chooseBrowser())), args: ["--no-sandbox", "--disable-gpu"] });
  try {
    const page = await browser.newPage({ deviceScaleFactor: dpi / 96, javaScriptEnabled: false });
    await page.emulateMedia({ media: "print" });
    await page.setContent(html);
    return await page.locator("section.label").nth(index).screenshot();
  } finally {
    await browser.close();
  }
}

describe("with the headless Chromium of @sparticuz/chromium (nothing installed on the machine)", () => {
  it("prints labels: a PDF that parses, a page a label, in its own fonts", async () => {
    const c = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    const renderer = createRenderer({ browser: { source: "bundled", executablePath: null } });
    const app = await serveApp({ ...server.services, renderer });
    try {
      const other = new Client(app.url);
      await other.signIn("despatcher@example.com");
      const res = await other.request(`/print/${c.id}/labels`, { method: "POST" });
      expect(res.status).toBe(200);
      const bytes = new Uint8Array(await res.arrayBuffer());
      expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe("%PDF-");
      const pdf = await PDFDocument.load(bytes);
      expect(pdf.getPageCount()).toBe(4);
      const { width, height } = pdf.getPage(0).getSize();
      expect([mm(width), mm(height)]).toEqual([100, 150]);
      // it was the bundled browser that printed, unpacked under node_modules/.cache
      const commands = await Promise.all((await chromiumChildren()).map((pid) => readFile(`/proc/${pid}/cmdline`, "utf8").catch(() => "")));
      expect(commands.some((cmd) => cmd.includes("/.cache/freightdesk-chromium/"))).toBe(true);
      // a machine without fonts still prints text: the package's Open Sans is configured
      const text = await renderer.renderPdf(`<p style="font-family: 'Open Sans'">Brisbane Hardware</p>`, { width: "100mm", height: "150mm" });
      expect(text.toString("latin1")).toMatch(/OpenSans/);
    } finally {
      await app.close();
      await renderer.close();
    }
  }, 120_000);
});

describe("consignment notes and dangerous goods documents", () => {
  it("print a batch as one A4 PDF, a page each; the dangerous goods document only for those that carry them", async () => {
    const withDg = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    const plain = (await client.json<{ id: number }>("/api/consignments", { json: { ...consignment(), items: [consignment().items[0]] } })).body;
    const unnumbered = await client.json<{ errors: { base: string[] } }>(`/print/consignment_notes?ids=${withDg.id},${plain.id}`);
    expect(unnumbered.status).toBe(409);
    expect(unnumbered.body.errors.base[0]).toMatch(/^Print the labels first/);
    for (const id of [withDg.id, plain.id]) await client.request(`/print/${id}/labels`, { method: "POST" });

    const notes = await pdfOf(await client.request(`/print/consignment_notes?ids=${withDg.id},${plain.id}`));
    expect(notes.getPageCount()).toBe(2);
    const { width, height } = notes.getPage(0).getSize();
    expect([mm(width), mm(height)]).toEqual([210, 297]);
    const noteHtml = await (await client.request(`/print/consignment_notes?ids=${withDg.id}&format=html`)).text();
    expect(noteHtml).toContain("Con Note");
    expect(noteHtml).toContain("Brisbane Hardware");
    expect(noteHtml).toContain("Leave at dock 3");

    const dg = await pdfOf(await client.request(`/print/dangerous_goods_documents?ids=${withDg.id},${plain.id}`));
    expect(dg.getPageCount()).toBe(1);
    const dgHtml = await (await client.request(`/print/dangerous_goods_documents?ids=${withDg.id}&format=html`)).text();
    expect(dgHtml).toContain("UN1203");
    expect(dgHtml).toContain("MOTOR SPIRIT");
    // blank sub risk prints NIL; the emergency contact is the sending site's
    expect(dgHtml).toMatch(/<td>3<\/td><td>NIL<\/td><td>II<\/td>/);
    expect(dgHtml).toContain("Duty Manager · 03 9000 0000");
    const none = await client.json<{ errors: { base: string[] } }>(`/print/dangerous_goods_documents?ids=${plain.id}`);
    expect(none.body.errors.base).toEqual(["None of these consignments carries dangerous goods"]);

    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.request(`/print/consignment_notes?ids=${withDg.id}`)).status).toBe(404);
    expect((await client.json(`/print/consignment_notes`)).status).toBe(422);
  });

  it("is a BOL for US senders", async () => {
    const { documentTerm, nil } = await import("../../print-templates/documents/Documents");
    expect(documentTerm({ sender_address: { country: "UNITED STATES OF AMERICA" } } as never)).toBe("BOL");
    expect(documentTerm({ sender_address: { country: "AUSTRALIA" } } as never)).toBe("Con Note");
    expect(nil("")).toBe("NIL");
    expect(nil(" ")).toBe("NIL");
    expect(nil("8")).toBe("8");
  });
});

describe("despatch manifest report", () => {
  it("prints a manifest's consignments and totals on A4; other customers cannot", async () => {
    const a = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    const b = (await client.json<{ id: number }>("/api/consignments", { json: { ...consignment(), items: [consignment().items[0]] } })).body;
    for (const id of [a.id, b.id]) await client.request(`/print/${id}/labels`, { method: "POST" });
    const [row] = await server.db.select().from(consignments).where(eq(consignments.id, a.id));
    // despatch (issue 6) makes manifests; here one is written as it will
    const [manifest] = await server.db
      .insert(manifests)
      .values({ customerId: row!.customerId, siteId: row!.siteId, carrierAccountId: row!.carrierAccountId!, number: "M000123", despatchTime: new Date("2026-11-24T06:30:00Z"), status: "ready" })
      .returning();
    await server.db.update(consignments).set({ manifestId: manifest!.id, state: "despatched" }).where(inArray(consignments.id, [a.id, b.id]));

    const pdf = await pdfOf(await client.request(`/print/despatch_manifest_report?ids=${manifest!.id}`));
    expect(pdf.getPageCount()).toBe(1);
    const { width, height } = pdf.getPage(0).getSize();
    expect([mm(width), mm(height)]).toEqual([210, 297]);
    const html = await (await client.request(`/print/despatch_manifest_report?ids=${manifest!.id}&format=html`)).text();
    expect(html).toContain("M000123");
    expect(html).toContain("Totals: 2 consignments");
    // in the site's time: Melbourne is UTC+11 in November
    expect(html).toContain("Despatched 24/11/2026 17:30");
    // items 2 + 1 + 2; weight 10 + 300 + 10 kg; one hazardous package (the pallet)
    expect(html).toMatch(/<th>5<\/th><th>320 kg<\/th>/);
    expect(html).toMatch(/<th>1<\/th><\/tr><\/tfoot>/);

    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.request(`/print/despatch_manifest_report?ids=${manifest!.id}`)).status).toBe(404);
  });
});

describe("labels after an edit", () => {
  it("keep their SSCCs while a line keeps its place, quantity and type; a changed line of a printed consignment gets new ones as it is saved", async () => {
    const c = (await client.json<{ id: number }>("/api/consignments", { json: consignment() })).body;
    await client.request(`/print/${c.id}/labels`, { method: "POST" });
    type Printed = { version: number; consignment_number: string; items: Array<{ ssccs: string[] }> };
    const printed = (await client.json<Printed>(`/api/consignments/${c.id}`)).body;

    // a new reference: same lines, same labels; a reprint still works
    const edited = await client.json<Printed>(`/api/consignments/${c.id}`, { method: "PUT", json: { ...consignment(), reference: "EDITED", version: printed.version } });
    expect(edited.status).toBe(200);
    expect(edited.body.items.map((i) => i.ssccs)).toEqual(printed.items.map((i) => i.ssccs));
    expect((await client.request(`/print/${c.id}/labels`)).status).toBe(200);

    // three cartons instead of two: that line's labels are made again at once (a printed
    // consignment's labels stay whole, so a reprint never misses one), the pallet's stay
    const more = consignment();
    more.items[0] = { ...more.items[0]!, quantity: 3 };
    const changed = (await client.json<Printed & { number_of_labels: number }>(`/api/consignments/${c.id}`, { method: "PUT", json: { ...more, version: edited.body.version } })).body;
    expect(changed.items[0]!.ssccs).toHaveLength(3);
    expect(changed.items[0]!.ssccs.some((s) => printed.items[0]!.ssccs.includes(s))).toBe(false);
    expect(changed.items[1]!.ssccs).toEqual(printed.items[1]!.ssccs);
    expect(changed.number_of_labels).toBe(5);
    // printing again allocates nothing new
    await client.request(`/print/${c.id}/labels`, { method: "POST" });
    const reprinted = (await client.json<Printed>(`/api/consignments/${c.id}`)).body;
    expect(reprinted.consignment_number).toBe(printed.consignment_number);
    expect(reprinted.items.map((i) => i.ssccs)).toEqual(changed.items.map((i) => i.ssccs));
  });
});
