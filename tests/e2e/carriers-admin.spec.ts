import { expect, test, type Locator, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Carriers (issue 17 item 1): an admin changes a carrier's code with the keyboard alone, confirms
 * the rename, and sees the new code everywhere: the carriers list, the carrier's services, its
 * zones, and the customer's site services ("Carriers & Services"). (The rates check is not here yet: see the report.)
 */

const ACME = 1;
const TAG = Date.now().toString(36).toUpperCase().slice(-5);
const OLD = `OLD${TAG}`;
const NEW = `NEW${TAG}`;

async function typeInto(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

test("an admin changes a carrier's code by keyboard and sees the new code everywhere", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@example.com");
  // the world: a carrier with a service offered at the Melbourne site and zones for the lane (set up through /api)
  const made = await page.request.post("/api/carriers", { data: { name: `Rename Freight ${TAG}`, code: OLD, adapter: "generic", generic: true } });
  expect(made.status()).toBe(201);
  const carrier = (await made.json()) as { id: number };
  expect((await page.request.post(`/api/carriers/${carrier.id}/services`, { data: { code: "RD", name: "Road", type: "road" } })).status()).toBe(201);
  expect((await page.request.post("/api/zones", { data: { carrier_code: OLD, zones: [{ postcode: "3175", code: "MELZ" }, { postcode: "4102", code: "BNEZ" }] } })).status()).toBe(200);
  expect((await page.request.post(`/api/customers/${ACME}/site_services`, { data: { site_services: [{ site_code: "MEL", carrier_code: OLD, service_code: "RD" }] } })).status()).toBe(200);

  await page.goto(`/carriers?filter=${TAG}`);
  await expect(page.getByTestId("carrier-code")).toHaveText([OLD]);
  await countMouse(page);
  await tabTo(page, page.getByRole("link", { name: `Rename Freight ${TAG}`, exact: true }), 80);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: `Carrier: Rename Freight ${TAG}` })).toBeVisible();

  const code = page.getByLabel("Code (rates service key)");
  await typeInto(page, code, NEW);
  await code.press("Enter");
  // the server asks first: the code is renamed everywhere it is used
  await expect(page.getByText("Changing the code renames it everywhere it is used: tick Confirm to change it")).toBeVisible();
  await expect(code).toHaveValue(NEW);
  const confirm = page.getByLabel(/^Confirm: rename/);
  await tabTo(page, confirm, 10);
  await page.keyboard.press("Space");
  await code.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Carrier was saved.")).toBeVisible();
  await expect(code).toHaveValue(NEW);
  expect(await mouseEvents(page)).toBe(0);

  // the carriers list
  await page.goto(`/carriers?filter=${TAG}`);
  await expect(page.getByTestId("carrier-code")).toHaveText([NEW]);
  // the carrier's services
  await page.goto(`/carriers/${carrier.id}/services`);
  await expect(page.getByTestId("service-carrier-code")).toHaveText([NEW]);
  // its zones
  await page.goto(`/zones?carrier_code=${NEW}`);
  await expect(page.getByLabel("Zone of 3175", { exact: true })).toHaveValue("MELZ");
  await expect(page.getByLabel("Zone of 4102", { exact: true })).toHaveValue("BNEZ");
  // the customer's carriers and services
  await page.goto(`/customers/${ACME}/site_services`);
  // each row's edit form names its carrier by code
  await expect(page.getByRole("row", { name: new RegExp(`Rename Freight ${TAG} · Road`) })).toBeVisible();
  await expect(page.locator(`input[name="carrier_code"][value="${NEW}"]`)).toHaveCount(1);
  await expect(page.locator(`input[name="carrier_code"][value="${OLD}"]`)).toHaveCount(0);
});
