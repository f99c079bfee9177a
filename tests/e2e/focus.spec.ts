import { expect, test, type Locator, type Page } from "./support/test";
import { importPayableInvoice } from "./finance-data";
import { countMouse, despatchedSimex, mouseEvents, setUserFlags, signIn, tabTo } from "./helpers";

/**
 * Focus after a submit (issue 31 #9), by keyboard alone. A refused save sends focus to the first
 * field marked: with JavaScript FocusAfterSubmit (app/components/FocusAfterSubmit.tsx) moves it;
 * without, the page answering the post carries autofocus on that field (entry.server.tsx).
 * Covered elsewhere and not repeated here: Publish on /notices (notices-admin), the store's refused
 * save and its new key (store), the Tracking URL dialog (tracking), the generated password (users-admin).
 */

/** Enter on a control once it takes input; focus() is the keyboard's way to a control far down a long form. */
const press = async (page: Page, target: Locator) => {
  await expect(target).toBeEnabled();
  await target.focus();
  await page.keyboard.press("Enter");
};

/** The page's first field marked invalid (in main, as FocusAfterSubmit and the autofocus look). */
const firstInvalid = (page: Page) => page.locator('main [aria-invalid="true"]').first();

test("enquiry modal: a refused send stays in the modal and focuses Subject", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "despatcher@example.com");
  const { id } = await despatchedSimex(page, "E2E-FOCUS-ENQ", { name: "Focus Receiver" });
  await page.goto(`/consignment/${id}`);
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  await tabTo(page, page.getByRole("button", { name: "Raise enquiry" }), 150);
  await page.keyboard.press("Enter");
  const dialog = page.getByTestId("enquiry-dialog");
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole("button", { name: "Send enquiry" }), 12);
  await page.keyboard.press("Enter");
  await expect(dialog.getByLabel("Subject")).toHaveAttribute("aria-invalid", "true");
  await expect(dialog.getByLabel("Subject")).toBeFocused();
  // corrected in the modal, it is sent
  await page.keyboard.type(`Focus ${Date.now()}`);
  await tabTo(page, dialog.getByRole("button", { name: "Send enquiry" }), 12);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/consignment/${id}/enquiries\\?done=created$`));
  expect(await mouseEvents(page)).toBe(0);
});

test("without JavaScript a refused enquiry comes back with Subject autofocused", async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  try {
    await signIn(page, "despatcher@example.com");
    await page.goto("/enquiries");
    // the form's disclosure opens without a script
    await tabTo(page, page.getByTestId("new-enquiry").locator("summary"), 40);
    await page.keyboard.press("Enter");
    const send = page.getByTestId("new-enquiry").getByRole("button", { name: "Send enquiry" });
    await tabTo(page, send, 40);
    await page.keyboard.press("Enter");
    const subject = page.getByTestId("new-enquiry").getByLabel("Subject");
    await expect(subject).toHaveAttribute("aria-invalid", "true");
    await expect(subject).toHaveAttribute("autofocus", "");
    await expect(subject).toBeFocused();
    await expect(page.locator("[autofocus]")).toHaveCount(1);
  } finally {
    await context.close();
  }
});

test("template editor: a refused save focuses the first field marked, with and without JavaScript", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@example.com");
  await page.goto("/carrier_invoice_config");
  await expect(page.getByRole("heading", { name: "New invoice template" })).toBeVisible();
  await page.waitForLoadState("networkidle");
  await countMouse(page);
  // nothing typed: the name is the first field refused
  await press(page, page.getByRole("button", { name: "Save", exact: true }).last());
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Name", { exact: true })).toBeFocused();
  expect(await mouseEvents(page)).toBe(0);

  const context = await browser.newContext({ javaScriptEnabled: false });
  const plain = await context.newPage();
  try {
    await signIn(plain, "admin@example.com");
    await plain.goto("/carrier_invoice_config");
    await press(plain, plain.getByRole("button", { name: "Save", exact: true }).last());
    const name = plain.getByLabel("Name", { exact: true });
    await expect(name).toHaveAttribute("aria-invalid", "true");
    await expect(name).toHaveAttribute("autofocus", "");
    await expect(name).toBeFocused();
  } finally {
    await context.close();
  }
});

test("invoice line modal: a refused save focuses the first field marked", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin@example.com");
  const invoice = await importPayableInvoice(page.request, `E2E-FOCUS-${Date.now()}`);
  try {
    await page.goto(`/invoice/${invoice.id}?detail=${invoice.lineIds[0]}`);
    const dialog = page.getByTestId("line-dialog");
    await expect(dialog).toBeVisible();
    await page.waitForLoadState("networkidle");
    await countMouse(page);
    const date = dialog.getByLabel("Despatch date");
    await tabTo(page, date, 40);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("31/02/2026");
    const quantity = dialog.getByLabel("Quantity");
    await tabTo(page, quantity, 10);
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("many");
    await tabTo(page, dialog.getByRole("button", { name: "Save", exact: true }), 40);
    await page.keyboard.press("Enter");
    await expect(date).toHaveAttribute("aria-invalid", "true");
    await expect(date).toBeFocused();
    expect(await mouseEvents(page)).toBe(0);
  } finally {
    await invoice.remove();
  }
});

test("new booking: a refused booking focuses the first field marked", async ({ page, browser }) => {
  test.setTimeout(180_000);
  const restore = await setUserFlags(browser, "despatcher@example.com", { can_book: true });
  try {
    await signIn(page, "despatcher@example.com");
    const { number } = await despatchedSimex(page, "E2E-FOCUS-BOOK", { name: "Focus booking receiver" });
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await page.goto(`/new_bookings?date=${day}`);
    await expect(page.getByTestId("new-bookings-screen")).toHaveAttribute("data-hydrated", "true");
    await countMouse(page);
    await tabTo(page, page.getByLabel(`Book consignment ${number}`), 80);
    await page.keyboard.press("Space");
    // closing before ready: refused by the server (the times are selects above the list; typing picks)
    const ready = page.getByLabel("Pickup ready at");
    await ready.focus();
    await page.keyboard.type("16:00");
    await expect(ready).toHaveValue("16:00");
    const closing = page.getByLabel("Closing at");
    await closing.focus();
    await page.keyboard.type("10:00");
    await expect(closing).toHaveValue("10:00");
    await tabTo(page, page.getByRole("button", { name: "Book", exact: true }), 80);
    await page.keyboard.press("Enter");
    await expect(firstInvalid(page)).toBeVisible();
    await expect(firstInvalid(page)).toBeFocused();
    expect(await mouseEvents(page)).toBe(0);
  } finally {
    await restore();
  }
});
