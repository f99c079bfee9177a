import { expect, test } from "./support/test";
import { signIn } from "./helpers";
import { MEL_TO_BNE } from "../support/rating";
import { todayIn } from "../../app/modules/calendar/site-time";
import { formatDisplayDate } from "../../app/modules/calendar/display-date";

/**
 * An admin loads zones and a rate card through the screens; /api/carrier_selection then prices a
 * consignment with them (the demo site service: markup 15 %, the simulated carrier's 11 % levy).
 */
test("zones and a rate card imported through the screens price a consignment", async ({ page }) => {
  // today in Melbourne (the site's): a despatch date may not be in the past; the card and levy run from 2026
  const today = todayIn("Australia/Melbourne");
  test.setTimeout(90_000);
  await signIn(page, "admin@example.com");

  await page.goto("/zones");
  await page.getByText("Import zones").click();
  const importForm = page.getByRole("form", { name: "Import zones" });
  await importForm.getByLabel("Carrier").selectOption("SIMEX");
  await importForm.getByLabel("Customer").selectOption("ACME");
  await importForm.getByLabel("Service").selectOption("ONT");
  await importForm.getByLabel("File").setInputFiles({
    name: "e2e-zones.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("postcode,locality,country,zone\n3175,,AUSTRALIA,E2EA\n4102,,AUSTRALIA,E2EB\n12,,AUSTRALIA,BAD\n"),
  });
  await importForm.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zones imported: 2 created, 0 changed, 0 deleted, 1 invalid." })).toBeVisible();
  await expect(page.getByTestId("zone-import-result")).toContainText("line 4: postcode must be 3 to 10 letters or digits");

  await page.goto("/rate_editor");
  const rateForm = page.getByRole("form", { name: "Import a rate card" });
  await rateForm.getByLabel("File").setInputFiles({
    name: "e2e-rates.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(
      "carrier_code,service_code,rate_code,from_zone,to_zone,basic,per_kg,per_item,minimum,transit_days,cubic_factor,effective_from\n" +
        "SIMEX,ONT,STD,E2EA,E2EB,100,0,0,0,1,250,01/01/2026\n",
    ),
  });
  await rateForm.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Rates imported from e2e-rates.csv: 1 new lane(s), 0 updated." })).toBeVisible();
  await expect(page.getByRole("row", { name: /e2e-rates\.csv/ })).toBeVisible();

  const response = await page.request.post("/api/carrier_selection", {
    data: {
      despatch_date: today,
      ...MEL_TO_BNE,
      items: [{ quantity: 1, item_type: "Carton", length: 40, width: 30, height: 30, weight_in_uom: 5 }],
    },
  });
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { carriers: Array<{ code: string; service_code: string; total: number; rating_detail: { from_zone: string; to_zone: string; buy: Array<{ category: string; amount: number }> } }> };
  const overnight = body.carriers.find((c) => c.code === "SIMEX" && c.service_code === "ONT")!;
  expect(overnight.rating_detail.from_zone).toBe("E2EA");
  expect(overnight.rating_detail.to_zone).toBe("E2EB");
  expect(overnight.rating_detail.buy.map((l) => [l.category, l.amount])).toEqual([
    ["freight_charge", 100],
    ["fuel_charge", 11],
  ]);
  // sell (100 + 11) x 1.15 = 127.65; GST 12.77
  expect(overnight.total).toBe(140.42);

  // the price check screen shows the same price and why
  await page.goto("/rate_editor/check");
  await page.getByLabel("Site").selectOption("MEL");
  // Melbourne's format: day first
  await page.getByLabel("Despatch date").fill(formatDisplayDate(today, "AUSTRALIA"));
  await page.getByLabel("sender locality").fill("DANDENONG SOUTH");
  await page.getByLabel("sender postcode").fill("3175");
  await page.getByLabel("receiver locality").fill("WOOLLOONGABBA");
  await page.getByLabel("receiver postcode").fill("4102");
  for (const [field, value] of [["quantity", "1"], ["length", "40"], ["width", "30"], ["height", "30"], ["weight", "5"]]) {
    await page.getByLabel(`Line 1 ${field}`).fill(value!);
  }
  await page.getByRole("button", { name: "Get rates" }).click();
  const card = page.getByRole("article", { name: "Simulated Express Overnight" });
  await expect(card).toContainText("$140.42");
  await expect(card).toContainText("E2EA → E2EB");
  await expect(card).toContainText("Fuel levy 11%");
});

test("customer service may look at zones but not import them", async ({ page }) => {
  await signIn(page, "customerservice@example.com");
  await page.goto("/zones");
  await page.getByText("Import zones").click();
  await expect(page.getByText("Your privilege level does not allow this")).toBeVisible();
});
