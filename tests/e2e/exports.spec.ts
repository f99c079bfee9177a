import { readFile } from "node:fs/promises";
import { expect, test } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * The export report (issue 15 item 4): a user with can_export fills the form with the keyboard,
 * runs the export, waits for the job's download link and downloads the file.
 */

const ddmmyyyy = (d: Date) => `${String(d.getUTCDate()).padStart(2, "0")}/${String(d.getUTCMonth() + 1).padStart(2, "0")}/${d.getUTCFullYear()}`;

test.describe("export report", () => {
  test("a user with can_export exports a month to CSV with the keyboard alone and downloads it", async ({ page }) => {
    await signIn(page, "finance@example.com");
    await page.goto("/export");
    await expect(page.getByRole("heading", { name: "Export report" })).toBeVisible();
    // a despatcher does not get the admins' New Export
    await expect(page.getByRole("button", { name: "New Export" })).toHaveCount(0);
    await countMouse(page);

    const site = page.getByLabel("Site");
    await tabTo(page, site, 60);
    await expect(site).toHaveValue("ALL");
    const from = page.getByLabel("From", { exact: true });
    await tabTo(page, from, 10);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type(ddmmyyyy(new Date(Date.now() - 30 * 86_400_000)));
    await tabTo(page, page.getByRole("radio", { name: "CSV" }), 10);
    await expect(page.getByRole("radio", { name: "CSV" })).toBeChecked();
    await tabTo(page, page.getByRole("button", { name: "Export", exact: true }), 10);
    await page.keyboard.press("Enter");

    await expect(page).toHaveURL(/\/export\?job=[0-9a-f-]{36}$/);
    const link = page.getByRole("link", { name: "Download the export" });
    await expect(link).toBeVisible({ timeout: 30_000 });
    await tabTo(page, link, 60);
    const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("Enter")]);
    expect(download.suggestedFilename()).toMatch(/^consignments-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
    const text = (await readFile((await download.path())!, "utf8")).replace(/^\uFEFF/, "");
    const [header] = text.split(/\r?\n/);
    expect(header).toMatch(/^Consignment number,Reference,Custom reference,Site,Despatch date,.*,Price excl GST,GST,Price incl GST,kg CO2e$/);
    expect(await mouseEvents(page)).toBe(0);
  });

  test("a user without can_export is sent home", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    await page.goto("/export");
    await expect(page).not.toHaveURL(/\/export/);
  });
});
