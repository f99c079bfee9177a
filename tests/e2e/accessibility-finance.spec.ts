import { expect, test } from "./support/test";
import { audit } from "./axe";
import { importPayableInvoice } from "./finance-data";
import { signIn } from "./helpers";

/**
 * Axe on the finance screens (issue 18), as the role that sees each, with the audit of
 * accessibility.spec.ts (./axe.ts).
 */

test("allocation rules screens, as an admin and as customer service", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@example.com");
  await page.goto("/allocation_rules");
  await audit(page, "/allocation_rules");
  await page.goto("/allocation_rules?carrier=SIMEX");
  await expect(page.getByRole("form", { name: "New rule" })).toBeVisible();
  await audit(page, "/allocation_rules?carrier=SIMEX (admin)");
  await page.context().clearCookies();
  await signIn(page, "customerservice@example.com");
  await page.goto("/allocation_rules?carrier=SIMEX");
  await audit(page, "/allocation_rules?carrier=SIMEX (customer service)");
});

test("payable invoices, the invoice page and the line modal, as an admin", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@example.com");
  const invoice = await importPayableInvoice(page.request, `AXE-${Date.now()}`);
  try {
    await page.goto("/invoices_payable?state=all");
    await expect(page.getByTestId("invoice-groups")).toBeVisible();
    await audit(page, "/invoices_payable");
    await page.goto(`/invoice/${invoice.id}`);
    await expect(page.getByTestId("invoice-lines")).toBeVisible();
    await audit(page, "/invoice/{id}");
    await page.getByTestId("line-row").first().getByRole("link").focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("line-dialog")).toBeVisible();
    await audit(page, "/invoice/{id}?detail=");
  } finally {
    await invoice.remove();
  }
});

test("the payable list and its Import dialog, as an admin", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto("/invoices_payable?import=1");
  await expect(page.getByRole("dialog", { name: "Import invoices" })).toBeVisible();
  await audit(page, "/invoices_payable?import=1");
});
