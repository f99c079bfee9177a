import { expect, test } from "./support/test";
import { signIn } from "./helpers";
import { todayIn } from "../../app/modules/calendar/site-time";
import { formatDisplayDate } from "../../app/modules/calendar/display-date";

test("a quote is saved, listed as QTE plus its id, and promoted to a consignment", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/quotes");
  await expect(page.getByRole("heading", { name: "Quotes" })).toBeVisible();

  await page.goto("/quote");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByTestId("consignment-title")).toHaveText("New quote");
  // quotes have no Save and Print; Delete and Create Consignment wait for a saved, valid quote
  await expect(page.getByRole("button", { name: /Save \+ Print/ })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Delete" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Create Consignment" })).toBeDisabled();
  await expect(page.getByLabel("Quantity line 1")).toHaveAttribute("maxlength", "2");

  await page.getByLabel("Reference", { exact: true }).fill("QUOTE-E2E");
  await page.getByTestId("receiver_address-name").fill("Hobart");
  await page.getByRole("option", { name: /Hobart Marine/ }).click();
  await page.getByLabel("Quantity line 1").fill("2");
  await page.getByLabel("Item type line 1").selectOption({ label: "Carton" });
  await page.getByLabel("Dead weight line 1").fill("13");
  await expect(page.getByTestId("rate").first()).toBeVisible();
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/quote\/\d+$/);
  await expect(page.getByText("Your quote has been saved.")).toBeVisible();
  const id = Number(page.url().split("/").pop());
  const number = `QTE${String(id).padStart(8, "0")}`;
  await expect(page.getByTestId("consignment-title")).toHaveText(`Quote ${number}`);

  await page.goto("/quotes");
  const row = page.getByTestId("quotes").getByRole("row", { name: new RegExp(number) });
  await expect(row).toContainText("Hobart Marine");
  await expect(row).toContainText("QUOTE-E2E");
  // weight and volume with their units (a metric site)
  await expect(row.getByRole("cell", { name: "13 kg", exact: true })).toBeVisible();
  await expect(row.getByRole("cell", { name: / m³$/ })).toBeVisible();
  // made today at the Melbourne site, in Melbourne's time and date format
  await expect(row).toContainText(formatDisplayDate(todayIn("Australia/Melbourne"), "AUSTRALIA"));
  await row.getByRole("link", { name: number }).click();

  await page.getByRole("button", { name: "Create Consignment" }).click();
  await expect(page).toHaveURL(new RegExp(`/consignment/${id}\\?saved=complete$|/consignment/${id}$`));
  await expect(page.getByTestId("consignment-title")).toHaveText("Despatchable consignment Pending");
  await page.goto("/quotes");
  await expect(page.getByText(number)).toHaveCount(0);
});

test("a deleted quote can be reinstated; the new-quote button remembers the choice", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/quote");
  await page.getByLabel("Reference", { exact: true }).fill("TO-DELETE");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/quote\/\d+$/);
  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page).toHaveURL(/\/quotes\?deleted=\d+$/);
  await expect(page.getByText(/has been deleted/)).toBeVisible();
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("The quote has been reinstated.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("quotes")).toContainText("TO-DELETE");

  await page.getByLabel("New quote options").click();
  await page.getByRole("menuitemradio", { name: "Quick quote" }).click();
  await expect(page).toHaveURL(/\/quick_quote$/);
  await page.goto("/quotes");
  await expect(page.getByRole("link", { name: "Quick quote" })).toBeVisible();
});

test("a quick quote prices every service, with sender and receiver swappable", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/quick_quote");
  await expect(page.getByLabel("Sender postcode")).toHaveValue("3175");
  // digits in the locality search postcodes
  await page.getByTestId("receiver-locality").fill("2000");
  await page.getByRole("option", { name: "HAYMARKET 2000" }).click();
  await page.getByLabel("Quantity line 1").fill("123");
  await expect(page.getByLabel("Quantity line 1")).toHaveValue("12");
  for (const [f, v] of [["Length", "40"], ["Width", "30"], ["Height", "30"], ["Weight", "10"]]) await page.getByLabel(`${f} line 1`).fill(v!);
  await expect(page.getByTestId("quick-quote").first()).toBeVisible();
  const count = await page.getByTestId("quick-quote").count();
  expect(count).toBeGreaterThanOrEqual(5);
  await expect(page.getByLabel("Receiver postcode")).toHaveValue("2000");
  await page.getByRole("button", { name: "Swap sender and receiver" }).click();
  await expect(page.getByLabel("Sender postcode")).toHaveValue("2000");
  await expect(page.getByLabel("Receiver postcode")).toHaveValue("3175");
});
