import { expect, test } from "./support/test";
import { PDFDocument } from "pdf-lib";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Custom e-mails and declarations (issue 16 item 8), keyboard only: an admin words Acme's return
 * e-mail in Quill, saves it and sees the preview with the tags filled in, then resets it; and
 * uploads a PDF declaration through the file chooser opened from the keyboard.
 */

const ACME = 1;

test("an admin edits the return e-mail wording and saves it by keyboard, then resets it", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto(`/customers/${ACME}/custom_emails`);
  await expect(page.getByRole("heading", { name: /^Custom e-mails of / })).toBeVisible();
  await expect(page.getByTestId("custom-email-return")).toContainText("Default");
  await countMouse(page);

  await tabTo(page, page.getByRole("link", { name: "Return e-mail" }), 80);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/customers/${ACME}/custom_emails/return$`));
  await expect(page.locator('[data-editor="quill"]').first()).toBeVisible();
  await countMouse(page);

  await tabTo(page, page.getByLabel("Subject"), 80);
  await page.keyboard.type("E2E pickup {{ consignment_number }}");
  const body = page.getByRole("textbox", { name: "Body" });
  await tabTo(page, body, 40);
  await page.keyboard.type("Your collection for ");
  // the read-only tags: Tab leaves the editor for them, Enter puts the first at the cursor
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "{{ receiver_name }}" }).nth(1)).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(body).toContainText("{{ receiver_name }}");
  await tabTo(page, page.getByRole("button", { name: "Save" }), 80);
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/custom_emails\/return\?done=saved$/);
  await expect(page.getByRole("status").filter({ hasText: "Custom e-mail was saved." })).toBeVisible();
  await expect(page.getByTestId("preview-subject")).toHaveText("Subject: E2E pickup ABC000123");
  await expect(page.getByTestId("preview")).toContainText("Your collection for Brisbane Hardware");
  await expect(page.getByTestId("custom-email-return")).toContainText("Custom");
  expect(await mouseEvents(page)).toBe(0);

  await countMouse(page);
  await tabTo(page, page.getByRole("button", { name: "Reset to default" }), 120);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?done=reset$/);
  await expect(page.getByRole("status").filter({ hasText: "Custom e-mail was reset to the default." })).toBeVisible();
  await expect(page.getByTestId("custom-email-return")).toContainText("Default");
  expect(await mouseEvents(page)).toBe(0);
});

test("an admin uploads a PDF declaration by keyboard", async ({ page }) => {
  const doc = await PDFDocument.create();
  doc.addPage([200, 200]).drawText("Safety data sheet", { x: 10, y: 100, size: 12 });
  const pdf = Buffer.from(await doc.save());
  const name = `E2E SDS ${Date.now()}`;

  await signIn(page, "admin@example.com");
  await page.goto(`/customers/${ACME}/index_declarations`);
  await expect(page.getByRole("heading", { name: /^Declarations of / })).toBeVisible();
  await countMouse(page);
  await tabTo(page, page.getByRole("link", { name: "New", exact: true }), 80);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "New declaration" })).toBeVisible();
  await countMouse(page);

  await tabTo(page, page.getByLabel("Name"), 80);
  await page.keyboard.type(name);
  await tabTo(page, page.getByLabel("PDF file"), 10);
  const chooser = page.waitForEvent("filechooser");
  await page.keyboard.press("Space");
  await (await chooser).setFiles({ name: "sds.pdf", mimeType: "application/pdf", buffer: pdf });
  await tabTo(page, page.getByRole("button", { name: "Save" }), 20);
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/declarations\/\d+\?saved=1$/);
  await expect(page.getByRole("status").filter({ hasText: "Declaration was saved." })).toBeVisible();
  await expect(page.getByTestId("declaration-file")).toContainText("sds.pdf");
  await tabTo(page, page.getByRole("link", { name: "Back" }), 80);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Every item type");
  expect(await mouseEvents(page)).toBe(0);
});
