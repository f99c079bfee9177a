import { expect, test, type APIRequestContext, type Locator, type Page } from "./support/test";
import { audit } from "./axe";
import { importPayableInvoice, type ImportedInvoice } from "./finance-data";
import { countMouse, mouseEvents, signIn } from "./helpers";

/**
 * Issue 19 item 2, keyboard only: an admin reconciles an imported invoice from /invoices_payable,
 * opens its reconciliations by the arrow, disputes one line with a note and accepts the other,
 * invoices the accepted line from the Reconciled tab and opens the customer invoice's PDF;
 * axe on both list screens. The invoice is imported and its lines allocated by hand through the
 * API first (their consignment numbers were never issued, so both come out failed_to_rate,
 * Un-Reconciled), so this runs on any server database.
 */
const stamp = Date.now().toString(36).toUpperCase();
const json = { headers: { Accept: "application/json" } };

/** Allocates both lines to the demo customer's first site, Unquoted, as the line modal would. */
async function allocateByHand(request: APIRequestContext, invoice: ImportedInvoice) {
  const customers = ((await (await request.get("/api/customers/list", json)).json()) as { customers: Array<{ id: number; code: string }> }).customers;
  const acme = customers.find((c) => c.code === "ACME")!;
  const body = (await (await request.get(`/api/customers/${acme.id}/sites`, json)).json()) as { sites?: Array<{ id: number }> } | Array<{ id: number }>;
  const site = (Array.isArray(body) ? body : body.sites!)[0]!;
  for (const line of invoice.lineIds) {
    const res = await request.put(`/api/invoices/${invoice.id}/invoice_details/${line}`, { ...json, data: { customer_id: acme.id, site_id: site.id, service_id: "unquoted" } });
    expect(res.status(), await res.text()).toBe(200);
  }
}

/** Presses Shift+Tab until `target` has focus: it is reached backwards in the tab order. */
async function shiftTabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Shift+Tab");
  }
  await expect(target).toBeFocused();
}

