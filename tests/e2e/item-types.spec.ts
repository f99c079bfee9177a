import { expect, test, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Item types (issue 16 item 6; spec 2 /customers/{id}/index_item_types and item_types/{id?}): a
 * customer's super despatcher creates an item type, reorders the list and imports a CSV with the
 * keyboard alone.
 */

const ACME = 1;
const LIST = `/customers/${ACME}/index_item_types`;
const ready = (page: Page, testId: string) => expect(page.getByTestId(testId)).toHaveAttribute("data-hydrated", "true");
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const rows = (page: Page) => page.getByTestId("item-type-row").locator("td:nth-child(2)");

test.beforeEach(async ({ page }) => {
  await signIn(page, "superdespatcher@example.com");
});

test("creates an item type: pallet vendor, weight rounded to the increments, then the vendor resets when it is no pallet", async ({ page }) => {
  const name = `E2E crate ${Date.now()}`;
  await page.goto(`/customers/${ACME}/item_types`);
  await ready(page, "item-type-detail");
  await countMouse(page);
  // the defaults of a new item type
  await expect(field(page, "Type")).toHaveValue("Carton");
  await expect(field(page, "Label count")).toHaveValue("1");
  await expect(field(page, "Unit of measurement")).toHaveValue("metric");

  await tabTo(page, field(page, "Description"), 40);
  await page.keyboard.type(name);
  await page.keyboard.press("Tab");
  await expect(field(page, "Type")).toBeFocused();
  await field(page, "Type").selectOption("Pallet");
  await tabTo(page, field(page, "Pallet vendor"), 5);
  await field(page, "Pallet vendor").selectOption("1");
  await tabTo(page, field(page, "Length"), 5);
  await page.keyboard.type("120");
  await tabTo(page, field(page, "Weight"), 5);
  await page.keyboard.type("10.2");
  await page.keyboard.press("Tab");
  await expect(field(page, "Increments")).toBeFocused();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("0.5");
  await page.keyboard.press("Enter");

  await expect(page.getByText("Item type was saved.")).toBeVisible();
  await expect(page).toHaveURL(/\/item_types\/\d+\?saved=1$/);
  await ready(page, "item-type-detail");
  await expect(field(page, "Weight")).toHaveValue("10.5");
  await expect(field(page, "Pallet vendor")).toHaveValue("1");

  // no longer a pallet: the vendor goes back to Plain; a bad field is named beside it
  await tabTo(page, field(page, "Type"), 40);
  await field(page, "Type").selectOption("Skid");
  await tabTo(page, field(page, "Length"), 10);
  await page.keyboard.press("Control+A");
  await page.keyboard.type("12345");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Length must be a number of up to 4 digits (2 decimals)")).toBeVisible();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("130");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Item type was saved.")).toBeVisible();
  await ready(page, "item-type-detail");
  await expect(field(page, "Pallet vendor")).toHaveValue("0");
  await expect(field(page, "Length")).toHaveValue("130");
  expect(await mouseEvents(page)).toBe(0);
});

/** The list's background POST that saves a new order, answered. */
const orderSaved = (page: Page) => page.waitForResponse((r) => r.request().method() === "POST" && r.url().includes("index_item_types") && r.ok());

test("reorders the list from the keyboard, with Move down and Alt+ArrowUp", async ({ page }) => {
  await page.goto(LIST);
  await ready(page, "item-types-list");
  await countMouse(page);
  const before = await rows(page).allTextContents();
  expect(before.length).toBeGreaterThan(2);
  const [first, second] = before;

  await tabTo(page, page.getByRole("button", { name: `Move ${first} down` }), 80);
  // the order is saved in the background: the reload below must wait for it, or it shows the old order
  let saved = orderSaved(page);
  await page.keyboard.press("Enter");
  await expect(rows(page).nth(0)).toHaveText(second!);
  await expect(rows(page).nth(1)).toHaveText(first!);
  await expect(page.getByTestId("order-announcement")).toHaveText(`${first} moved to position 2 of ${before.length}.`);
  // the moved row's button keeps the focus, and the order is saved
  await expect(page.getByRole("button", { name: `Move ${first} down` })).toBeFocused();
  expect(await mouseEvents(page)).toBe(0);
  await saved;
  await page.reload();
  await ready(page, "item-types-list");
  await expect(rows(page).nth(1)).toHaveText(first!);

  await countMouse(page);
  await tabTo(page, page.getByRole("button", { name: `Move ${first} up` }), 80);
  saved = orderSaved(page);
  await page.keyboard.press("Alt+ArrowUp");
  await expect(rows(page).nth(0)).toHaveText(first!);
  await expect(page.getByTestId("order-announcement")).toHaveText(`${first} moved to position 1 of ${before.length}.`);
  expect(await mouseEvents(page)).toBe(0);
  await saved;
  await page.reload();
  await ready(page, "item-types-list");
  expect(await rows(page).allTextContents()).toEqual(before);
});

test("imports a CSV: the good row is added, the bad line is listed with its reason", async ({ page }) => {
  const name = `E2E imported ${Date.now()}`;
  await page.goto(LIST);
  await ready(page, "item-types-list");
  await countMouse(page);
  await field(page, "Import file (csv)").setInputFiles({
    name: "item_types.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(`description,type,unit_of_measurement,vendor,length,width,height,weight,increments,label_count,manual_handling\n${name},Satchel,metric,plain,30,20,5,1,0.5,1,no\nBroken,Crate,,,,,,,,,\n`),
  });
  await tabTo(page, page.getByRole("button", { name: "Import", exact: true }), 120);
  await page.keyboard.press("Enter");
  await expect(page.getByText("Item types imported: 1 added, 1 skipped.")).toBeVisible();
  await expect(page.getByRole("region", { name: "Upload Errors" })).toContainText("line 3: Type must be Pallet, Skid, Carton or Satchel");
  await expect(page.getByRole("region", { name: "Imported item types" })).toContainText(`line 2: ${name} (Satchel)`);
  await expect(rows(page).last()).toHaveText(name);
  expect(await mouseEvents(page)).toBe(0);
});
