import { expect, test, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Notification types (issue 14 item 6; spec 2 /index_notification_types and
 * /notification_types/{id?}): a super admin keeps them with the keyboard alone, and the same
 * forms work with JavaScript off.
 */

const row = (page: Page, name: string) => page.getByTestId("notification-types").getByRole("row").filter({ has: page.getByRole("link", { name: `Edit ${name}`, exact: true }) });

test.describe("notification types", () => {
  test("a super admin creates, edits and deletes a type with the keyboard alone", async ({ page }) => {
    await signIn(page, "superadmin@example.com");
    await page.goto("/index_notification_types");
    await expect(page.getByRole("heading", { name: "Notification Types" })).toBeVisible();
    await countMouse(page);

    // new: the link, then name, max length and the field, and Save
    await tabTo(page, page.getByRole("link", { name: "New notification type" }), 40);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "New notification type" })).toBeVisible();
    await tabTo(page, page.getByLabel("Name", { exact: true }), 40);
    await page.keyboard.type("E2E Keys");
    await page.keyboard.press("Tab");
    await expect(page.getByLabel("Max length")).toBeFocused();
    await page.keyboard.type("200");
    await page.keyboard.press("Tab");
    const field = page.getByLabel("Field name");
    await expect(field).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(field).toHaveValue("phone");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Save" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/index_notification_types\?saved=1$/);
    await expect(page.getByRole("status").filter({ hasText: "Notification type was saved." })).toBeVisible();
    await expect(row(page, "E2E Keys")).toContainText("Phone (phone)");
    await expect(row(page, "E2E Keys")).toContainText("200");

    // a duplicate name is refused beside the field, and focus goes to it
    await tabTo(page, page.getByRole("link", { name: "New notification type" }), 40);
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByLabel("Name", { exact: true }), 40);
    await page.keyboard.type("e2e keys");
    await page.keyboard.press("Enter");
    await expect(page.getByText("Name has already been taken")).toBeVisible();
    await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
    await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await tabTo(page, page.getByRole("link", { name: "Back" }), 40);
    await page.keyboard.press("Enter");

    // edit: a new name and no limit, saved with Enter in a field
    await tabTo(page, page.getByRole("link", { name: "Edit E2E Keys", exact: true }), 40);
    await page.keyboard.press("Enter");
    await expect(page.getByRole("heading", { name: "Edit notification type: E2E Keys" })).toBeVisible();
    await tabTo(page, page.getByLabel("Name", { exact: true }), 40);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("E2E Keys edited");
    await page.keyboard.press("Tab");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/index_notification_types\?saved=1$/);
    await expect(row(page, "E2E Keys edited")).toContainText("No limit");
    await expect(row(page, "E2E Keys")).toHaveCount(0);

    // delete
    await tabTo(page, page.getByRole("link", { name: "Edit E2E Keys edited", exact: true }), 40);
    await page.keyboard.press("Enter");
    await tabTo(page, page.getByRole("button", { name: "Delete" }), 40);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/index_notification_types\?deleted=1$/);
    await expect(page.getByRole("status").filter({ hasText: "Notification type was deleted." })).toBeVisible();
    await expect(row(page, "E2E Keys edited")).toHaveCount(0);
    expect(await mouseEvents(page)).toBe(0);
  });

  test("an admin is sent home", async ({ page }) => {
    await signIn(page, "admin@example.com");
    await page.goto("/index_notification_types");
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/notification_types");
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("notification types without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the forms create, refuse, edit and delete", async ({ page }) => {
    await signIn(page, "superadmin@example.com");
    await page.goto("/index_notification_types");
    await page.getByRole("link", { name: "New notification type" }).click();
    await expect(page).toHaveURL(/\/notification_types$/);

    // the server's errors, beside each field, with what was typed kept
    await page.getByLabel("Name", { exact: true }).fill("SMS");
    await page.getByLabel("Field name").selectOption("phone");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("#name-error")).toHaveText("Name has already been taken");
    await expect(page.getByLabel("Name", { exact: true })).toHaveValue("SMS");
    await expect(page.getByLabel("Field name")).toHaveValue("phone");
    await expect(page.getByRole("alert").filter({ hasText: "The notification type was not saved" })).toBeVisible();

    await page.getByLabel("Name", { exact: true }).fill("E2E No JS");
    await page.getByLabel("Max length").fill("160");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page).toHaveURL(/\/index_notification_types\?saved=1$/);
    await expect(page.getByText("Notification type was saved.")).toBeVisible();
    await expect(row(page, "E2E No JS")).toContainText("160");

    await page.getByRole("link", { name: "Edit E2E No JS", exact: true }).click();
    await expect(page.getByLabel("Max length")).toHaveValue("160");
    await page.getByLabel("Field name").selectOption("email");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(row(page, "E2E No JS")).toContainText("E-mail (email)");

    await page.getByRole("link", { name: "Edit E2E No JS", exact: true }).click();
    await page.getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/index_notification_types\?deleted=1$/);
    await expect(page.getByText("Notification type was deleted.")).toBeVisible();
    await expect(row(page, "E2E No JS")).toHaveCount(0);
  });
});
