import { expect, test } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Users administration (issue 16 item 4; spec 2 /customers/{id}/index_users and /users/{id?}): an
 * admin creates a despatcher with a site by keyboard alone, using the generated-password modal
 * (focus stays inside it and comes back to its button; "copied" hides after 3 s), and saves.
 */

const ACME = 1;
const EMAIL = `e2e-user-${Date.now()}@example.org`;

test("an admin creates a despatcher with a site and a generated password, by keyboard alone", async ({ page, browser }) => {
  test.setTimeout(60_000);
  await signIn(page, "admin@example.com");
  await page.goto(`/customers/${ACME}/index_users`);
  await expect(page.getByRole("heading", { name: "Users of Acme Distribution" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /Live users/ })).toBeVisible();
  await countMouse(page);

  await tabTo(page, page.getByRole("link", { name: "New", exact: true }), 60);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "New user" })).toBeVisible();
  await expect(page.getByTestId("user-editor")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);

  await tabTo(page, page.getByLabel("Email"), 60);
  await page.keyboard.type(EMAIL);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Full name")).toBeFocused();
  await page.keyboard.type("Eddie Keyboard");
  // a new user is a despatcher unless told otherwise, so their sites are offered
  await expect(page.getByLabel("Role")).toHaveValue("despatcher");
  await tabTo(page, page.getByRole("checkbox", { name: "Melbourne DC (MEL)" }), 20);
  await page.keyboard.press("Space");
  await expect(page.getByRole("checkbox", { name: "Melbourne DC (MEL)" })).toBeChecked();
  await tabTo(page, page.getByLabel("Default site"), 20);
  await page.keyboard.type("Melb");
  await expect(page.getByLabel("Default site").locator("option:checked")).toHaveText("Melbourne DC (MEL)");
  await tabTo(page, page.getByRole("checkbox", { name: "Can book" }), 20);
  await page.keyboard.press("Space");

  // the generated-password modal
  const opener = page.getByRole("button", { name: "Generate password" });
  await tabTo(page, opener, 30);
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("generate-password-dialog");
  await expect(dialog).toBeVisible();
  const generated = dialog.getByLabel("Generated password", { exact: true });
  // it opens on the password, not on Close (issue 31 #9)
  await expect(generated).toBeFocused();
  await expect(generated).toHaveValue(/^(?=.*[a-z])(?=.*[A-Z])(?=(?:.*\d){2}).{10,}$/);
  const password = await generated.inputValue();
  // focus is trapped: Tab after Tab stays inside the modal
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await tabTo(page, dialog.getByRole("button", { name: "Copy" }), 10);
  await page.keyboard.press("Enter");
  const copied = page.getByTestId("password-copied");
  await expect(copied).toHaveText("copied");
  const shownAt = Date.now();
  await expect(copied).toHaveText("", { timeout: 6000 });
  // it hides after 3 s: not at once, and not much later
  expect(Date.now() - shownAt).toBeGreaterThan(2000);
  await tabTo(page, dialog.getByRole("button", { name: "Use this password" }), 10);
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue(password);
  await expect(page.getByLabel("Password confirmation")).toHaveValue(password);

  // Escape closes the modal too, and focus comes back to the button
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();

  await tabTo(page, page.getByRole("button", { name: "Save" }), 30);
  await page.keyboard.press("Enter");
  await expect(page.getByText("User was saved.")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Edit user: Eddie Keyboard" })).toBeVisible();
  await expect(page.getByRole("checkbox", { name: "Melbourne DC (MEL)" })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Can book" })).toBeChecked();
  // after the save the password fields start blank again (blank keeps the password)
  await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
  expect(await mouseEvents(page)).toBe(0);

  // the new despatcher signs in with the generated password
  const theirs = await (await browser.newContext()).newPage();
  await theirs.goto("/login");
  await theirs.getByLabel("E-mail").fill(EMAIL);
  await theirs.getByLabel("Password").fill(password);
  await theirs.getByLabel("Password").press("Enter");
  await expect(theirs).not.toHaveURL(/\/login/);
});

test("a refused save keeps what was typed and says 'There was an error saving the user.'", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto(`/customers/${ACME}/users`);
  await expect(page.getByTestId("user-editor")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  await tabTo(page, page.getByLabel("Email"), 60);
  await page.keyboard.type("despatcher@example.com");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Duplicate Person");
  await tabTo(page, page.getByLabel("Password", { exact: true }), 40);
  await page.keyboard.type("Goodpassword12");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Goodpassword12");
  await page.keyboard.press("Enter");
  await expect(page.getByText("There was an error saving the user.")).toBeVisible();
  await expect(page.getByText("Email has already been taken")).toBeVisible();
  await expect(page.getByLabel("Email")).toBeFocused();
  await expect(page.getByLabel("Full name")).toHaveValue("Duplicate Person");
  expect(await mouseEvents(page)).toBe(0);
});
