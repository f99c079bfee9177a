import { readFile } from "node:fs/promises";
import { expect, test } from "./support/test";
import { audit } from "./axe";
import { countMouse, signIn } from "./helpers";

/**
 * The reconciliation report (issue 19 point 4; spec 3 section 2), keyboard only: a customer's
 * finance user downloads the template, uploads it filled in (a demo consignment the carrier billed,
 * one that does not exist, one malformed line), reads the summary and downloads the result; an
 * admin sees the Rerate upload, the finance user does not. Axe on the screen before and after.
 */
test("download the template, upload it filled in, read the summary and download the result", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "finance@example.com");
  // a consignment of the finance user's customer that a carrier billed (the demo's allocated lines)
  const lines = (await (await page.request.get("/api/invoice_details?state=allocated&accounting_type=payable&per_page=20", { headers: { Accept: "application/json" } })).json()) as {
    invoice_details: Array<{ consignment_number: string | null; consignment_id: number | null }>;
  };
  const billed = lines.invoice_details.find((l) => l.consignment_id && l.consignment_number)?.consignment_number;
  expect(billed, "the demo has an allocated line of the finance user's customer").toBeTruthy();

  await page.goto("/reconciliation");
  await expect(page.getByRole("heading", { name: "Reconciliation report" })).toBeVisible();
  await countMouse(page);
  await audit(page, "/reconciliation");
  await expect(page.getByLabel("Variance threshold percentage")).toHaveValue("2");
  await expect(page.getByLabel("Variance threshold percentage")).toHaveAttribute("maxlength", "4");
  await expect(page.getByLabel("Threshold amount")).toHaveValue("0.2");
  await expect(page.getByLabel("Threshold amount")).toHaveAttribute("maxlength", "6");
  await expect(page.getByRole("button", { name: "Rerate" })).toHaveCount(0);

  // Download Template, from the keyboard
  await page.getByRole("link", { name: "Download Template" }).focus();
  const templateDownload = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const template = await templateDownload;
  expect(template.suggestedFilename()).toBe("reconciliation_template.csv");
  const templateText = await readFile((await template.path())!, "utf8");
  const [header] = templateText.trim().split("\n");
  expect(header).toBe("consignment_number,charged_amount,charge_weight,from_zone,to_zone");

  // filled in: the billed consignment, one that does not exist, and a line without an amount
  const filled = [header, `${billed},25.00,,,`, "NOSUCH-E2E,10.00,,,", `${billed},,,,`].join("\n");
  await page.getByLabel("Threshold amount").focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("0.5");
  await page.getByLabel("File (csv)").setInputFiles({ name: "carrier-charges.csv", mimeType: "text/csv", buffer: Buffer.from(filled) });
  await page.getByRole("button", { name: "Reconcile" }).focus();
  await page.keyboard.press("Enter");

  const result = page.getByRole("region", { name: /Result of carrier-charges.csv/ });
  await expect(result).toBeVisible();
  const summary = result.getByRole("definition");
  await expect(summary.nth(0)).toHaveText("3"); // lines
  await expect(summary.nth(3)).toHaveText("1"); // not found
  await expect(summary.nth(5)).toHaveText("1"); // skipped
  await expect(result.getByText("line 4: Charged amount is required.")).toBeVisible();
  await expect(result.getByRole("row", { name: /NOSUCH-E2E/ })).toContainText("Consignment not found");
  await expect(result.getByRole("row", { name: new RegExp(`^2 ${billed}`) })).toContainText(/(Within|Outside) thresholds/);
  await expect(page.getByText(/0\.50 of the rated buy/)).toBeVisible();
  await audit(page, "/reconciliation (result)");

  // the result file, from the keyboard
  await result.getByRole("link", { name: "Download results" }).focus();
  const resultDownload = page.waitForEvent("download");
  await page.keyboard.press("Enter");
  const file = await resultDownload;
  expect(file.suggestedFilename()).toBe("carrier-charges_result.csv");
  const text = await readFile((await file.path())!, "utf8");
  expect(text.split("\n")[0]).toContain("line,consignment_number,status,charged_amount,rated_buy,variance,variance_percentage");
  expect(text).toContain("NOSUCH-E2E,Consignment not found");
  expect(text).toContain("4,,Skipped");
  expect(await page.evaluate(() => (window as unknown as { __mouse: number }).__mouse)).toBe(0);
});

test("a threshold that is not a number is refused at its field; admins see the Rerate upload", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto("/reconciliation");
  await expect(page.getByRole("button", { name: "Rerate" })).toBeVisible();
  await page.getByLabel("Variance threshold percentage").fill("abc");
  await page.getByLabel("File (csv)").setInputFiles({ name: "x.csv", mimeType: "text/csv", buffer: Buffer.from("consignment_number,charged_amount\nX1,1\n") });
  await page.getByRole("button", { name: "Reconcile" }).press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "The report could not be run" })).toBeVisible();
  await expect(page.locator("#threshold_percentage-error")).toHaveText(/^Variance threshold percentage must be a number from 0 to 100/);
  await expect(page.getByLabel("Variance threshold percentage")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Variance threshold percentage")).toHaveValue("abc");
  // an empty file is refused at the file field
  await page.getByLabel("Variance threshold percentage").fill("2");
  await page.getByLabel("File (csv)").setInputFiles({ name: "empty.csv", mimeType: "text/csv", buffer: Buffer.from("consignment_number,charged_amount\n") });
  await page.getByRole("button", { name: "Reconcile" }).press("Enter");
  await expect(page.locator("#report-file-error")).toHaveText("The file has no lines to reconcile.");
});
