import { expect, test } from "./support/test";
import { audit } from "./axe";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Issue 19 points 5 and 6, keyboard only: on /invoices_receivable open Invoice, select all of the
 * demo's reconciled lines, invoice them, wait for the job's 'Invoicing complete', open the customer
 * invoice and its PDF; axe on the list and both modals. The demo's reconciled lines are invoiced by
 * this spec (nothing else in the suite invoices them).
 */
test("an admin invoices the reconciled lines by keyboard and opens the invoice's PDF", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@example.com");
  await page.goto("/invoices_receivable");
  await expect(page.getByTestId("invoices-receivable")).toBeVisible();
  await audit(page, "/invoices_receivable");

  await countMouse(page);
  await tabTo(page, page.getByRole("link", { name: "Invoice", exact: true }), 60);
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("send-invoice");
  await expect(dialog).toBeVisible();
  const rows = dialog.getByTestId("invoiceable-row");
  await expect(rows.first()).toBeVisible();
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  await audit(page, "/invoices_receivable?modal=invoice");

  await tabTo(page, dialog.getByRole("checkbox", { name: "Select all" }), 30);
  await page.keyboard.press("Space");
  await expect(dialog.getByTestId("selected-count")).toHaveText(`${count} selected`);
  await tabTo(page, dialog.getByRole("button", { name: "Invoice selected" }), 40 + count * 3);
  await page.keyboard.press("Enter");
  await expect(page.getByText(/Invoicing complete/)).toBeVisible({ timeout: 60_000 });
  expect(await mouseEvents(page)).toBe(0);

  // the new customer invoice is listed: open it
  const link = page.getByTestId("receivable-row").first().getByRole("link", { name: /^INV-\d{6}$/ });
  await expect(link).toBeVisible();
  const number = (await link.textContent())!.trim();
  await countMouse(page);
  await link.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { level: 1 })).toContainText(`receivable invoice ${number}`);
  const pdf = page.getByRole("link", { name: "PDF", exact: true });
  await expect(pdf).toBeVisible();
  const href = await pdf.getAttribute("href");
  const res = await page.request.get(href!);
  expect(res.status()).toBe(200);
  expect(res.headers()["content-type"]).toBe("application/pdf");
  expect((await res.body()).subarray(0, 5).toString()).toBe("%PDF-");
  expect(await mouseEvents(page)).toBe(0);

  await page.goto("/invoices_receivable?modal=schedules");
  await expect(page.getByTestId("schedules")).toBeVisible();
  await audit(page, "/invoices_receivable?modal=schedules");
});
