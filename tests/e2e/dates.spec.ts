import { expect, test, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";
import { plusDays } from "../../app/modules/calendar/dates";
import { formatDisplayDate } from "../../app/modules/calendar/display-date";
import { dayLabel, moveByKey, plusMonths } from "../../app/modules/calendar/month-grid";
import { todayIn } from "../../app/modules/calendar/site-time";

const US = "UNITED STATES OF AMERICA";

/** Shift+Tab until `selector` has focus (at most `max` presses). */
async function shiftTabTo(page: Page, selector: string, max = 8) {
  for (let i = 0; i < max; i++) {
    if (await page.locator(selector).evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press("Shift+Tab");
  }
  await expect(page.locator(selector)).toBeFocused();
}

test("a consignment switched to the Los Angeles site shows its date month first, rates and saves (keyboard alone)", async ({ page }) => {
  test.setTimeout(60_000);
  await signIn(page, "superdespatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  const k = page.keyboard;
  const date = page.getByLabel("Despatch date");

  await k.type("PO-LAX-1");
  await k.press("Tab");
  await expect(date).toBeFocused();
  // today at Melbourne (the default site), day first
  const melbourneToday = todayIn("Australia/Melbourne");
  await expect(date).toHaveValue(formatDisplayDate(melbourneToday, "AUSTRALIA"));

  // to the site, and on to Los Angeles: the same day, now month first
  await tabTo(page, page.getByLabel("Site"), 4);
  await k.type("Los");
  await expect(page.getByLabel("Site")).toHaveValue("LAX");
  await expect(date).toHaveValue(formatDisplayDate(melbourneToday, US));
  await expect(page.locator("summary", { hasText: "Sender:" })).toContainText("LOS ANGELES 90021");

  // a recipient in California
  await tabTo(page, page.getByTestId("receiver_address-name"), 4);
  await k.type("West Coast Tools");
  await k.press("Tab");
  await k.type("500 Wilshire Blvd");
  const receiver = page.getByTestId("receiver_address");
  await tabTo(page, receiver.getByLabel("Country"), 6);
  await k.type("United");
  await expect(receiver.getByLabel("Country")).toHaveValue(US);
  await k.press("Shift+Tab");
  await expect(receiver.getByLabel("Locality")).toBeFocused();
  await k.type("Los Angeles");
  await expect(page.getByRole("option", { name: /LOS ANGELES CA 900/ }).first()).toBeVisible();
  await k.press("Enter");
  await expect(receiver.getByLabel("Postcode")).toHaveValue(/^900\d\d$/);

  // one carton, in inches and pounds
  await tabTo(page, page.getByLabel("Quantity line 1"), 20);
  await k.type("1");
  await k.press("Tab");
  await k.press("c"); // Carton
  await expect(page.getByLabel("Item type line 1")).not.toHaveValue("");
  for (const [field, value] of [["Length", "16"], ["Width", "12"], ["Height", "12"], ["Dead weight", "10"]] as const) {
    await tabTo(page, page.getByLabel(`${field} line 1`), 6);
    await k.press("Control+A");
    await k.type(value);
  }
  await k.press("Tab");

  // live rates for a US site (the rating call takes the date as YYYY-MM-DD)
  await expect(page.getByTestId("rate").first()).toBeVisible();
  await expect(page.getByTestId("rate").first()).toContainText("Simulated Express");
  await expect(page.getByTestId("rate-total").first()).toHaveText(/^\$\d+\.\d\d$/);
  await k.press("Alt+r");
  await expect(page.locator("input[name=rate]:checked")).toBeFocused();

  // the simulated carrier needs a pickup time: a date month first and a time in 15-minute steps
  await shiftTabTo(page, "#pickup_at_date");
  await k.type(formatDisplayDate(melbourneToday, US));
  await k.press("Tab"); // its calendar button
  await k.press("Tab");
  await expect(page.getByLabel("Pickup time")).toBeFocused();
  await k.type("10:00");
  await expect(page.getByLabel("Pickup time")).toHaveValue("10:00");

  await k.press("Alt+s");
  await expect(page).toHaveURL(/\/consignment\/\d+$/);
  await expect(page.getByText("Your consignment has been saved.")).toBeVisible();
  await expect(page.getByTestId("consignment-title")).toHaveText("Despatchable consignment Pending");
  await expect(date).toHaveValue(formatDisplayDate(melbourneToday, US));
  await expect(page.getByLabel("Pickup date")).toHaveValue(formatDisplayDate(melbourneToday, US));
  const id = page.url().split("/").pop();
  const saved = await (await page.request.get(`/api/consignments/${id}`, { headers: { Accept: "application/json" } })).json();
  expect(saved).toMatchObject({ site_code: "LAX", despatch_date: melbourneToday, pickup_at: `${melbourneToday} 10:00` });
  expect(await mouseEvents(page)).toBe(0);
});

test("a day-first date at a US site is no date, and the field says so in the site's format", async ({ page }) => {
  await signIn(page, "superdespatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("Site").selectOption("LAX");
  const date = page.getByLabel("Despatch date");
  await date.fill("25/12/2030");
  await expect(page.getByText("Despatch date must be a date (MM/DD/YYYY)")).toBeVisible();
  await expect(date).toHaveAttribute("aria-invalid", "true");
  await date.fill("12/25/2030");
  await expect(page.getByText("Despatch date must be a date (MM/DD/YYYY)")).toHaveCount(0);
});

test("the despatch date's calendar by keyboard: arrows, pages, Enter picks, Escape gives the focus back; no past day", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  const k = page.keyboard;
  const date = page.getByLabel("Despatch date");
  const today = todayIn("Australia/Melbourne");
  const shown = (iso: string) => formatDisplayDate(iso, "AUSTRALIA");
  const day = (iso: string) => page.getByRole("button", { name: dayLabel(iso, "AUSTRALIA"), exact: true });
  const calendar = page.getByRole("dialog", { name: "Choose date" });
  const opener = page.getByRole("button", { name: "Choose despatch date" });

  await k.press("Tab");
  await expect(date).toBeFocused();
  await k.press("Tab");
  await expect(opener).toBeFocused();
  await k.press("Enter");
  await expect(calendar).toBeVisible();
  await expect(calendar.getByRole("grid")).toBeVisible();
  await expect(day(today)).toBeFocused();
  await expect(day(today)).toHaveAttribute("aria-current", "date");

  // yesterday cannot be picked
  await k.press("ArrowLeft");
  await expect(day(plusDays(today, -1))).toBeFocused();
  await expect(day(plusDays(today, -1))).toHaveAttribute("aria-disabled", "true");
  await k.press("Enter");
  await expect(calendar).toBeVisible();
  await expect(date).toHaveValue(shown(today));

  // a day, a week, a month on and back, then Enter picks
  await k.press("ArrowRight");
  await k.press("ArrowRight");
  await k.press("ArrowDown");
  const week = plusDays(today, 8);
  await expect(day(week)).toBeFocused();
  await k.press("PageDown");
  await expect(day(plusMonths(week, 1))).toBeFocused();
  await k.press("PageUp");
  const picked = plusMonths(plusMonths(week, 1), -1);
  await expect(day(picked)).toBeFocused();
  await k.press("Enter");
  await expect(calendar).toBeHidden();
  await expect(date).toHaveValue(shown(picked));
  await expect(opener).toBeFocused();

  // open again on the picked day; Tab stays inside the dialog; Escape closes and gives the focus back
  await k.press("Enter");
  await expect(day(picked)).toBeFocused();
  await expect(day(picked).locator("xpath=..")).toHaveAttribute("aria-selected", "true");
  // Home and End: the week's first (Monday) and last day
  await k.press("End");
  const sunday = moveByKey(picked, "End", false, 1)!;
  await expect(day(sunday)).toBeFocused();
  expect(dayLabel(sunday, "AUSTRALIA")).toMatch(/^Sunday /);
  await k.press("Home");
  await expect(day(plusDays(sunday, -6))).toBeFocused();
  // previous month, next month, the grid's day, Close, and round again
  for (let i = 0; i < 4; i++) await k.press("Tab");
  await expect(calendar).toBeVisible();
  await expect(day(plusDays(sunday, -6))).toBeFocused();
  await k.press("Escape");
  await expect(calendar).toBeHidden();
  await expect(opener).toBeFocused();
  await expect(date).toHaveValue(shown(picked));
  expect(await mouseEvents(page)).toBe(0);
});

test("a quick quote switched to Los Angeles writes its date month first and prices in the United States", async ({ page }) => {
  await signIn(page, "superdespatcher@example.com");
  await page.goto("/quick_quote");
  const date = page.getByLabel("Despatch date");
  const melbourneToday = todayIn("Australia/Melbourne");
  await expect(date).toHaveValue(formatDisplayDate(melbourneToday, "AUSTRALIA"));
  await page.getByLabel("Site").selectOption("LAX");
  await expect(date).toHaveValue(formatDisplayDate(melbourneToday, US));
  await expect(page.getByLabel("Sender postcode")).toHaveValue("90021");
  await page.getByTestId("receiver-locality").fill("Los Angeles");
  await page.getByRole("option", { name: /^LOS ANGELES 900/ }).first().click();
  for (const [f, v] of [["Quantity", "1"], ["Length", "16"], ["Width", "12"], ["Height", "12"], ["Weight", "10"]]) await page.getByLabel(`${f} line 1`).fill(v!);
  await expect(page.getByTestId("quick-quote").first()).toContainText("Simulated Express");
});

test("staff type a fuel levy's first day in their own clock's format, not the first site's (the provider's DD/MM/YYYY without a setting)", async ({ page }) => {
  // issue 31 #1: an admin has no site; the customer's first site by name is the Los Angeles
  // Warehouse, whose MM/DD/YYYY this screen once asked for. Month first for a staff user who
  // chooses it is tested in tests/integration/user-clock-screens.test.ts.
  await signIn(page, "admin@example.com");
  await page.goto("/rate_editor");
  const form = page.getByRole("form", { name: "Set a fuel levy" });
  await form.getByLabel("Carrier").selectOption("SIMEX");
  await form.getByLabel("Levy %").fill("12.5");
  await expect(form.getByLabel("From", { exact: true })).toHaveAttribute("placeholder", "DD/MM/YYYY");
  await form.getByLabel("From", { exact: true }).fill("01/07/2030");
  await form.getByRole("button", { name: "Save levy" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Fuel levy of SIMEX set to 12.5% from 01/07/2030." })).toBeVisible();
  // read back as 1 July (2030-07-01), shown day first
  await expect(page.getByRole("row", { name: /Simulated Express 12\.5% 01\/07\/2030/ })).toBeVisible();
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the manifests' dates are typed in the site's format and read by the server", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    await page.goto("/manifests");
    await page.getByLabel("From", { exact: true }).fill("06/01/2020");
    await page.getByLabel("To", { exact: true }).fill("07/01/2020");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/from=2020-01-06&to=2020-01-07/);
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("06/01/2020");
    await expect(page.getByText("There are no manifests to display.")).toBeVisible();
  });
});
