import { expect, test } from "./support/test";
import { countMouse, despatchedSimex, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Tracking replay (issue 14 item 8; spec 2 /manage_tracking): a super admin replays a SIMEX
 * consignment's tracking with the keyboard, and the same form works with JavaScript off.
 */

const json = { headers: { Accept: "application/json" } };

test.describe("manage tracking", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "superadmin@example.com");
    expect((await page.request.put("/api/carriers/SIMEX/simulation", { ...json, data: { journey_minutes: 0.05 } })).status()).toBe(200);
  });
  test.afterEach(async ({ page }) => {
    // back to the real pace for the other specs
    await page.request.put("/api/carriers/SIMEX/simulation", { ...json, data: { journey_minutes: null } });
  });

  test("a super admin replays a consignment's tracking with the keyboard and watches the job", async ({ page }) => {
    const number = (await despatchedSimex(page, "E2E-REPLAY-KEYS", { name: "Replay E2E Receiver" })).number;
    await page.goto("/manage_tracking");
    await expect(page.getByRole("heading", { name: "Manage tracking" })).toBeVisible();
    await countMouse(page);
    const numbers = page.getByLabel("Consignment numbers (one a line, or separated by commas)");
    await tabTo(page, numbers, 30);
    await page.keyboard.type(number);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Replay" }).first()).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/manage_tracking\?job=/);
    await expect(page.locator('[data-job-status="complete"]')).toContainText(/Replayed the tracking of 1 consignment\(s\)/, { timeout: 20_000 });
    expect(await mouseEvents(page)).toBe(0);
  });

  test("works without JavaScript: the form queues the job and a reload shows how it ended", async ({ page, browser, baseURL }) => {
    const number = (await despatchedSimex(page, "E2E-REPLAY-NOJS", { name: "Replay E2E Receiver" })).number;
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      const plain = await context.newPage();
      await plain.goto("/login");
      await plain.getByLabel("E-mail").fill("superadmin@example.com");
      await plain.getByLabel("Password").fill("Demo-password-12");
      await plain.getByRole("button", { name: "Sign in" }).click();
      await expect(plain).not.toHaveURL(/\/login/);
      await plain.goto("/manage_tracking");
      // a date range over two months is refused with the spec's message
      await plain.getByLabel("From", { exact: true }).fill("2026-01-01");
      await plain.getByLabel("To", { exact: true }).fill("2026-06-01");
      await plain.getByRole("button", { name: "Replay" }).nth(1).click();
      await expect(plain.getByText("Date range too large, please select dates within 2 months.").first()).toBeVisible();

      await plain.getByLabel("Consignment numbers (one a line, or separated by commas)").fill(`${number}\n`);
      await plain.getByRole("button", { name: "Replay" }).first().click();
      await expect(plain).toHaveURL(/\/manage_tracking\?job=/);
      await expect.poll(async () => (await plain.reload(), await plain.locator("[data-job-status]").getAttribute("data-job-status")), { timeout: 20_000 }).toBe("complete");
      await expect(plain.locator('[data-job-status="complete"]')).toContainText("Replayed the tracking of 1 consignment(s)");
    } finally {
      await context.close();
    }
  });
});
