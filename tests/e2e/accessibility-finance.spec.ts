import { expect, test } from "@playwright/test";
import { audit } from "./axe";
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
