import { expect, test, type Page } from "./support/test";
import { audit, json } from "./axe";
import { countMouse, mouseEvents, signIn, startRatedConsignment, tabTo } from "./helpers";

/**
 * Shipping rules (issue 34 item 2): a customer's super despatcher adds a rule with the keyboard
 * alone (no mouse event reaches the page), then a consignment to a postcode it names shows the
 * rule's service as 'chosen by rule …'. The rule is deleted afterwards: later specs rate the same lane.
 */

const ACME = 1;
const LIST = `/customers/${ACME}/shipping_rules`;
const ready = (page: Page) => expect(page.getByTestId("shipping-rules")).toHaveAttribute("data-hydrated", "true");
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** The second cheapest priced service Melbourne to Woolloongabba: what the rule picks, so it is not the usual choice. */
async function notTheCheapest(page: Page) {
  const days = new Date(Date.now() + 7 * 86_400_000);
  while (days.getUTCDay() === 0 || days.getUTCDay() === 6) days.setUTCDate(days.getUTCDate() + 1);
  const res = await page.request.post("/api/carrier_selection", {
    ...json,
    data: { site_code: "MEL", despatch_date: days.toISOString().slice(0, 10), sender_locality: "DANDENONG SOUTH", sender_postcode: "3175", receiver_locality: "WOOLLOONGABBA", receiver_postcode: "4102", items: [{ quantity: 1, length: 40, width: 30, height: 20, weight_in_uom: 5 }] },
  });
  expect(res.status()).toBe(200);
  const priced = ((await res.json()) as { carriers: Array<{ code: string; service_code: string; name: string; service: string; is_poa: boolean; total: number | null }> }).carriers.filter((r) => !r.is_poa && r.total != null);
  expect(priced.length).toBeGreaterThan(1);
  return priced[1]!;
}

test("adds a rule by keyboard, and a consignment it matches shows 'chosen by rule'", async ({ page }) => {
  // two axe audits, a save and a rate shop on a machine shared with CI
  test.setTimeout(180_000);
  await signIn(page, "superdespatcher@example.com");
  const target = await notTheCheapest(page);
  const name = `E2E Brisbane ${Date.now()}`;
  await page.goto(LIST);
  await ready(page);
  await audit(page, "shipping rules list");
  await countMouse(page);

  await tabTo(page, page.getByRole("link", { name: "New rule" }), 60);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\?rule=new$/);
  await expect(page.getByRole("heading", { name: "New shipping rule" })).toBeVisible();
  await tabTo(page, field(page, "Name"), 60);
  await page.keyboard.type(name);
  await tabTo(page, field(page, "Receiver postcodes"), 10);
  await page.keyboard.type("4000-4999");
  await tabTo(page, field(page, "Choose the service"), 60);
  await field(page, "Choose the service").selectOption("use");
  await page.keyboard.press("Tab");
  await expect(field(page, "Service to use")).toBeFocused();
  await field(page, "Service to use").selectOption(`${target.code}:${target.service_code}`);
  await audit(page, "shipping rule form");
  await tabTo(page, page.getByRole("button", { name: "Save rule" }), 200);
  await page.keyboard.press("Enter");

  await expect(page.getByText("New shipping rule saved.")).toBeVisible();
  const row = page.getByTestId("shipping-rule-row").filter({ hasText: name });
  await expect(row).toContainText("postcode 4000-4999");
  expect(await mouseEvents(page)).toBe(0);

  const id = Number(new URL(await row.getByRole("link", { name }).evaluate((a) => (a as HTMLAnchorElement).href)).searchParams.get("rule"));
  try {
    // a consignment to Woolloongabba (4102): the rule's service is selected and says why
    await startRatedConsignment(page);
    const chosen = page.getByTestId("rate").filter({ has: page.getByTestId("chosen-by-rule") });
    await expect(chosen).toHaveCount(1);
    await expect(chosen).toContainText(`chosen by rule ${name}`);
    await expect(chosen).toContainText(target.service);
    await expect(chosen.getByRole("radio")).toBeChecked();
  } finally {
    await page.request.delete(`/api/customers/${ACME}/shipping_rules/${id}`, json);
  }
});
