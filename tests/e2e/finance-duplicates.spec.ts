import { expect, test, type Page } from "./support/test";
import { tabTo, signIn } from "./helpers";

/**
 * Issue 29 finding 1 (decision 021), keyboard only where a person acts: import a carrier invoice
 * and its twin (another number, the same consignments and amounts) through the Import dialog; the
 * payable list flags the twin; once the first invoice's lines are billed to the customer, Send
 * invoice shows the twin's lines as possible duplicates of their carrier invoice and refuses them by
 * name. What it makes is deleted at the end, so the demo's lines are left to the other specs.
 */
const json = { headers: { Accept: "application/json" } };
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- API answers read loosely

async function done(page: Page, jobId: string) {
  await expect.poll(async () => ((await (await page.request.get(`/api/job_status/${jobId}`, json)).json()) as Json).status, { timeout: 30_000 }).toBe("complete");
}

async function importByKeyboard(page: Page, configId: number, name: string, text: string) {
  await page.goto("/invoices_payable");
  await page.getByRole("link", { name: "Import", exact: true }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Import invoices" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Carrier invoice format").focus();
  await dialog.getByLabel("Carrier invoice format").selectOption(String(configId));
  await dialog.getByLabel("Invoice files").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(text) });
  await dialog.getByRole("button", { name: "Import" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/import_job=/);
}

test("a carrier's twin invoice is flagged at import and its lines refused by Send invoice", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@example.com");
  const stamp = Date.now().toString(36).toUpperCase();
  const carriers = ((await (await page.request.get("/api/carriers", json)).json()) as Json).carriers as Json[];
  const carrier = carriers.find((c) => c.code === "SIMEX") ?? carriers[0]!;
  const made = await page.request.post("/api/carrier_invoice_configs", {
    ...json,
    data: {
      name: `E2E duplicates ${stamp}`,
      carrier_id: carrier.id,
      parser: { format: "CSV", sheets: [] },
      transformations: [
        { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
        { type: "MapFields", options: { mappings: [{ field: "invoice_number", column: "Inv" }, { field: "invoice_date", column: "Date" }, { field: "consignment_number", column: "Con" }], costs: [{ category: "freight_charge", column: "Freight" }] } },
      ],
    },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
  const config = (await made.json()) as { id: number };
  const d = new Date(Date.now() - 2 * 86_400_000);
  const date = `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
  const first = `DUPA-${stamp}`;
  const twin = `DUPB-${stamp}`;
  const con = `CN-${stamp}`;
  const csv = (number: string) => `Inv,Date,Con,Freight\n${number},${date},${con}-1,12.50\n${number},${date},${con}-2,7.25\n`;
  const ids: Record<string, number> = {};
  try {
    await importByKeyboard(page, config.id, "first.csv", csv(first));
    await expect(page.getByTestId("invoice-groups")).toContainText(first, { timeout: 30_000 });
    await importByKeyboard(page, config.id, "twin.csv", csv(twin));
    await expect(page.getByTestId("invoice-groups")).toContainText(twin, { timeout: 30_000 });
    const row = page.getByTestId("invoice-row").filter({ hasText: twin });
    await expect(row.getByTestId("possible-duplicate")).toHaveText(`Possible duplicate of invoice ${first}`);

    // allocation, reconciliation and billing the first invoice: set up through /api
    const list = ((await (await page.request.get("/api/invoices?state=all", json)).json()) as Json).invoices as Json[];
    for (const n of [first, twin]) ids[n] = list.find((i) => i.invoice_number === n)!.id;
    const customer = (((await (await page.request.get("/api/customers", json)).json()) as Json).customers as Json[])[0]!;
    const site = (((await (await page.request.get(`/api/customers/${customer.id}`, json)).json()) as Json).sites as Json[])[0]!;
    const lines: Record<string, number[]> = {};
    for (const n of [first, twin]) {
      const got = ((await (await page.request.get(`/api/invoice_details?invoice_id=${ids[n]}&accounting_type=payable`, json)).json()) as Json).invoice_details as Json[];
      lines[n] = got.map((l) => l.id);
      for (const id of lines[n]) {
        const put = await page.request.put(`/api/invoices/${ids[n]}/invoice_details/${id}`, { ...json, data: { customer_id: customer.id, site_id: site.id, service_id: "unquoted" } });
        expect(put.status(), await put.text()).toBe(200);
      }
    }
    const reconcile = await page.request.put("/api/invoices/reconcile", { ...json, data: { invoice_ids: [ids[first], ids[twin]] } });
    await done(page, ((await reconcile.json()) as Json).job_id);
    const recs = ((await (await page.request.get(`/api/reconciliations?consignment_number=${con}&per_page=100`, json)).json()) as Json).reconciliations as Json[];
    expect(recs.length).toBe(4);
    const accept = await page.request.put("/api/reconciliations/accept", { ...json, data: { ids: recs.map((r) => r.id), note: "Checked" } });
    expect(accept.status(), await accept.text()).toBe(200);
    const billed = await page.request.post("/api/invoices", { ...json, data: { invoice_detail_ids: lines[first] } });
    expect(billed.status(), await billed.text()).toBe(200);
    await done(page, ((await billed.json()) as Json).job_id);

    // Send invoice: the twin's lines, told apart by their carrier invoice, refused by name
    await page.goto(`/invoices_receivable?modal=invoice&l_consignment_number=${con}`);
    const dialog = page.getByTestId("send-invoice");
    await expect(dialog.getByTestId("invoiceable-row")).toHaveCount(2);
    for (const cell of await dialog.getByTestId("carrier-invoice").all()) await expect(cell).toContainText(twin);
    await expect(dialog.getByTestId("carrier-invoice").first()).toContainText("Possible duplicate");
    await tabTo(page, dialog.getByRole("checkbox", { name: "Select all" }), 40);
    await page.keyboard.press("Space");
    await tabTo(page, dialog.getByRole("button", { name: "Invoice selected" }), 60);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("send-invoice")).toContainText(new RegExp(`Consignment ${con}-1: Freight charge is already billed on customer invoice INV-\\d{6}\\.`));
  } finally {
    for (const id of Object.values(ids)) await page.request.delete(`/api/invoices/${id}`, json);
    await page.request.delete(`/api/carrier_invoice_configs/${config.id}`, json);
  }
});
