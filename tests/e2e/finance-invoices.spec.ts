import { expect, test } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";
import { importPayableInvoice } from "./finance-data";

/**
 * Issue 18 items 3, 4 and 7, keyboard only: from the payable list open an invoice, open a line in
 * the detail modal, page through the lines, edit and save one, close the modal and export.
 */
test("an admin opens an invoice, pages and edits a line in the modal, and exports, by keyboard", async ({ page }) => {
  test.setTimeout(90_000);
  const number = `E2E-${Date.now()}`;
  await signIn(page, "admin@example.com");
  const invoice = await importPayableInvoice(page.request, number);
  try {
    await page.goto("/invoices_payable?state=all");
    await expect(page.getByTestId("invoices-payable")).toBeVisible();
    await countMouse(page);
    const link = page.getByRole("link", { name: number, exact: true });
    await link.focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`payable invoice ${number}`);
    await expect(page.getByTestId("line-row")).toHaveCount(2);

    await countMouse(page);
    await page.getByRole("link", { name: `${number}-A` }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByTestId("line-dialog");
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId("line-position")).toHaveText("1 of 2");
    await expect(dialog.getByTestId("line-costs")).toContainText("Fuel levy");
    await expect(dialog.getByTestId("line-costs")).toContainText("1.50");
    await tabTo(page, dialog.getByRole("link", { name: "Next" }), 10);
    await page.keyboard.press("Enter");
    await expect(dialog.getByTestId("line-position")).toHaveText("2 of 2");
    await expect(dialog.getByRole("heading", { level: 2 })).toContainText(`${number}-B`);

    // a refused save: focus goes to the field marked, not left on Save (issue 31 #9)
    const date = dialog.getByLabel("Despatch date");
    await tabTo(page, date, 40);
    const was = await date.inputValue();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("not a date");
    await tabTo(page, dialog.getByRole("button", { name: "Save" }), 40);
    await page.keyboard.press("Enter");
    await expect(date).toHaveAttribute("aria-invalid", "true");
    await expect(date).toBeFocused();
    await page.keyboard.press("Control+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.type(was);

    const payer = dialog.getByLabel("Payer");
    await tabTo(page, payer, 40);
    await page.keyboard.type("Keyboard payer");
    await tabTo(page, dialog.getByRole("button", { name: "Save" }), 40);
    await page.keyboard.press("Enter");
    await expect(dialog.getByTestId("line-message")).toHaveText("The invoice line was saved.");
    await expect(dialog.getByLabel("Payer")).toHaveValue("Keyboard payer");
    // the save's message comes with its answer, before the page's data is read again: closing the
    // modal during that read aborts it, and Remix logs the aborted read as an error
    await page.waitForLoadState("networkidle");

    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("link", { name: `${number}-B` })).toBeFocused();

    const download = page.waitForEvent("download");
    await tabTo(page, page.getByRole("button", { name: "Export" }), 60);
    await page.keyboard.press("Enter");
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^invoices-.*\.csv$/);
    await expect(page.getByTestId("invoice-message")).toContainText("The invoice was exported.");
    expect(await mouseEvents(page)).toBe(0);
  } finally {
    await invoice.remove();
  }
});

test("a direct load of an invoice line's modal hydrates without errors, and tests the allocation rules (issue 31 #2)", async ({ page }) => {
  const number = `E2E-NEST-${Date.now()}`;
  await signIn(page, "admin@example.com");
  const invoice = await importPayableInvoice(page.request, number);
  try {
    // the console guard of tests/e2e/support/test fails this test on React's #418/#423
    await page.goto(`/invoice/${invoice.id}?detail=${invoice.lineIds[0]}`);
    const dialog = page.getByTestId("line-dialog");
    await expect(dialog).toBeVisible();
    await page.waitForLoadState("networkidle");
    await expect(dialog.getByLabel("Payer")).toBeVisible();
  } finally {
    await invoice.remove();
  }
});
