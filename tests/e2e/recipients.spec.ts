import { expect, test } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Recipients (issue 16 item 5; spec 2 /customers/{id}/index_recipients): a despatcher with
 * can_edit_recipients imports a CSV (bad lines listed under Upload Errors), scrolls the list to
 * load the next 40, and adds a recipient through the locality lookup, with the keyboard alone.
 */

const ACME = 1;
const TAG = `E2E${Date.now().toString(36).toUpperCase()}`;

test("a despatcher imports, scrolls the lazily loaded list and adds a recipient by keyboard", async ({ page }) => {
  await signIn(page, "superdespatcher@example.com");
  await page.goto(`/customers/${ACME}/index_recipients?q=${TAG}`);
  await expect(page.getByTestId("recipients-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);

  // 60 good lines and 2 bad ones
  const lines = ["name,address_line_1,locality,postcode,country"];
  for (let i = 0; i < 60; i++) lines.push(`${TAG} ${String(i).padStart(2, "0")},${i} Pitt Street,SYDNEY,2000,AUSTRALIA`);
  lines.push(`${TAG} bad place,1 Pitt Street,NOWHERE,2000,AUSTRALIA`, `,2 Pitt Street,SYDNEY,2000,AUSTRALIA`);
  await page.getByLabel("File", { exact: true }).setInputFiles({ name: "recipients.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n")) });
  await tabTo(page, page.getByRole("button", { name: "Import file" }), 80);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Recipients imported: 60 added, 2 skipped.")).toBeVisible();
  const errors = page.getByRole("region", { name: "Upload Errors" });
  await expect(errors.getByText("The following lines were skipped due to errors")).toBeVisible();
  await expect(errors.getByText("line 62: 2000 NOWHERE is not a known place")).toBeVisible();
  await expect(errors.getByText("line 63: Name is required")).toBeVisible();

  // the filter is in the URL; the list shows 40, and the next 40 load on scrolling down
  await page.goto(`/customers/${ACME}/index_recipients?q=${TAG}`);
  await expect(page.getByTestId("recipients-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  const rows = page.getByTestId("recipients-table").locator("tbody tr");
  await expect(rows).toHaveCount(40);
  const more = page.waitForResponse((r) => r.url().includes(`/api/customers/${ACME}/recipients?`) && r.url().includes("after="));
  await page.keyboard.press("End");
  await more;
  await expect(rows).toHaveCount(60);
  await expect(rows.last()).toContainText(`${TAG} 59`);

  // a new recipient, its locality picked from the lookup
  await page.keyboard.press("Home");
  await tabTo(page, page.getByRole("link", { name: "New recipient" }), 60);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "New recipient" })).toBeFocused();
  await tabTo(page, page.getByLabel("Special instructions"), 10);
  await page.keyboard.type("Ring the bell");
  await tabTo(page, page.getByLabel("Recipient name"), 10);
  await page.keyboard.type(`${TAG} keyboard`);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Address line 1")).toBeFocused();
  await page.keyboard.type("9 Market Street");
  await tabTo(page, page.getByTestId("address-locality"), 10);
  await page.keyboard.type("SYDNEY");
  await expect(page.getByRole("option").first()).toBeVisible();
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Postcode")).not.toHaveValue("");
  await tabTo(page, page.getByRole("button", { name: "Save recipient" }), 20);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Recipient saved.")).toBeVisible();
  expect(await mouseEvents(page)).toBe(0);
  // it sorts after the imported ones: the filter finds it
  await page.goto(`/customers/${ACME}/index_recipients?q=${encodeURIComponent(`${TAG} k`)}`);
  await expect(page.getByTestId("recipients-table").locator("tbody tr")).toHaveCount(1);
  await expect(page.getByRole("cell", { name: `${TAG} keyboard`, exact: true })).toBeVisible();
  await expect(page.getByRole("cell", { name: "9 Market Street", exact: true })).toBeVisible();
});

test("a despatcher without edit rights reads the list only, and another customer's recipients are not found", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto(`/customers/${ACME}/index_recipients`);
  await expect(page.getByRole("heading", { name: /^Recipients of / })).toBeVisible();
  await expect(page.getByRole("link", { name: "Export all" })).toBeVisible();
  await expect(page.getByRole("link", { name: "New recipient" })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Import recipients" })).toHaveCount(0);
  const other = await page.goto(`/customers/2/index_recipients`);
  expect(other?.status()).toBe(404);
});
