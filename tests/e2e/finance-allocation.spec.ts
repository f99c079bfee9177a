import { expect, test } from "./support/test";
import { importPayableInvoice } from "./finance-data";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Issue 18 items 5 and 6, keyboard only: an admin adds an allocation rule on /allocation_rules,
 * tests its group against an invoice line, and allocates the line's invoice. The invoice (two
 * lines whose consignment numbers the system never issued, with one payer) is imported through
 * the API first, so this runs on any server database.
 */
const stamp = Date.now().toString(36);

test("adds an allocation rule, tests it and allocates an invoice with the keyboard", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin@example.com");
  const invoice = await importPayableInvoice(page.request, `E2E-ALLOC-${stamp}`, { carrierCode: "SIMEX", payer: `E2E Payer ${stamp}` });
  const [lineId] = invoice.lineIds;
  await page.goto("/allocation_rules");
  await countMouse(page);
  const carrier = page.getByLabel("Carrier", { exact: true });
  await tabTo(page, carrier, 80);
  await carrier.selectOption("SIMEX");
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Show rules" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/carrier=SIMEX/);
  await countMouse(page);

  const form = page.getByRole("form", { name: "New rule" });
  await form.getByLabel("Allocates").focus();
  await form.getByLabel("Allocates").selectOption("Customer");
  await form.getByLabel("Type").selectOption("Mapping");
  await form.getByLabel("Invoice line field").selectOption("payer");
  await form.getByLabel("Text (Mapping)").focus();
  await page.keyboard.type(`E2E Payer ${stamp}`);
  await form.getByLabel("Allocate to (Mapping)").selectOption({ label: "Customer: Acme Distribution (ACME)" });
  await form.getByRole("button", { name: "Add rule" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("New allocation rule saved successfully")).toBeVisible();
  await countMouse(page);

  const ruleId = /#rule-(\d+)/.exec(page.url())?.[1] ?? /rule-(\d+)/.exec((await page.locator("form[id^=rule-]").last().getAttribute("id"))!)![1];
  const tester = page.getByRole("form", { name: `Test group of rule ${ruleId}` });
  await tester.getByLabel("Invoice line id").focus();
  await page.keyboard.type(String(lineId));
  await page.keyboard.press("Enter");
  await expect(page.getByText(/^Allocation rule allocated: Customer Acme Distribution \(ACME\)/)).toBeVisible();
  await countMouse(page);

  // Allocate: the payable pages post this form; here it is posted as they do
  const res = await page.request.post("/invoices/allocate", { form: { invoice_ids: String(invoice.id), redirectTo: "/allocation_rules" }, maxRedirects: 0 });
  expect(res.status()).toBe(302);
  const job = new URL(res.headers().location!, "http://x").searchParams.get("allocation_job");
  await expect
    .poll(async () => ((await (await page.request.get(`/api/job_status/${job}`, { headers: { Accept: "application/json" } })).json()) as { message: string }).message, { timeout: 20_000 })
    .toBe("Allocated 2 of 2 lines");
  expect(await mouseEvents(page)).toBe(0);
});