test("reconciles an invoice from the payable list, disputes one line, accepts another and invoices it, with the keyboard", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@example.com");
  const invoice = await importPayableInvoice(page.request, `E2E-REC-${stamp}`, { carrierCode: "SIMEX" });
  try {
    await allocateByHand(page.request, invoice);
    await page.goto("/invoices_payable?state=allocated");
    await countMouse(page);
    const choose = page.getByLabel(`Choose invoice ${invoice.number}`);
    await choose.focus();
    await page.keyboard.press("Space");
    await expect(choose).toBeChecked();
    // the buttons are above the table: back to them with Shift+Tab
    await shiftTabTo(page, page.getByRole("button", { name: "Reconcile" }));
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/reconcile_job=/);
    await expect(page.getByTestId("reconcile-progress")).toBeVisible();
    const job = new URL(page.url()).searchParams.get("reconcile_job");
    await expect
      .poll(async () => ((await (await page.request.get(`/api/job_status/${job}`, json)).json()) as { message: string }).message, { timeout: 30_000 })
      .toBe("Reconciled 2 lines: 0 within the thresholds, 2 to check");

    // the arrow, shown on allocated invoices, opens its reconciliations
    await countMouse(page);
    const arrow = page.getByRole("link", { name: `Reconciliations of invoice ${invoice.number}` });
    await arrow.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/invoices/${invoice.id}/reconciliations$`));
    await expect(page.getByTestId("reconciliation-row")).toHaveCount(2);
    await expect(page.getByTestId("tab-reconciling")).toContainText("(2)");
    await expect(page.getByTestId("reconciliation-row").first()).toContainText("Failed to rate");

    // dispute the first line with a note
    await countMouse(page);
    const first = page.getByLabel(`Choose ${invoice.number}-`).first();
    const firstName = (await first.getAttribute("aria-label"))!.replace("Choose ", "");
    await first.focus();
    await page.keyboard.press("Space");
    await shiftTabTo(page, page.getByRole("button", { name: "Dispute" }));
    await page.keyboard.press("Enter");
    const dialog = page.getByTestId("bulk-dialog");
    await expect(dialog).toBeVisible();
    await expect(page.getByLabel("Note")).toBeFocused();
    await page.keyboard.type("Never booked with this carrier");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(dialog.getByRole("button", { name: "Dispute" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("bulk-result")).toContainText("1 reconciliation disputed.");
    await expect(page.getByTestId("bulk-result")).toContainText(`${firstName}: Disputed`);
    await expect(page.getByTestId("tab-disputed")).toContainText("(1)");

    // accept the other, still Un-Reconciled
    await expect(page.getByTestId("reconciliation-row")).toHaveCount(1);
    const other = page.getByTestId("reconciliation-row").getByRole("checkbox");
    await other.focus();
    await page.keyboard.press("Space");
    await shiftTabTo(page, page.getByRole("button", { name: "Accept" }));
    await page.keyboard.press("Enter");
    await expect(page.getByLabel("Note")).toBeFocused();
    await page.keyboard.type("Charged as agreed");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("bulk-result")).toContainText("1 reconciliation accepted.");
    await expect(page.getByTestId("tab-reconciled")).toContainText("(1)");
    await expect(page.getByText("There are no reconciliations to display.")).toBeVisible();

    // invoice the accepted line from the Reconciled tab
    const reconciledTab = page.getByTestId("tab-reconciled");
    await reconciledTab.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/state=reconciled/);
    await expect(page.getByTestId("reconciliation-row")).toHaveCount(1);
    const accepted = page.getByTestId("reconciliation-row").getByRole("checkbox");
    await accepted.focus();
    await page.keyboard.press("Space");
    await shiftTabTo(page, page.getByRole("button", { name: "Invoice" }));
    await page.keyboard.press("Enter");
    const invoiceDialog = page.getByTestId("bulk-dialog");
    await expect(invoiceDialog).toContainText("Invoice 1 reconciliation");
    // the dialog takes focus; its Invoice button is the last control in it
    const invoiceButton = invoiceDialog.getByRole("button", { name: "Invoice" });
    for (let i = 0; i < 5 && !(await invoiceButton.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(invoiceButton).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/invoice_job=/);
    await expect(page.getByTestId("invoicing-progress")).toBeVisible();
    const invoicingJob = new URL(page.url()).searchParams.get("invoice_job");
    await expect
      .poll(async () => ((await (await page.request.get(`/api/job_status/${invoicingJob}`, json)).json()) as { message: string }).message, { timeout: 60_000 })
      .toMatch(/^Invoicing complete: 1 invoice for 1 line\./);
    expect(await mouseEvents(page)).toBe(0);

    // the customer invoice that bills it, and its PDF
    const listed = (await (await page.request.get(`/api/reconciliations?invoice_id=${invoice.id}&state=reconciled`, json)).json()) as { reconciliations: Array<{ id: number }> };
    const detail = (await (await page.request.get(`/api/reconciliations/${listed.reconciliations[0]!.id}`, json)).json()) as { customer_invoice_detail: { invoice_id: number } | null };
    expect(detail.customer_invoice_detail).not.toBeNull();
    await page.goto(`/invoice/${detail.customer_invoice_detail!.invoice_id}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("receivable invoice INV-");
    const pdf = page.getByRole("link", { name: "PDF", exact: true });
    const pdfResponse = await page.request.get((await pdf.getAttribute("href"))!);
    expect(pdfResponse.status()).toBe(200);
    expect(pdfResponse.headers()["content-type"]).toBe("application/pdf");
    expect((await pdfResponse.body()).subarray(0, 5).toString()).toBe("%PDF-");

    // axe on both screens
    await page.goto(`/invoices/${invoice.id}/reconciliations?state=disputed`);
    await expect(page.getByTestId("reconciliation-row")).toHaveCount(1);
    await audit(page, "/invoices/{id}/reconciliations");
    await page.goto("/reconciliations");
    await expect(page.getByTestId("reconciliations-page")).toBeVisible();
    await audit(page, "/reconciliations");
  } finally {
    await invoice.remove();
  }
});
