import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signIn } from "./helpers";

/**
 * Issue 18 part C: axe on /allocation_rules (no carrier chosen, and a carrier's rules with the
 * editor), as an admin and as customer service (read only), with the rules of
 * accessibility.spec.ts: WCAG 2.0 and 2.1 A and AA and best practices; serious or critical fail.
 */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"];
const BLOCKING = ["serious", "critical"];
const HELD = ["heading-order", "empty-table-header"];

async function audit(page: Page, screen: string) {
  const { violations, incomplete } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const found = [...violations, ...incomplete.filter((r) => r.id.startsWith("aria-"))];
  const failing = found.filter((v) => BLOCKING.includes(v.impact ?? "") || HELD.includes(v.id)).map((v) => `${v.id} (${v.impact}): ${v.help} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect.soft(failing, `accessibility violations on ${screen}:\n${failing.join("\n")}`).toEqual([]);
}

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
