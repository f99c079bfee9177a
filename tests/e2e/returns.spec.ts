import { expect, test } from "./support/test";
import { signIn } from "./helpers";

test("a return: the sender from the address book, back to the site, with pickup information", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/return");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByTestId("consignment-title")).toHaveText("New Return");
  // the return goes back to the site; the pickup window defaults to 09:00-17:00 on the next business day
  await expect(page.locator("summary", { hasText: "Return to:" })).toContainText("Melbourne DC DANDENONG SOUTH 3175");
  await expect(page.getByLabel("Ready time")).toHaveValue("09:00");
  await expect(page.getByLabel("Closing time")).toHaveValue("17:00");
  await expect(page.getByLabel("Ready date")).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);

  await page.getByTestId("sender_address-name").fill("Adelaide");
  await page.getByRole("option", { name: /Adelaide Office Co/ }).click();
  await page.getByLabel("Contact name").fill("Robin Returns");
  // digits and spaces only
  await page.getByLabel("Phone number").fill("(08) 8000-1234");
  await expect(page.getByLabel("Phone number")).toHaveValue("08 80001234");
  // pickup times step by 15 minutes: 96 times a day, and a blank
  await expect(page.getByLabel("Ready time").locator("option")).toHaveCount(97);
  await expect(page.getByLabel("Ready time").locator("option[value='10:05']")).toHaveCount(0);
  await page.getByLabel("Ready time").selectOption("10:15");
  await page.getByLabel("Additional notes").fill("Please ring the bell at the side door.");
  await expect(page.getByTestId("email-preview")).toContainText("Please ring the bell at the side door.");
  await expect(page.getByTestId("email-preview")).toContainText("Collection should occur within 3 business days.");

  await page.getByLabel("Quantity line 1").fill("1");
  await page.getByLabel("Item type line 1").selectOption({ label: "Carton" });
  await expect(page.getByTestId("rate").first()).toBeVisible();
  await expect(page.getByRole("button", { name: "Despatch + print" })).toBeDisabled();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/return\/\d+$/);
  await expect(page.getByText("Your return has been saved.")).toBeVisible();
  await expect(page.getByTestId("consignment-title")).toHaveText("Despatchable Return Pending");
  await expect(page.getByLabel("Ready time")).toHaveValue("10:15");
  await expect(page.getByLabel("Phone number")).toHaveValue("08 80001234");
  await expect(page.getByRole("button", { name: "Despatch + print" })).toBeEnabled();
  // no e-mail address yet, so no Despatch + email
  await expect(page.getByRole("button", { name: "Despatch + email" })).toBeDisabled();
});

test("a third-party pickup needs both addresses, and says so", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/thirdparty");
  await expect(page.getByTestId("consignment-title")).toHaveText("New Third Party Pickup");
  await page.getByTestId("sender_address-name").fill("Perth");
  await page.getByRole("option", { name: /Perth Outdoor Supplies/ }).click();
  await page.getByLabel("Contact name").fill("Terry Third");
  await page.getByLabel("Phone number").fill("08 9000 0000");
  await page.getByLabel("Quantity line 1").fill("1");
  await page.getByLabel("Item type line 1").selectOption({ label: "Carton" });
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/thirdparty\/\d+$/);
  await expect(page.getByText("Your third party pickup has been saved but is incomplete.")).toBeVisible();
  await page.reload();
  await expect(page.getByText("Third party pickup is incomplete")).toBeVisible();
  await expect(page.getByText("Receiver address is required")).toBeVisible();
  await expect(page.getByTestId("consignment-title")).toHaveText("Open Third Party Pickup Pending");
});
