import { expect, test } from "./support/test";
import { audit, json } from "./axe";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Webhooks (issue 34 item 1): a customer's admin adds an endpoint with the keyboard alone (no
 * mouse event reaches the page), sees its signing secret once, opens its delivery log, and both
 * screens pass axe. The endpoint is deleted afterwards, so later specs' consignments send nothing.
 */
test("a customer's admin adds a webhook endpoint by keyboard, sees its secret once and opens its log", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "superdespatcher@example.com");
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { name: /^Webhooks of / })).toBeVisible();
  await audit(page, "webhooks list");
  await countMouse(page);
  const url = `https://hooks.example.com/freight/${Date.now()}`;

  const k = page.keyboard;
  expect(await tabTo(page, page.getByLabel("URL", { exact: true }), 60)).toBeGreaterThanOrEqual(0);
  await k.type(url);
  await k.press("Tab");
  await expect(page.getByRole("checkbox", { name: /consignment\.created/ })).toBeFocused();
  await k.press("Space");
  await k.press("Shift+Tab");
  // Enter in the URL field submits the form
  await k.press("Enter");

  const secret = page.getByLabel("Signing secret");
  await expect(secret).toHaveValue(/^whsec_/);
  const link = page.getByRole("link", { name: url });
  await expect(link).toBeVisible();
  await audit(page, "webhooks list with an endpoint and its secret");
  const id = Number(new URL(await link.evaluate((a) => (a as HTMLAnchorElement).href)).pathname.split("/").pop());
  try {
    await tabTo(page, link, 80);
    await k.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/webhooks/${id}$`));
    await expect(page.getByText(url).first()).toBeVisible();
    await audit(page, "webhook endpoint and its delivery log");
    expect(await mouseEvents(page)).toBe(0);
    // the secret is shown once: not on a later visit
    await page.goto("/webhooks");
    await expect(page.getByLabel("Signing secret")).toHaveCount(0);
  } finally {
    await page.request.delete(`/api/webhooks/${id}`, json);
  }
});
