import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./helpers";
import { insertPayableInvoice } from "./finance-data";

/**
 * Axe on part B's finance screens (issue 18): the payable list, the invoice page and its line
 * modal, as an admin; the same rules as tests/e2e/accessibility.spec.ts (serious and critical
 * fail, and the moderate ones the product holds everywhere).
 */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const HELD = ["heading-order", "empty-table-header"];

async function audit(page: Page, screen: string) {
  const { violations, incomplete } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = [...violations, ...incomplete.filter((r) => r.id.startsWith("aria-"))];
  const failing = found.filter((v) => ["serious", "critical"].includes(v.impact ?? "") || HELD.includes(v.id)).map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(" ")}`).join("\n")}`);
  expect.soft(failing, `accessibility violations on ${screen}:\n${failing.join("\n")}`).toEqual([]);
}

test("payable invoices, the invoice page and the line modal, as an admin", async ({ page }) => {
  test.setTimeout(120_000);
  const invoice = await insertPayableInvoice(`AXE-${Date.now()}`);
  try {
    await signIn(page, "admin@example.com");
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
