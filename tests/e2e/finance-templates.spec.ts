import { expect, test, type Locator, type Page } from "./support/test";
import { audit } from "./axe";
import { countMouse, mouseEvents, signIn } from "./helpers";

/**
 * Issue 18 item 1: an admin builds a template for a layout it has never seen, from the editor's
 * test run and by keyboard alone: the first runs fail on the row and step that broke, steps are
 * added and one moved, the fields mapped, the lines shown, the template saved and listed, and
 * the same file imported through the payable list's Import dialog. Axe audits both screens.
 * Everything goes through the screens and /api (no database writes), so PGlite runs it too.
 */
const json = { headers: { Accept: "application/json" } };

/** Enter on a control once it takes input (a button is disabled while the form's last post is revalidating). */
const press = async (page: Page, target: Locator) => {
  await expect(target).toBeEnabled();
  await target.focus();
  await page.keyboard.press("Enter");
};

test("an admin builds a template from the test run, saves it and imports with it, by keyboard", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@example.com");
  const stamp = Date.now().toString(36).toUpperCase();
  const name = `E2E template ${stamp}`;
  const number = `TPL-${stamp}`;
  // two days back: inside the payable list's default fortnight
  const d = new Date(Date.now() - 2 * 86_400_000);
  const date = `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;
  const csv = [
    "Simulated Express invoice export",
    "Account 12345,,,,",
    "Invoice,Consignment,Date,Freight,Fuel",
    `${number},CN-${stamp}-1,${date},"$1,234.50",$10.00`,
    `${number},CN-${stamp}-2,${date},$7.25,$0.50`,
    'Total,,,"$1,241.75",$10.50',
    "",
  ].join("\n");
  const carriers = (await (await page.request.get("/api/carriers", json)).json()) as { carriers: Array<{ id: number; code: string }> };
  const carrier = carriers.carriers.find((c) => c.code === "SIMEX") ?? carriers.carriers[0]!;
  let configId = 0;
  try {
    await page.goto("/carrier_invoice_configs");
    await countMouse(page);
    await press(page, page.getByRole("link", { name: "New template" }));
    await expect(page).toHaveURL(/\/carrier_invoice_config$/);
    await expect(page.getByRole("heading", { name: "New invoice template" })).toBeVisible();

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Carrier", { exact: true }).selectOption(String(carrier.id));
    // a new template reads CSV unless told more formats
    await expect(page.getByRole("checkbox", { name: "CSV", exact: true })).toBeChecked();
    const map = page.getByTestId("step-map-fields");
    await map.getByLabel("Column for invoice_number").fill("Invoice");
    await map.getByLabel("Column for consignment_number").fill("Consignment");
    await page.getByLabel(/^Sample file/).setInputFiles({ name: "unseen.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    const run = page.getByRole("button", { name: "Run test" });
    const results = page.getByTestId("test-run-results");
    await press(page, run);
    // no columns are named yet: the preamble's first row fails at MapFields
    await expect(results.getByRole("alert")).toContainText("row 1, step 1 MapFields");

    const addStep = async (type: string) => {
      await page.getByLabel("New step type").selectOption(type);
      await press(page, page.getByRole("button", { name: "Add step" }));
    };
    await addStep("NameColumns");
    const step1 = page.getByTestId("step-1");
    await expect(step1.getByLabel("Name by")).toBeFocused();
    await step1.getByLabel("Header row number").fill("3");
    await press(page, run);
    // the columns are named now; the total row is the one that breaks
    await expect(results.getByRole("alert")).toContainText("row 6, step 2 MapFields");
    await expect(results.getByRole("alert")).not.toContainText("row 4,");

    await addStep("DeleteRows");
    await page.getByTestId("step-2").getByLabel("Row numbers").fill("-1");
    await addStep("EditValues");
    const step3 = page.getByTestId("step-3");
    await step3.getByLabel("Edit").selectOption("STRIP");
    await step3.getByLabel("Column", { exact: true }).fill("Freight");
    await map.getByLabel("Column for invoice_date").fill("Date");
    await map.getByLabel("Cost 1 category").selectOption("freight_charge");
    await map.getByLabel("Cost 1 column", { exact: true }).fill("Freight");
    await map.getByLabel("Cost 2 category").selectOption("fuel_charge");
    await map.getByLabel("Cost 2 column", { exact: true }).fill("Fuel");

    // EditValues moves above DeleteRows by keyboard, and focus stays on it
    await press(page, page.getByRole("button", { name: "Move step 3 up" }));
    await expect(page.getByTestId("step-2")).toContainText("EditValues");
    await expect(page.getByRole("button", { name: "Move step 2 up" })).toBeFocused();
    await expect(page.getByTestId("step-3")).toContainText("DeleteRows");

    // the sample kept from the first run: no file chosen again
    await press(page, run);
    await expect(results.getByRole("status")).toHaveText("No problems.");
    await expect(results).toContainText("Mapped lines (2)");
    await expect(page.getByTestId("mapped-lines")).toContainText(`CN-${stamp}-1`);
    await expect(page.getByTestId("mapped-lines")).toContainText("Freight charge 1234.50");
    await expect(results).toContainText("After step 2 EditValues (Remove characters)");
    await audit(page, "/carrier_invoice_config (test run)");

    await press(page, page.getByRole("button", { name: "Save", exact: true }).last());
    await expect(page).toHaveURL(/\/carrier_invoice_config\/\d+\?notice=saved/);
    configId = Number(/carrier_invoice_config\/(\d+)/.exec(page.url())![1]);
    await expect(page.getByText("Carrier invoice template saved.")).toBeVisible();
    await expect(page.getByTestId("step-2")).toContainText("EditValues");
    expect(await mouseEvents(page)).toBe(0);

    await page.goto(`/carrier_invoice_configs?carrier=${carrier.id}`);
    const row = page.getByTestId("templates").getByRole("row", { name: new RegExp(name) });
    await expect(row).toContainText("CSV");
    await expect(row.getByRole("cell").last()).toHaveText("4");
    await audit(page, "/carrier_invoice_configs");

    await page.goto("/invoices_payable");
    await countMouse(page);
    await press(page, page.getByRole("link", { name: "Import", exact: true }));
    const dialog = page.getByRole("dialog", { name: "Import invoices" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Carrier invoice format").focus();
    await dialog.getByLabel("Carrier invoice format").selectOption(String(configId));
    await dialog.getByLabel("Invoice files").setInputFiles({ name: "unseen.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await press(page, dialog.getByRole("button", { name: "Import" }));
    await expect(page).toHaveURL(/import_job=/);
    await expect(page.getByTestId("invoice-groups")).toContainText(number, { timeout: 30_000 });
    expect(await mouseEvents(page)).toBe(0);
  } finally {
    const list = (await (await page.request.get(`/api/invoices?state=all`, json)).json()) as { invoices?: Array<{ id: number; invoice_number: string }> };
    for (const inv of list.invoices?.filter((i) => i.invoice_number === number) ?? []) await page.request.delete(`/api/invoices/${inv.id}`, json);
    if (configId) await page.request.delete(`/api/carrier_invoice_configs/${configId}`, json);
  }
});

test("an admin deletes a template through the confirm dialog, by keyboard", async ({ page }) => {
  await signIn(page, "admin@example.com");
  const carriers = (await (await page.request.get("/api/carriers", json)).json()) as { carriers: Array<{ id: number; code: string }> };
  const name = `E2E delete ${Date.now().toString(36)}`;
  const made = await page.request.post("/api/carrier_invoice_configs", {
    ...json,
    data: { name, carrier_id: carriers.carriers[0]!.id, parser: { format: "CSV", sheets: [] }, transformations: [{ type: "MapFields", options: { mappings: [{ field: "invoice_number", column: "A" }, { field: "consignment_number", column: "B" }] } }] },
  });
  expect(made.status(), await made.text()).toBeLessThan(300);
  const { id } = (await made.json()) as { id: number };
  await page.goto(`/carrier_invoice_config/${id}`);
  await countMouse(page);
  await press(page, page.getByRole("link", { name: "Delete" }));
  const dialog = page.getByRole("dialog", { name: "Delete this template?" });
  await expect(dialog).toBeVisible();
  await audit(page, "/carrier_invoice_config?delete=1");
  // Escape closes it and focus goes back to Delete
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("link", { name: "Delete" })).toBeFocused();
  await page.keyboard.press("Enter");
  await press(page, page.getByRole("dialog").getByRole("button", { name: "Delete template" }));
  await expect(page).toHaveURL(/\/carrier_invoice_configs\?notice=deleted/);
  await expect(page.getByText(name)).toHaveCount(0);
  expect(await mouseEvents(page)).toBe(0);
  expect((await page.request.get(`/api/carrier_invoice_configs/${id}`, json)).status()).toBe(404);
});
