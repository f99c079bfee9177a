import { readFile } from "node:fs/promises";
import { expect, test } from "./support/test";
import { audit } from "./axe";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Insight (issue 33 item 2): a manager opens /insight from the navigation with the keyboard alone,
 * changes a filter, moves to another section and downloads a chart's CSV; every screen passes axe,
 * charts included (SVG with a title, a description and a table equivalent).
 */
test("insight opens by keyboard, a filter and a section change in the URL, and a chart's CSV downloads", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@example.com");
  await page.goto("/home");
  await countMouse(page);
  const k = page.keyboard;
  await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Insight" }), 40);
  await k.press("Enter");
  await expect(page).toHaveURL(/\/insight$/);
  await expect(page.getByRole("heading", { name: "Insight", level: 1 })).toBeVisible();
  const performance = page.getByRole("figure", { name: "Carrier performance" });
  await expect(performance).toBeVisible();
  await expect(performance.getByRole("img")).toBeVisible();
  await audit(page, "insight, carrier performance");

  // a filter: the first carrier, by the keyboard in its select, then Show
  const carrier = page.getByLabel("Carrier", { exact: true });
  await tabTo(page, carrier, 60);
  await k.press("ArrowDown");
  await tabTo(page, page.getByRole("button", { name: "Show" }), 20);
  await k.press("Enter");
  await expect(page).toHaveURL(/carrier_id=\d+/);
  await expect(page.getByLabel("Carrier", { exact: true })).not.toHaveValue("");

  // another section, its filters kept
  await tabTo(page, page.getByRole("link", { name: "Spend" }), 60);
  await k.press("Enter");
  await expect(page).toHaveURL(/section=spend/);
  await expect(page).toHaveURL(/carrier_id=\d+/);
  const spend = page.getByRole("figure", { name: /^Freight spend by carrier/ });
  await expect(spend).toBeVisible();
  await audit(page, "insight, spend");

  // the chart's CSV
  const link = spend.getByRole("link", { name: /Download CSV/ });
  await tabTo(page, link, 80);
  const [download] = await Promise.all([page.waitForEvent("download"), k.press("Enter")]);
  expect(download.suggestedFilename()).toMatch(/^spend-carrier-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = await readFile((await download.path())!, "utf8");
  expect(text.split("\n")[0]).toMatch(/^Carrier,Sell \((AUD|NZD|USD)\),Buy/);
  expect(await mouseEvents(page)).toBe(0);
});

test("a bad period is refused with its message and what was typed stays", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  const res = await page.goto("/insight?from=2020-01-01&to=2025-01-01&lane=VIC-NSW");
  expect(res?.status()).toBe(400);
  await expect(page.getByRole("alert").filter({ hasText: "The period can be at most two years" })).toBeVisible();
  await expect(page.getByLabel("Lane")).toHaveValue("VIC-NSW");
  await audit(page, "insight, refused filters");
});
