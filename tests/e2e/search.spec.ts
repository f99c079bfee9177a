import { expect, test, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Consignment search (issue 15 items 2 and 3): the header search finds a consignment and opens it
 * with the keyboard alone; the advanced search runs from its form, moves a date past the other,
 * and sorts its results by a header.
 */

/** Today at the despatcher's Melbourne site, plus `days`. */
const melbourneToday = new Intl.DateTimeFormat("en-CA", { timeZone: "Australia/Melbourne" }).format(new Date());
const iso = (days: number) => new Date(Date.parse(`${melbourneToday}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const shown = (d: string) => d.split("-").reverse().join("/");

/** A consignment of the despatcher's Melbourne site, saved through the API (open, no number yet). */
async function saved(page: Page, reference: string, receiver: string, despatchDate = iso(2)) {
  const json = { headers: { Accept: "application/json" } };
  const res = await page.request.post("/api/consignments", {
    ...json,
    data: {
      site_code: "MEL",
      reference,
      despatch_date: despatchDate,
      sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
      receiver_address: { name: receiver, address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
      items: [],
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number };
}

test.describe("consignment search", () => {
  test("the header search finds a consignment and opens it with the keyboard alone", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    const run = Date.now().toString(36).toUpperCase();
    await saved(page, `HSK${run}-1`, "Keyboard Receiver One");
    const second = await saved(page, `HSK${run}-2`, "Keyboard Receiver Two");
    await page.goto("/home");
    await expect(page.getByRole("heading").first()).toBeVisible();
    await countMouse(page);

    const box = page.getByRole("combobox", { name: "Search consignments" });
    await tabTo(page, box, 40);
    await page.keyboard.type(`hsk${run.toLowerCase()}`);
    const options = page.getByRole("listbox", { name: "Search consignments" }).getByRole("option");
    await expect(options).toHaveCount(2);
    await expect(options.first()).toContainText("Pending");
    await expect(options.first()).toContainText(`HSK${run}-1`);
    await expect(options.first()).toContainText("no carrier assigned");
    await expect(options.first()).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("ArrowDown");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(box).toHaveAttribute("aria-activedescendant", (await options.nth(1).getAttribute("id"))!);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(new RegExp(`/consignment/${second.id}$`));
    expect(await mouseEvents(page)).toBe(0);

    // nothing found says so; Escape closes the list
    await tabTo(page, box, 40);
    await page.keyboard.type("zzz-nothing-here");
    await expect(page.getByRole("option", { name: "No matches found" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("listbox")).toHaveCount(0);
  });

  test("an advanced search runs from its form and sorts by a header", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    const run = Date.now().toString(36).toUpperCase();
    const b = await saved(page, `ADV${run}-B`, "Zulu Receiver", iso(3));
    const a = await saved(page, `ADV${run}-A`, "Alpha Receiver", iso(4));
    await page.goto("/advanced");
    const from = page.getByLabel("From despatch date");
    const to = page.getByLabel("To despatch date");
    // today to today by default
    await expect(from).toHaveValue(shown(iso(0)));
    await expect(to).toHaveValue(shown(iso(0)));
    await expect(page.getByLabel("Despatch type")).toHaveValue("normal");
    await expect(page.getByLabel("Active")).toHaveValue("true");

    // a from date past the to date moves the to date along
    await page.getByRole("button", { name: "Choose the from date" }).waitFor();
    await from.fill(shown(iso(5)));
    await expect(to).toHaveValue(shown(iso(5)));
    await from.fill(shown(iso(1)));
    await expect(to).toHaveValue(shown(iso(5)));
    await page.getByLabel("Reference", { exact: true }).fill(`adv${run.toLowerCase()}`);
    await page.getByRole("button", { name: "Search" }).click();

    const rows = page.getByTestId("advanced-row");
    await expect(rows).toHaveCount(2);
    // newest despatch date first by default
    await expect(rows.nth(0)).toHaveAttribute("data-id", String(a.id));
    await expect(page).toHaveURL(/reference=adv/i);
    await page.getByRole("link", { name: "Reference", exact: true }).click();
    await expect(page).toHaveURL(/sort=reference&dir=asc/);
    await expect(page.getByRole("columnheader", { name: /Reference/ })).toHaveAttribute("aria-sort", "ascending");
    await expect(rows.nth(0)).toHaveAttribute("data-id", String(a.id));
    await page.getByRole("link", { name: /Receiver/ }).click();
    await expect(page).toHaveURL(/sort=receiver_name&dir=asc/);
    await expect(rows.nth(0)).toContainText("Alpha Receiver");
    await page.getByRole("link", { name: /Receiver/ }).click();
    await expect(page).toHaveURL(/sort=receiver_name&dir=desc/);
    await expect(rows.nth(0)).toHaveAttribute("data-id", String(b.id));
    // a row opens its consignment
    await rows.nth(0).getByRole("link", { name: "Pending" }).click();
    await expect(page).toHaveURL(new RegExp(`/consignment/${b.id}$`));
  });

  test("a range of 2 months or more is refused with the spec's message", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    await page.goto(`/advanced?from_date=${shown("2026-01-10")}&to_date=${shown("2026-03-10")}`);
    await expect(page.getByTestId("date-error")).toHaveText("Range between to and from despatch date must be less than 2 months");
    await expect(page.getByTestId("advanced-row")).toHaveCount(0);
  });
});
