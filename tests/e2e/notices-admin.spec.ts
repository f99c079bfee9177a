import { expect, test, type Browser, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Notices administration (issue 15 item 5; spec 2 /notices and /notice/{id?}): an admin writes a
 * notice in Quill and publishes it with the keyboard alone; a despatcher of that customer then has
 * it in the bell, unseen, and a user of another customer does not.
 */

const HEADER = `E2E depot notice ${Date.now()}`;

async function readerPage(browser: Browser, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, email);
  return page;
}

/** The bell's unseen count as a number (no badge: 0). */
async function unseen(page: Page): Promise<number> {
  const badge = page.getByTestId("notices-bell").getByTestId("unseen-count");
  return (await badge.count()) ? Number(await badge.textContent()) : 0;
}

test("an admin writes and publishes a notice by keyboard; the customer's despatcher sees it in the bell, another customer's user does not", async ({ page, browser }) => {
  const despatcher = await readerPage(browser, "despatcher@example.com");
  await despatcher.goto("/manifests");
  const before = await unseen(despatcher);

  await signIn(page, "admin@example.com");
  await page.goto("/notices");
  await expect(page.getByRole("heading", { name: "Notices", exact: true })).toBeVisible();
  await countMouse(page);

  await tabTo(page, page.getByRole("link", { name: "New notice" }), 60);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "New notice" })).toBeVisible();
  await expect(page.locator('[data-editor="quill"]')).toBeVisible();
  await countMouse(page);

  await tabTo(page, page.getByLabel("Header"), 60);
  await page.keyboard.type(HEADER);
  // a save without content is refused beside the field, and what was typed stays
  await page.keyboard.press("Enter");
  await expect(page.getByText("Content is required")).toBeVisible();
  await expect(page.getByLabel("Header")).toHaveValue(HEADER);
  await expect(page.locator('[data-editor="quill"]')).toBeVisible();
  await tabTo(page, page.getByLabel("Header"), 60);
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Customer")).toBeFocused();
  await expect(page.getByLabel("Customer").locator("option:checked")).toHaveText("Acme Distribution");
  // the publish date is today in dd/mm/yyyy, ten characters
  await expect(page.getByLabel("Publish date")).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
  const editor = page.getByRole("textbox", { name: "Content" });
  await tabTo(page, editor, 20);
  await page.keyboard.type("The Dandenong depot closes at noon on Friday, ");
  // the read-only tags: Tab leaves the editor for them, Enter puts the first at the cursor
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "{{ first_name }}" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(editor).toContainText("{{ first_name }}");
  await tabTo(page, page.getByRole("button", { name: "Save" }), 20);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/notice\/\d+\?created=1$/);
  await expect(page.getByRole("status").filter({ hasText: "Notice created." })).toBeVisible();
  await expect(page.getByTestId("notice-state")).toContainText("Not published yet");

  await tabTo(page, page.getByRole("link", { name: "Back" }), 60);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/notices$/);
  await countMouse(page);
  await tabTo(page, page.getByRole("button", { name: `Publish ${HEADER}` }), 80);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Notice updated." })).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: HEADER })).toContainText("Published");
  // focus stays on the button pressed, now Unpublish, not fallen to the body (issue 31 #9)
  await expect(page.getByRole("button", { name: `Unpublish ${HEADER}` })).toBeFocused();
  expect(await mouseEvents(page)).toBe(0);

  // the despatcher of Acme: one more unseen, the notice in the bell, the tag filled in on home
  await despatcher.reload();
  await expect(despatcher.getByTestId("notices-bell").getByTestId("unseen-count")).toHaveText(String(before + 1));
  await despatcher.getByTestId("notices-bell").locator("summary").focus();
  await despatcher.keyboard.press("Enter");
  await expect(despatcher.getByTestId("notices-bell").getByRole("link", { name: HEADER })).toBeVisible();
  await despatcher.goto("/home");
  await expect(despatcher.locator("#notices")).toContainText("closes at noon on Friday, Dana");

  // a user of another customer has nothing of it
  const stranger = await readerPage(browser, "tester@example.com");
  await stranger.goto("/home");
  await expect(stranger.getByTestId("notices-bell").getByRole("link", { name: HEADER })).toHaveCount(0);
  await expect(stranger.getByText(HEADER)).toHaveCount(0);
});

test("customer service has no Notices button and is sent from /notices to home", async ({ page }) => {
  await signIn(page, "customerservice@example.com");
  await page.goto("/home");
  await expect(page.getByRole("link", { name: "Notices", exact: true })).toHaveCount(0);
  await page.goto("/notices");
  await expect(page).not.toHaveURL(/\/notices/);
});
