import { expect, test, type Locator, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Sites and carrier accounts (issue 16 items 2 and 3): an admin creates a site and then a carrier
 * account for it with the keyboard alone, and sees "Site was saved.", a refused account's
 * "There was an error saving the Account." and then "Account was saved." with the remaining numbers.
 */

const ACME = 1;
const CODE = `E2E${Date.now().toString(36).toUpperCase().slice(-5)}`;

/** Focus by keyboard-free means (no mouse event) and type, as a person tabbing there would. */
async function typeInto(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

test("an admin creates a site and then an account for it by keyboard, with the spec's messages", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto(`/customers/${ACME}/index_sites`);
  await expect(page.getByRole("heading", { name: "Sites", exact: true })).toBeVisible();
  await countMouse(page);

  await tabTo(page, page.getByRole("link", { name: "New Site" }), 60);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: /^New site for / })).toBeVisible();

  await tabTo(page, page.getByLabel("Code", { exact: true }), 60);
  await page.keyboard.type(CODE);
  await typeInto(page, page.getByLabel("Site name"), `E2E site ${CODE}`);
  await typeInto(page, page.getByLabel("Address line 1"), "10 Keyboard Road");
  // the locality typed is looked up by the server: postcode and region come from the place found
  await typeInto(page, page.getByLabel("Locality"), "DANDENONG SOUTH");
  await page.keyboard.press("Escape");
  await page.getByLabel("Opening time").focus();
  await page.getByLabel("Opening time").selectOption("07:00");
  await page.getByLabel("Closing time").selectOption("17:30");
  await page.getByLabel("Time zone").selectOption("Australia/Melbourne");
  await page.getByLabel("Code", { exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Site was saved.")).toBeVisible();
  await expect(page.getByRole("heading", { name: `Site: E2E site ${CODE}` })).toBeVisible();
  await expect(page.getByLabel("Postcode", { exact: true })).toHaveValue("3175");

  await tabTo(page, page.getByRole("link", { name: "New Account" }), 120);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: `New account for site E2E site ${CODE}` })).toBeVisible();
  await tabTo(page, page.getByLabel("Carrier", { exact: true }), 60);
  await page.getByLabel("Carrier", { exact: true }).selectOption({ label: "Simulated Express" });
  await typeInto(page, page.getByLabel("Account number"), `ACC${CODE}`);
  const consignment = page.getByRole("group", { name: "Consignment numbers" });
  const manifest = page.getByRole("group", { name: "Manifest numbers" });
  await typeInto(page, consignment.getByLabel("Prefix"), "EE");
  await typeInto(page, consignment.getByLabel("Digits"), "8");
  await typeInto(page, consignment.getByLabel("Range start"), "500");
  // an end before the start is refused beside the field, with the spec's message
  await typeInto(page, consignment.getByLabel("Range end"), "100");
  await typeInto(page, manifest.getByLabel("Digits"), "6");
  await typeInto(page, manifest.getByLabel("Range start"), "1");
  await typeInto(page, manifest.getByLabel("Range end"), "999");
  await typeInto(page, page.getByLabel(/^Add a note/), "Set up by keyboard");
  await page.getByLabel("Account number").focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("There was an error saving the Account.")).toBeVisible();
  await expect(page.getByText("Range end must not be less than range start")).toBeVisible();
  await expect(consignment.getByLabel("Range end")).toBeFocused();

  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type("1499");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Account was saved.")).toBeVisible();
  await expect(page.getByTestId("consignment-remaining")).toHaveText("1000");
  await expect(page.getByTestId("account-notes")).toContainText("Set up by keyboard");
  // an admin sees auto despatch but may not change it
  await expect(page.getByLabel("Auto despatch")).toBeDisabled();

  await tabTo(page, page.getByRole("link", { name: "Back to site" }), 120);
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("site-accounts")).toContainText(`ACC${CODE}`);
  expect(await mouseEvents(page)).toBe(0);
});
