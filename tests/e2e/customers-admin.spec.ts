import { expect, test, type Locator, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Customers administration (issue 16 items 1, 7, 9): from home's Edit Customers, customer service
 * creates a customer and changes its options with the keyboard alone; custom references are added,
 * removed, saved and sorted, and an unsaved row stops the sort with the spec's message.
 */

const ref = (page: Page, n: number) => page.getByRole("textbox", { name: `Reference ${n}`, exact: true });

/** Shift+Tab until `target` has focus: the controls above the one being typed in. */
async function tabBackTo(page: Page, target: Locator, max = 30) {
  for (let i = 0; i < max && !(await target.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Shift+Tab");
  await expect(target).toBeFocused();
}

const NAME = `E2E Freight ${Date.now()}`;
const CODE = `E2E${Date.now().toString(36).toUpperCase()}`.slice(0, 20);

test("customer service creates a customer and edits its options by keyboard: 'Customer was saved.'", async ({ page }) => {
  await signIn(page, "customerservice@example.com");
  await page.goto("/home");
  await countMouse(page);
  await tabTo(page, page.getByRole("link", { name: "Edit Customers" }), 80);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/index_customers$/);
  await expect(page.getByRole("heading", { name: "Live customers" })).toBeVisible();
  await countMouse(page);
  await tabTo(page, page.getByRole("link", { name: "New customer" }), 60);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "New customer", exact: true })).toBeVisible();
  await expect(page.getByTestId("customer-detail")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  // a new customer starts as a test account
  await expect(page.getByLabel("Test Account")).toBeChecked();

  await tabTo(page, page.getByLabel("Name", { exact: true }), 80);
  await page.keyboard.type(NAME);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Code", { exact: true })).toBeFocused();
  await page.keyboard.type(CODE);
  await tabTo(page, page.getByRole("button", { name: "Save" }), 200);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/customers\/\d+\?saved=1$/);
  await expect(page.getByRole("status").filter({ hasText: "Customer was saved." })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Customer administration" })).toBeVisible();
  await expect(page.getByTestId("customer-detail")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);

  // a session timeout of 0 is refused beside its field; 30 is kept, with a merge limit of 4
  const timeout = page.getByLabel("Session timeout (minutes)");
  await tabTo(page, page.getByLabel("Merge limit"), 200);
  // typing a choice's text picks it in a focused select
  await page.keyboard.press("4");
  await expect(page.getByLabel("Merge limit")).toHaveValue("4");
  await tabTo(page, timeout, 200);
  await page.keyboard.type("0");
  await page.keyboard.press("Enter");
  await expect(page.getByText("Session timeout must be a whole number of minutes, at least 1")).toBeVisible();
  await expect(timeout).toHaveAttribute("aria-invalid", "true");
  await expect(timeout).toBeFocused();
  await page.keyboard.press("Backspace");
  await page.keyboard.type("30");
  // customer POD updates depend on customer despatch: unticking it disables them
  await tabTo(page, page.getByLabel("Customer despatch enabled"), 200);
  await page.keyboard.press("Space");
  await expect(page.getByLabel("Customer POD updates")).toBeDisabled();
  await page.keyboard.press("Space");
  await expect(page.getByLabel("Customer POD updates")).toBeEnabled();
  await tabTo(page, page.getByLabel("Customer POD updates"), 5);
  await page.keyboard.press("Space");
  await tabTo(page, page.getByRole("button", { name: "Save" }), 200);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Customer was saved." })).toBeVisible();
  await expect(timeout).toHaveValue("30");
  await expect(page.getByLabel("Merge limit")).toHaveValue("4");
  await expect(page.getByLabel("Customer POD updates")).toBeChecked();
  expect(await mouseEvents(page)).toBe(0);
});

test("custom references: add, remove, save, and no sorting while a row is unsaved", async ({ page }) => {
  await signIn(page, "admin@example.com");
  const made = await page.request.post("/api/customers", {
    headers: { "X-Requested-With": "XMLHttpRequest" },
    data: { name: `${NAME} refs`, code: `${CODE}R`.slice(0, 20), custom_consignment_reference_type: "dropdown_generic" },
  });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: number };
  await page.goto(`/customers/${id}/reference_types`);
  const form = page.getByTestId("reference-types");
  await expect(form).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);

  await tabTo(page, ref(page, 1), 80);
  await page.keyboard.type("Alpha");
  await tabTo(page, page.getByRole("button", { name: "Add row" }), 10);
  await page.keyboard.press("Enter");
  await expect(ref(page, 2)).toBeFocused();
  await page.keyboard.type("Bravo");
  await tabTo(page, page.getByRole("button", { name: "Save" }), 10);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Custom References were saved." })).toBeVisible();
  await expect(ref(page, 1)).toHaveValue("Alpha");
  await expect(ref(page, 2)).toHaveValue("Bravo");

  // an unsaved row: sorting is refused with the spec's message
  await tabTo(page, page.getByRole("button", { name: "Add row" }), 80);
  await page.keyboard.press("Enter");
  await expect(ref(page, 3)).toBeFocused();
  await page.keyboard.type("Charlie");
  await tabBackTo(page, page.getByRole("button", { name: "Move Alpha down" }));
  await page.keyboard.press("Enter");
  await expect(page.getByRole("alert").filter({ hasText: "Please save your Custom References before sorting." })).toBeVisible();

  // removed again, the rows are what is saved: the sort goes through and is stored
  await tabTo(page, page.getByRole("button", { name: "Remove Charlie" }), 30);
  await page.keyboard.press("Enter");
  await expect(ref(page, 3)).toHaveCount(0);
  await tabBackTo(page, page.getByRole("button", { name: "Move Alpha down" }));
  await page.keyboard.press("Enter");
  await expect(ref(page, 1)).toHaveValue("Bravo");
  await expect(ref(page, 2)).toHaveValue("Alpha");
  expect(await mouseEvents(page)).toBe(0);
  await page.reload();
  await expect(ref(page, 1)).toHaveValue("Bravo");
});

test("custom references: one longer than 4,000 characters is refused with the limit, not cut and saved (issue 31 item 8)", async ({ page }) => {
  await signIn(page, "admin@example.com");
  const made = await page.request.post("/api/customers", {
    headers: { "X-Requested-With": "XMLHttpRequest" },
    data: { name: `${NAME} long refs`, code: `${CODE}L`.slice(0, 20), custom_consignment_reference_type: "dropdown_generic" },
  });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: number };
  await page.goto(`/customers/${id}/reference_types`);
  await expect(page.getByTestId("reference-types")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  await tabTo(page, ref(page, 1), 80);
  // pasted text: a field with maxlength would keep the first 4,000 characters without a word
  await page.keyboard.insertText("x".repeat(4001));
  await expect(ref(page, 1)).toHaveValue("x".repeat(4001));
  await tabTo(page, page.getByRole("button", { name: "Save" }), 10);
  await page.keyboard.press("Enter");
  await expect(page.locator("#reference-0-error")).toHaveText("Reference is too long (at most 4000 characters)");
  await expect(ref(page, 1)).toHaveAttribute("aria-invalid", "true");
  const stored = await page.request.get(`/api/customers/${id}/custom_references`, { headers: { "X-Requested-With": "XMLHttpRequest" } });
  expect(JSON.stringify(await stored.json())).not.toContain("x".repeat(100));
  expect(await mouseEvents(page)).toBe(0);
});
