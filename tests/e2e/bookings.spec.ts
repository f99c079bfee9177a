import { expect, test, type Page } from "./support/test";
import { countMouse, despatchedSimex, mouseEvents, setUserFlags, signIn, tabTo } from "./helpers";

/**
 * Bookings (issue 17 item 5): a despatcher with can_book books a pickup for the day's despatched
 * consignments with the keyboard alone (through the simulated carrier's adapter), sees it in
 * /bookings and opens it.
 */


/** The despatch date despatchedSimex gives (two days on, YYYY-MM-DD): the pickup day. */
const pickupDay = () => new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
const ddmmyyyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** Despatched Simulated Express consignments from Melbourne (the shared helper's), their numbers. */
async function despatched(page: Page, references: string[]) {
  const numbers: string[] = [];
  for (const reference of references) numbers.push((await despatchedSimex(page, reference, { name: `Booking receiver ${reference}` })).number);
  return numbers;
}

// the demo despatcher is given can_book for a test and has it taken back after it, passed or not
let restoreFlags: (() => Promise<void>) | undefined;
test.afterEach(async () => {
  await restoreFlags?.();
  restoreFlags = undefined;
});

test("a despatcher books a pickup for despatched consignments with the keyboard, then finds it in Bookings", async ({ page, browser }) => {
  // two sign-ins, two consignments made and despatched, then the booking itself
  test.setTimeout(120_000);
  restoreFlags = await setUserFlags(browser, "despatcher@example.com", { can_book: true });
  await signIn(page, "despatcher@example.com");
  const day = pickupDay();
  const [first, second] = await despatched(page, ["BOOK-E2E-1", "BOOK-E2E-2"]);

  await page.goto("/new_bookings");
  await expect(page.getByTestId("new-bookings-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);

  // the day: typed into the despatch date, then Show
  const date = page.getByLabel("Despatch date", { exact: true });
  await tabTo(page, date, 80);
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.type(ddmmyyyy(day));
  await tabTo(page, page.getByRole("button", { name: "Show" }), 10);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`date=${encodeURIComponent(ddmmyyyy(day))}|date=${day}`));
  await expect(page.getByTestId("new-bookings-screen")).toHaveAttribute("data-hydrated", "true");
  const group = page.getByRole("group", { name: "Simulated Express — Overnight" });
  await expect(group).toBeVisible();

  // Book is enabled only once something is selected
  const book = page.getByRole("button", { name: "Book", exact: true });
  await expect(book).toBeDisabled();
  await tabTo(page, page.getByLabel(`Book consignment ${first}`), 40);
  await page.keyboard.press("Space");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel(`Book consignment ${second}`)).toBeFocused();
  await page.keyboard.press("Space");
  await expect(book).toBeEnabled();

  // the pickup window steps by 15 minutes: choose ready at 10:00 and closing at 16:30
  const ready = page.getByLabel("Pickup ready at");
  await ready.focus();
  await page.keyboard.type("10:00");
  await expect(ready).toHaveValue("10:00");
  const closing = page.getByLabel("Closing at");
  await closing.focus();
  await page.keyboard.type("16:30");
  await expect(closing).toHaveValue("16:30");

  const requirements = page.getByLabel("Special requirements");
  await requirements.focus();
  await page.keyboard.type("Call on arrival, dock 3");
  await tabTo(page, book, 10);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/job=[0-9a-f-]{36}/);
  await expect(page.getByText("Your bookings have been sent.")).toBeVisible({ timeout: 20_000 });
  expect(await mouseEvents(page)).toBe(0);
  // booked consignments are no longer offered
  await page.reload();
  await expect(page.getByLabel(`Book consignment ${first}`)).toHaveCount(0);

  // the list: today to the pickup day, with the booking; its link opens the booking
  await page.goto(`/bookings?from_date=${ddmmyyyy(new Date().toISOString().slice(0, 10))}&to_date=${ddmmyyyy(day)}`);
  await countMouse(page);
  const row = page.getByTestId("booking-row").filter({ hasText: "Simulated Express" }).filter({ hasText: "10:00 – 16:30" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Booked");
  await expect(row).toContainText(/SXB\d{6}/);
  const link = row.getByRole("link");
  await tabTo(page, link, 60);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/booking\/\d+$/);
  await expect(page.getByTestId("booking-state")).toHaveText("Booked");
  await expect(page.getByText("Call on arrival, dock 3")).toBeVisible();
  const members = page.getByTestId("booking-consignments");
  await expect(members.getByRole("link", { name: first! })).toBeVisible();
  await expect(members.getByRole("link", { name: second! })).toBeVisible();
  // a booked booking is not rebooked
  await expect(page.getByRole("button", { name: "Rebook" })).toHaveCount(0);
  expect(await mouseEvents(page)).toBe(0);
});

test("a user without can_book is sent home from the booking screens", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  for (const path of ["/bookings", "/new_bookings", "/booking/1"]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/$/);
  }
});
