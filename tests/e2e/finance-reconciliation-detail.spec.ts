import { expect, test, type APIRequestContext } from "./support/test";
import { audit } from "./axe";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Issue 19 item 3, keyboard only: open a reconciliation, add a cost in the Invoice Detail modal
 * with a cost note, Save with a note, Save + Accept; Re Run on another; axe on the screen, its
 * sell view and the modal. The reconciliations are the spec's own: an invoice billing two demo
 * consignments above their rates, imported, allocated and reconciled through /api, so other
 * specs' changes to the demo's reconciliations do not matter.
 */

const json = { headers: { Accept: "application/json" } };

async function pollJob(request: APIRequestContext, job: string) {
  await expect.poll(async () => ((await (await request.get(`/api/job_status/${job}`, json)).json()) as { status: string }).status, { timeout: 30_000 }).toMatch(/^complete/);
}

async function ownReconciliations(request: APIRequestContext, number: string): Promise<{ ids: number[]; remove: () => Promise<void> }> {
  // two demo consignments the demo's carrier invoices bill (allocated lines with a consignment)
  const demo = (await (await request.get("/api/invoice_details?state=allocated&accounting_type=payable&per_page=50", json)).json()) as { invoice_details: Array<{ consignment_id: number | null; consignment_number: string; carrier_code: string | null; carrier_id: number }> };
  const billed = demo.invoice_details.filter((d) => d.consignment_id != null);
  const carrierId = billed[0]!.carrier_id;
  const cons = [...new Set(billed.filter((d) => d.carrier_id === carrierId).map((d) => d.consignment_number))].slice(0, 2);
  expect(cons).toHaveLength(2);
  const made = await request.post("/api/carrier_invoice_configs", {
    ...json,
    data: {
      name: `E2E recon template ${number}`,
      carrier_id: carrierId,
      parser: { format: "CSV", sheets: [] },
      transformations: [
        { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
        {
          type: "MapFields",
          options: {
            mappings: [
              { field: "invoice_number", column: "Inv" },
              { field: "invoice_date", column: "Date" },
              { field: "consignment_number", column: "Con" },
            ],
            costs: [{ category: "freight_charge", column: "Freight", description: "Freight" }],
          },
        },
      ],
    },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
  const config = (await made.json()) as { id: number };
  const d = new Date(Date.now() - 2 * 86_400_000);
  const date = `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
  const csv = `Inv,Date,Con,Freight\n${cons.map((c) => `${number},${date},${c},999.00`).join("\n")}\n`;
  const started = await request.post("/api/invoices/import", { ...json, multipart: { config_id: String(config.id), files: { name: `${number}.csv`, mimeType: "text/csv", buffer: Buffer.from(csv) } } });
  expect(started.status(), await started.text()).toBeLessThan(300);
  await pollJob(request, ((await started.json()) as { job_id: string }).job_id);
  const list = (await (await request.get("/api/invoices?state=all", json)).json()) as { invoices: Array<{ id: number; invoice_number: string }> };
  const invoice = list.invoices.find((i) => i.invoice_number === number)!;
  for (const step of ["allocate", "reconcile"]) {
    const res = await request.put(`/api/invoices/${step}`, { ...json, data: { invoice_ids: [invoice.id] } });
    expect(res.status(), await res.text()).toBe(200);
    await pollJob(request, ((await res.json()) as { job_id: string }).job_id);
  }
  // their reconciliations: the newest ids, found from the top down
  const ids: number[] = [];
  let misses = 0;
  for (let id = 1; id < 5000 && ids.length < 2 && misses < 200; id++) {
    const res = await request.get(`/api/reconciliations/${id}`, json);
    if (res.status() !== 200) {
      misses += 1;
      continue;
    }
    misses = 0;
    const body = (await res.json()) as { invoice_detail: { invoice_id: number } };
    if (body.invoice_detail.invoice_id === invoice.id) ids.push(id);
  }
  expect(ids).toHaveLength(2);
  return {
    ids,
    async remove() {
      await request.delete(`/api/invoices/${invoice.id}`, json);
      await request.delete(`/api/carrier_invoice_configs/${config.id}`, json);
    },
  };
}

test("a finance admin adds a cost with a note, saves with a note, accepts, and re-runs another, by keyboard", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@example.com");
  const own = await ownReconciliations(page.request, `RCD-${Date.now()}`);
  try {
    const [first, second] = own.ids as [number, number];
    await page.goto(`/reconciliation/${first}`);
    const title = page.getByTestId("reconciliation-title");
    await expect(title).toContainText("Un-Reconciled reconciliation: consignment");
    await expect(title).toContainText("margin");
    await countMouse(page);

    // the Invoice Detail modal, reconciliation variant: a new cost with its cost note
    await tabTo(page, page.getByRole("link", { name: "Invoice Detail" }), 80);
    await page.keyboard.press("Enter");
    const dialog = page.getByTestId("line-dialog");
    await expect(dialog).toBeVisible();
    const costRows = dialog.getByTestId("cost-row");
    const before = await costRows.count();
    const category = dialog.getByLabel("Category of new cost 1");
    await tabTo(page, category, 80);
    await page.keyboard.type("Misc");
    await expect(category).toHaveValue("miscellaneous_fee");
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Description of new cost 1")).toBeFocused();
    await page.keyboard.type("Admin fee");
    await page.keyboard.press("Tab");
    await page.keyboard.type("2.50");
    // no note yet: the spec's message
    await tabTo(page, dialog.getByRole("button", { name: "Save" }), 20);
    await page.keyboard.press("Enter");
    await expect(dialog.locator("#cost_note-error")).toHaveText("Note required.");
    // what was typed is kept for the second try
    await expect(dialog.getByLabel("Description of new cost 1")).toHaveValue("Admin fee");
    await expect(dialog.getByLabel("Amount of new cost 1")).toHaveValue("2.50");
    await tabTo(page, dialog.getByLabel("Cost note"), 80);
    await page.keyboard.type("The carrier bills an admin fee");
    await tabTo(page, dialog.getByRole("button", { name: "Save" }), 20);
    await page.keyboard.press("Enter");
    await expect(dialog.getByTestId("costs-message")).toHaveText("Costs saved.");
    await expect(costRows).toHaveCount(before + 1);
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("link", { name: "Invoice Detail" })).toBeFocused();
    await expect(page.getByTestId("notes")).toContainText("The carrier bills an admin fee");

    // Save needs a note; with one it is listed with its author
    await tabTo(page, page.getByRole("button", { name: "Save", exact: true }), 40);
    await page.keyboard.press("Enter");
    await expect(page.locator("#note-error")).toHaveText("Note required.");
    await tabTo(page, page.getByLabel("Note", { exact: true }), 40);
    await page.keyboard.type("Asked the carrier why");
    await tabTo(page, page.getByRole("button", { name: "Save", exact: true }), 10);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("reconciliation-message")).toHaveText("Saved.");
    await expect(page.getByTestId("notes")).toContainText("Asked the carrier why");
    await expect(page.getByTestId("notes")).toContainText("Alex Admin");
    await expect(page.getByLabel("Note", { exact: true })).toHaveValue("");

    // someone else saves meanwhile: this page's version is stale
    const current = (await (await page.request.get(`/api/reconciliations/${first}`, json)).json()) as { version: number };
    const other = await page.request.put(`/api/reconciliations/${first}`, { ...json, data: { version: current.version, note: "Saved elsewhere" } });
    expect(other.status()).toBe(200);
    await tabTo(page, page.getByLabel("Note", { exact: true }), 40);
    await page.keyboard.type("Too late");
    await tabTo(page, page.getByRole("button", { name: "Save", exact: true }), 10);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("reconciliation-message")).toHaveText(/^Unable to save\. Someone else has changed this reconciliation/);
    await expect(page.getByTestId("notes")).toContainText("Saved elsewhere");

    // Save + Accept, with the note box emptied first
    await tabTo(page, page.getByLabel("Note", { exact: true }), 40);
    await expect(page.getByLabel("Note", { exact: true })).toHaveValue("Too late");
    await page.keyboard.press("ControlOrMeta+a");
    await page.keyboard.press("Backspace");
    await page.keyboard.type("Accepted: the carrier's rate stands");
    await tabTo(page, page.getByRole("button", { name: "Save + Accept" }), 10);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("reconciliation-message")).toHaveText("Saved and accepted.");
    await expect(title).toContainText("Reconciled reconciliation");
    await expect(page.getByRole("button", { name: "Re Run" })).toHaveCount(0);
    // Reset: back to Un-Reconciled, the notes gone
    await tabTo(page, page.getByRole("button", { name: "Reset" }), 40);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("reconciliation-message")).toHaveText("Reconciliation reset.");
    await expect(title).toContainText("Un-Reconciled reconciliation");
    await expect(page.getByTestId("notes")).toHaveCount(0);
    expect(await mouseEvents(page)).toBe(0);

    // Re Run on the other one
    await page.goto(`/reconciliation/${second}`);
    await countMouse(page);
    await tabTo(page, page.getByRole("button", { name: "Re Run" }), 80);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("reconciliation-message")).toHaveText("Reconciliation compared again.");
    await expect(page.getByTestId("rerate-status")).not.toBeEmpty();
    expect(await mouseEvents(page)).toBe(0);

    // SELL view: Charge From the invoice, saved as a preview without a note
    await page.goto(`/reconciliation/${second}?view=sell`);
    await countMouse(page);
    const fromInvoice = page.getByRole("group", { name: "Charge From" }).getByRole("button", { name: "Invoice" });
    await expect(fromInvoice).toHaveAttribute("aria-pressed", "false");
    await tabTo(page, fromInvoice, 40);
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("reconciliation-message")).toHaveText("Charge From saved.");
    await expect(fromInvoice).toHaveAttribute("aria-pressed", "true");
    await expect(page.getByTestId("panel-customer-invoice")).toContainText("Freight");
    expect(await mouseEvents(page)).toBe(0);

    // Back goes to the list
    await expect(page.getByRole("link", { name: "Back" })).toHaveAttribute("href", "/reconciliations");
  } finally {
    await own.remove();
  }
});

test("a failed load goes back to the list", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto("/reconciliation/2000000000");
  await expect(page).toHaveURL(/\/reconciliations$/);
});

test("axe: the detail, its sell view and the Invoice Detail modal", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@example.com");
  const own = await ownReconciliations(page.request, `RCA-${Date.now()}`);
  try {
    const id = own.ids[0]!;
    await page.goto(`/reconciliation/${id}`);
    await expect(page.getByTestId("reconciliation-detail")).toBeVisible();
    await audit(page, "/reconciliation/{id}");
    await page.goto(`/reconciliation/${id}?view=sell`);
    await expect(page.getByRole("group", { name: "Charge From" })).toBeVisible();
    await audit(page, "/reconciliation/{id}?view=sell");
    await page.goto(`/reconciliation/${id}?costs=1`);
    await expect(page.getByTestId("line-dialog")).toBeVisible();
    await audit(page, "/reconciliation/{id}?costs=1");
  } finally {
    await own.remove();
  }
});
