import { expect, test, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Notification preferences (issue 14 item 6; spec 2 /{parentType}/{parentId}/notification_configs):
 * an admin edits a customer's template in Quill with the keyboard only, a tag inserted from the
 * list, and the same form saves without JavaScript through its textarea.
 */

const json = { headers: { Accept: "application/json" } };

/** The working customer's preferences, from the home page's button, showing one type and state. */
async function openPreferences(page: Page, type: string, state: string) {
  await page.goto("/home");
  await page.getByRole("link", { name: "Notification Preferences" }).click();
  await expect(page.getByRole("heading", { name: "Notification Preferences · Acme Distribution" })).toBeVisible();
  await page.getByLabel("Notification type").selectOption({ label: type });
  await page.getByLabel("Trigger consignment state").selectOption(state);
  await page.getByRole("button", { name: "Show" }).click();
  await expect(page).toHaveURL(new RegExp(`state=${state}`));
  return Number(new URL(page.url()).pathname.split("/")[2]);
}

/** The customer's own template for the type and state, as the API answers it. */
async function stored(page: Page, customerId: number, type: string, state: string) {
  const res = await page.request.get(`/api/customers/${customerId}/notification_configs`, json);
  const { notification_configs } = (await res.json()) as { notification_configs: Array<{ id: number; notification_type_name: string; consignment_state: string; template: string; status: boolean }> };
  return notification_configs.find((c) => c.notification_type_name === type && c.consignment_state === state);
}

/**
 * No template of the signed-in user's customer for the type and state: before a test (a run
 * again on the same database starts as the first did) and after it (the other specs' consignments
 * send no notification this one set up).
 */
async function removeTemplate(page: Page, type: string, state: string) {
  const me = (await (await page.request.get("/api/users/current", json)).json()) as { customer: { id: number } };
  const found = await stored(page, me.customer.id, type, state);
  if (found) expect((await page.request.delete(`/api/customers/${me.customer.id}/notification_configs/${found.id}`, json)).status()).toBe(200);
}

test.describe("notification preferences", () => {
  test.afterEach(async ({ page }) => removeTemplate(page, "Email", "picked_up"));

  test("an admin edits a customer's template in Quill with the keyboard, inserting a tag from the list", async ({ page }) => {
    await signIn(page, "admin@example.com");
    await removeTemplate(page, "Email", "picked_up");
    const customerId = await openPreferences(page, "Email", "picked_up");
    await expect(page.getByTestId("notification-preferences")).toHaveAttribute("data-hydrated", "true");
    await expect(page.locator('[data-editor="quill"]')).toBeVisible();
    const editor = page.getByRole("textbox", { name: "Template" });
    await expect(editor).toBeVisible();

    await countMouse(page);
    // Tab reaches the editor from the control before it (through the formatting toolbar's one stop)
    await page.getByLabel("Enabled: send this notification").focus();
    await tabTo(page, editor, 3);
    await page.keyboard.type("Hello ");
    // Tab leaves the editor for the tags: one stop, the arrow keys choose, Enter inserts at the cursor
    await page.keyboard.press("Tab");
    const first = page.getByRole("toolbar", { name: "Insert a tag" }).getByRole("button", { name: "{{ receiver_name }}" });
    await expect(first).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowLeft");
    await expect(first).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(editor).toBeFocused();
    await page.keyboard.type(", your goods have been collected.");
    await expect(editor).toHaveText("Hello {{ receiver_name }}, your goods have been collected.");

    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Save" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByText("Notification Preferences were saved.")).toBeVisible();
    await expect(page.getByTestId("standing")).toHaveText("This customer has its own template.");
    await expect(page.getByRole("textbox", { name: "Template" })).toHaveText("Hello {{ receiver_name }}, your goods have been collected.");
    expect(await stored(page, customerId, "Email", "picked_up")).toMatchObject({ status: true, template: "<p>Hello {{ receiver_name }}, your goods have been collected.</p>" });

    // an unknown tag is refused beside the editor, with the spec's alert; the text stays to correct
    await page.getByRole("textbox", { name: "Template" }).press("End");
    await page.keyboard.type(" {{ receiver_mobile }}");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect(page.getByRole("alert").filter({ hasText: "Failed to save Notification Preferences." })).toBeVisible();
    await expect(page.locator("#template-error")).toContainText("Unknown tag {{ receiver_mobile }}");
    await expect(page.getByRole("textbox", { name: "Template" })).toContainText("{{ receiver_mobile }}");
    expect((await stored(page, customerId, "Email", "picked_up"))?.template).toBe("<p>Hello {{ receiver_name }}, your goods have been collected.</p>");
    expect(await mouseEvents(page)).toBe(0);
  });
});

test.describe("notification preferences without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test.afterEach(async ({ page }) => removeTemplate(page, "SMS", "in_transit"));

  test("the same form saves through its textarea", async ({ page }) => {
    await signIn(page, "admin@example.com");
    await removeTemplate(page, "SMS", "in_transit");
    const customerId = await openPreferences(page, "SMS", "in_transit");
    const template = page.getByRole("textbox", { name: "Template" });
    await expect(template).toHaveValue("");
    // the tags to type from, as a list
    await expect(page.getByText("{{ consignment_number }}", { exact: true })).toBeVisible();

    await template.fill("");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Failed to save Notification Preferences.")).toBeVisible();
    await expect(page.locator("#template-error")).toHaveText("Notification template is required");

    await page.getByRole("textbox", { name: "Template" }).fill("<p>Parcel {{ consignment_number }} is in transit with {{ carrier_name }}</p>");
    await page.getByLabel("Enabled: send this notification").uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Notification Preferences were saved.")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Template" })).toHaveValue("<p>Parcel {{ consignment_number }} is in transit with {{ carrier_name }}</p>");
    await expect(page.getByLabel("Enabled: send this notification")).not.toBeChecked();
    expect(await stored(page, customerId, "SMS", "in_transit")).toMatchObject({ status: false, template: "<p>Parcel {{ consignment_number }} is in transit with {{ carrier_name }}</p>" });
  });
});
