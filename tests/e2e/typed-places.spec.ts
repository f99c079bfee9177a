import { expect, test, type Page } from "./support/test";
import { signIn } from "./helpers";

/**
 * Without JavaScript there is no locality typeahead: a person types the locality and the server
 * resolves it, offers a choice among matches, or says none matches (issue 13 §4 item 6).
 */
test.use({ javaScriptEnabled: false });

async function typedConsignment(page: Page, reference: string, locality: string) {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await page.getByLabel("Reference", { exact: true }).fill(reference);
  await page.getByLabel("Recipient name").fill("Typed Places Pty Ltd");
  await page.locator("[name='receiver_address.address_line_1']").fill("1 Typed Street");
  await page.locator("[name='receiver_address.locality']").fill(locality);
  await page.getByLabel("Quantity line 1").fill("1");
  await page.getByLabel("Item type line 1").selectOption({ label: "Carton" });
  for (const [f, v] of [["Length", "40"], ["Width", "30"], ["Height", "30"], ["Dead weight", "8"]]) await page.getByLabel(`${f} line 1`).fill(v!);
  await page.getByRole("button", { name: "Get rates" }).click();
}

test.describe("the consignment screen", () => {
  test("a locality only one place has: Get rates fills its postcode and state and shows the rates", async ({ page }) => {
    await typedConsignment(page, "TYPED-UNIQUE", "rivervale");
    await expect(page.getByTestId("rate").first()).toBeVisible();
    await expect(page.getByText(/Invalid input|Cannot rate yet/)).toHaveCount(0);
    await expect(page.locator("[name='receiver_address.postcode']")).toHaveValue("6103");
    await expect(page.locator("[name='receiver_address.region']")).toHaveValue("WA");
    await expect(page.getByLabel("Reference", { exact: true })).toHaveValue("TYPED-UNIQUE");
    // and it saves, complete
    await page.locator("input[name=rate]").first().check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page).toHaveURL(/\/consignment\/\d+\?saved=complete$/);
    await expect(page.getByTestId("consignment-title")).toHaveText("Despatchable consignment Pending");
  });

  test("a locality several places have: a choice in the address, reached by keyboard; choosing one rates", async ({ page }) => {
    await typedConsignment(page, "TYPED-CHOICE", "Richmond");
    await expect(page.getByText("Cannot rate yet: Choose the receiver's locality")).toBeVisible();
    const choice = page.getByRole("group", { name: "Recipient locality: choose one" });
    await expect(choice.getByRole("radio")).toHaveCount(6);
    // what was typed is kept
    await expect(page.getByLabel("Reference", { exact: true })).toHaveValue("TYPED-CHOICE");
    await expect(page.getByLabel("Recipient name")).toHaveValue("Typed Places Pty Ltd");
    await expect(page.getByLabel("Dead weight line 1")).toHaveValue("8");
    // keyboard: from the locality, Tab reaches the choice and the arrow keys move through it
    await page.locator("[name='receiver_address.locality']").focus();
    for (let i = 0; i < 8 && !(await choice.getByRole("radio").first().evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await expect(choice.getByRole("radio").first()).toBeFocused();
    await choice.getByRole("radio", { name: "RICHMOND VIC 3121" }).check();
    await page.getByRole("button", { name: "Get rates" }).click();
    await expect(page.getByTestId("rate").first()).toBeVisible();
    await expect(page.locator("[name='receiver_address.postcode']")).toHaveValue("3121");
    await expect(page.locator("[name='receiver_address.region']")).toHaveValue("VIC");
    await expect(page.getByRole("group", { name: "Recipient locality: choose one" })).toHaveCount(0);
  });

  test("a locality no place has: the field says so, in words", async ({ page }) => {
    await typedConsignment(page, "TYPED-NONE", "Xyzville");
    await expect(page.getByText('No locality matches "Xyzville" in Australia').first()).toBeVisible();
    await expect(page.locator("[name='receiver_address.locality']")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText("Invalid input")).toHaveCount(0);
    await expect(page.getByLabel("Reference", { exact: true })).toHaveValue("TYPED-NONE");
  });
});

test.describe("quick quote", () => {
  async function quickQuote(page: Page, locality: string) {
    await signIn(page, "despatcher@example.com");
    await page.goto("/quick_quote");
    await page.getByLabel("Receiver locality").fill(locality);
    for (const [f, v] of [["Length", "40"], ["Width", "30"], ["Height", "30"], ["Weight", "10"]]) await page.getByLabel(`${f} line 1`).fill(v!);
    await page.getByRole("button", { name: "Get quotes" }).click();
  }

  test("a locality only one place has is quoted", async ({ page }) => {
    await quickQuote(page, "Rivervale");
    await expect(page.getByTestId("quick-quote").first()).toBeVisible();
    await expect(page.getByLabel("Receiver postcode")).toHaveValue("6103");
  });

  test("several places: choose one, then quoted", async ({ page }) => {
    await quickQuote(page, "Richmond");
    await expect(page.getByRole("alert")).toHaveText("Choose the receiver's locality");
    await expect(page.getByTestId("quick-quote")).toHaveCount(0);
    await page.getByRole("group", { name: "Receiver locality: choose one" }).getByRole("radio", { name: "RICHMOND TAS 7025" }).check();
    await page.getByRole("button", { name: "Get quotes" }).click();
    await expect(page.getByTestId("quick-quote").first()).toBeVisible();
    await expect(page.getByLabel("Receiver postcode")).toHaveValue("7025");
    await expect(page.getByLabel("Weight line 1")).toHaveValue("10");
  });

  test("a locality no place has says so", async ({ page }) => {
    await quickQuote(page, "Xyzville");
    await expect(page.getByRole("alert")).toHaveText('No locality matches "Xyzville" in Australia');
    await expect(page.getByTestId("quick-quote")).toHaveCount(0);
  });
});
