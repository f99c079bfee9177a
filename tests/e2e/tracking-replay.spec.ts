import { expect, test, type Page } from "@playwright/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Tracking replay (issue 14 item 8; spec 2 /manage_tracking): a super admin replays a SIMEX
 * consignment's tracking with the keyboard, and the same form works with JavaScript off.
 */

const json = { headers: { Accept: "application/json" } };
const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);

/** A SIMEX consignment created and despatched through the API, its journey sped up to seconds. */
async function despatchedSimex(page: Page, reference: string): Promise<string> {
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  const carton = Number(await page.getByLabel("Item type line 1").locator("option", { hasText: "Carton" }).first().getAttribute("value"));
  const created = await page.request.post("/api/consignments", {
    ...json,
    data: {
      site_code: "MEL",
      reference,
      despatch_date: date,
      carrier_code: "SIMEX",
      service_code: "ONT",
      pickup_at: `${date} 10:00`,
      sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
      receiver_address: { name: "Replay E2E Receiver", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
      items: [{ quantity: 1, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 8 }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const c = await created.json();
  const res = await page.request.put("/api/consignments/despatch_all", { ...json, data: { ids: [c.id] } });
  const { job_id } = await res.json();
  await expect.poll(async () => (await (await page.request.get(`/api/job_status/${job_id}`, json)).json()).status, { timeout: 20_000 }).toBe("complete");
  return (await (await page.request.get(`/api/consignments/${c.id}`, json)).json()).consignment_number as string;
}

test.describe("manage tracking", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "superadmin@example.com");
    expect((await page.request.put("/api/carriers/SIMEX/simulation", { ...json, data: { journey_minutes: 0.05 } })).status()).toBe(200);
  });
  test.afterEach(async ({ page }) => {
    // back to the real pace for the other specs
    await page.request.put("/api/carriers/SIMEX/simulation", { ...json, data: { journey_minutes: null } });
  });

  test("a super admin replays a consignment's tracking with the keyboard and watches the job", async ({ page }) => {
    const number = await despatchedSimex(page, "E2E-REPLAY-KEYS");
    await page.goto("/manage_tracking");
    await expect(page.getByRole("heading", { name: "Manage tracking" })).toBeVisible();
    await countMouse(page);
    const numbers = page.getByLabel("Consignment numbers (one a line, or separated by commas)");
    await tabTo(page, numbers, 30);
    await page.keyboard.type(number);
    await page.keyboard.press("Tab");
    await expect(page.getByRole("button", { name: "Replay" }).first()).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/manage_tracking\?job=/);
    await expect(page.locator('[data-job-status="complete"]')).toContainText(/Replayed the tracking of 1 consignment\(s\)/, { timeout: 20_000 });
    expect(await mouseEvents(page)).toBe(0);
  });

  test("works without JavaScript: the form queues the job and a reload shows how it ended", async ({ page, browser, baseURL }) => {
    const number = await despatchedSimex(page, "E2E-REPLAY-NOJS");
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      const plain = await context.newPage();
      await plain.goto("/login");
      await plain.getByLabel("E-mail").fill("superadmin@example.com");
      await plain.getByLabel("Password").fill("Demo-password-12");
      await plain.getByRole("button", { name: "Sign in" }).click();
      await expect(plain).not.toHaveURL(/\/login/);
      await plain.goto("/manage_tracking");
      // a date range over two months is refused with the spec's message
      await plain.getByLabel("From").fill("2026-01-01");
      await plain.getByLabel("To").fill("2026-06-01");
      await plain.getByRole("button", { name: "Replay" }).nth(1).click();
      await expect(plain.getByText("Date range too large, please select dates within 2 months.").first()).toBeVisible();

      await plain.getByLabel("Consignment numbers (one a line, or separated by commas)").fill(`${number}\n`);
      await plain.getByRole("button", { name: "Replay" }).first().click();
      await expect(plain).toHaveURL(/\/manage_tracking\?job=/);
      await expect.poll(async () => (await plain.reload(), await plain.locator("[data-job-status]").getAttribute("data-job-status")), { timeout: 20_000 }).toBe("complete");
      await expect(plain.locator('[data-job-status="complete"]')).toContainText("Replayed the tracking of 1 consignment(s)");
    } finally {
      await context.close();
    }
  });
});
