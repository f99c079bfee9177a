import { expect, test } from "./support/test";
import { signIn } from "./helpers";

/**
 * Issue 18 item 2: an admin imports a carrier's CSV invoice from the payable list's Import dialog,
 * by keyboard alone (the file is given to the file input, as a person picks it), and the
 * invoice is listed. The template is made through /api/carrier_invoice_configs; this works on
 * PGlite and PostgreSQL alike.
 */
const json = { headers: { Accept: "application/json" } };

test("an admin imports a CSV invoice through the Import dialog, by keyboard", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@example.com");
  const stamp = Date.now().toString(36).toUpperCase();
  const carriers = (await (await page.request.get("/api/carriers", json)).json()) as { carriers: Array<{ id: number; code: string }> };
  const carrier = carriers.carriers.find((c) => c.code === "SIMEX") ?? carriers.carriers[0]!;
  const made = await page.request.post("/api/carrier_invoice_configs", {
    ...json,
    data: {
      name: `E2E import ${stamp}`,
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
  // two days back: inside the payable list's default fortnight wherever the admin's site is
  const d = new Date(Date.now() - 2 * 86_400_000);
  const date = `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
  const number = `E2E-${stamp}`;
  try {
    await page.goto("/invoices_payable");
    await page.getByRole("link", { name: "Import", exact: true }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Import invoices" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Import" })).toBeDisabled();
    await dialog.getByLabel("Carrier invoice format").focus();
    await dialog.getByLabel("Carrier invoice format").selectOption(String(config.id));
    await dialog.getByLabel("Invoice files").setInputFiles({ name: "invoice.csv", mimeType: "text/csv", buffer: Buffer.from(`Inv,Date,Con,Freight\n${number},${date},CN-${stamp}-1,12.50\n${number},${date},CN-${stamp}-2,7.25\n`) });
    await dialog.getByRole("button", { name: "Import" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/import_job=/);
    await expect(page.getByTestId("invoice-groups")).toContainText(number, { timeout: 30_000 });
  } finally {
    const list = (await (await page.request.get(`/api/invoices?state=all`, json)).json()) as { invoices?: Array<{ id: number; invoice_number: string }> };
    for (const inv of list.invoices?.filter((i) => i.invoice_number === number) ?? []) await page.request.delete(`/api/invoices/${inv.id}`, json);
    await page.request.delete(`/api/carrier_invoice_configs/${config.id}`, json);
  }
});
