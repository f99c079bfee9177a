import { expect, test, type Locator, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn } from "./helpers";

/**
 * Onboarding from scratch (issue 16): an admin sets up a new customer with a site, a carrier
 * account for it, the service the site sends with, an item type and a despatcher, all on the
 * administration screens; the despatcher then signs in and saves, prints and despatches a
 * consignment. Nothing of the new customer comes from the demo seed (only the carrier, its rate
 * card and the localities, which are the provider's reference data). Keyboard only.
 */

const STAMP = Date.now().toString(36).toUpperCase().slice(-5);
const CODE = `ONB${STAMP}`;
const SITE = `O${STAMP}`.slice(0, 6);
const EMAIL = `onboard-${STAMP.toLowerCase()}@example.org`;
const PASSWORD = "Onboard-pass-42";

/** Focus (no mouse event) and replace the value by typing, as a person tabbing there would. */
async function typeInto(page: Page, field: Locator, text: string) {
  await field.focus();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.type(text);
}

const idFrom = (url: string, pattern: RegExp) => Number(pattern.exec(url)![1]);

test("an admin onboards a customer from scratch, and its new despatcher saves, prints and despatches a consignment", async ({ page, browser }) => {
  test.setTimeout(180_000);
  await signIn(page, "admin@example.com");
  await countMouse(page);

  // 1. the customer
  await page.goto("/customers");
  await expect(page.getByTestId("customer-detail")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  await typeInto(page, page.getByLabel("Name", { exact: true }), `Onboard Freight ${STAMP}`);
  await typeInto(page, page.getByLabel("Code", { exact: true }), CODE);
  await page.keyboard.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Customer was saved." })).toBeVisible();
  const customerId = idFrom(page.url(), /\/customers\/(\d+)/);
  expect(await mouseEvents(page)).toBe(0);

  // 2. its site
  await page.goto(`/customers/${customerId}/sites`);
  await expect(page.getByRole("heading", { name: /^New site for / })).toBeVisible();
  await countMouse(page);
  await typeInto(page, page.getByLabel("Code", { exact: true }), SITE);
  await typeInto(page, page.getByLabel("Site name"), "Onboard DC");
  await typeInto(page, page.getByLabel("Address line 1"), "120 Frankston Dandenong Road");
  await typeInto(page, page.getByLabel("Locality"), "DANDENONG SOUTH");
  await page.keyboard.press("Escape");
  await page.getByLabel("Opening time").selectOption("07:00");
  await page.getByLabel("Closing time").selectOption("23:45");
  await page.getByLabel("Time zone").selectOption("Australia/Melbourne");
  await page.getByLabel("Code", { exact: true }).press("Enter");
  await expect(page.getByText("Site was saved.")).toBeVisible();
  await expect(page.getByLabel("Postcode", { exact: true })).toHaveValue("3175");
  const siteId = idFrom(page.url(), /\/sites\/(\d+)/);
  expect(await mouseEvents(page)).toBe(0);

  // 3. the site's account with the simulated carrier: consignment, manifest and SSCC ranges
  await page.goto(`/customers/${customerId}/sites/${siteId}/accounts`);
  await countMouse(page);
  await page.getByLabel("Carrier", { exact: true }).selectOption({ label: "Simulated Express" });
  await typeInto(page, page.getByLabel("Account number"), `SX${STAMP}`);
  const ranges = [
    ["Consignment numbers", "Prefix", "OB", "7", "1", "9999999"],
    ["Manifest numbers", "Prefix", "MOB", "6", "1", "999999"],
    ["SSCC", "SSCC prefix", "93123456", "9", "1", "999999999"],
  ] as const;
  for (const [group, prefixLabel, prefix, digits, start, end] of ranges) {
    const g = page.getByRole("group", { name: group });
    await typeInto(page, g.getByLabel(prefixLabel), prefix);
    await typeInto(page, g.getByLabel("Digits"), digits);
    await typeInto(page, g.getByLabel("Range start"), start);
    await typeInto(page, g.getByLabel("Range end"), end);
  }
  await page.getByLabel("Account number").press("Enter");
  await expect(page.getByText("Account was saved.")).toBeVisible();
  expect(await mouseEvents(page)).toBe(0);

  // 4. the service the site sends with, priced from the carrier's standard rate card
  await page.goto(`/customers/${customerId}/site_services`);
  await countMouse(page);
  const assign = page.getByRole("form", { name: "Assign a service" });
  await assign.getByLabel("Carrier service").selectOption({ label: "Simulated Express · Overnight" });
  await expect(assign.getByLabel("Rate code")).toHaveValue("STD");
  await assign.getByLabel("Rate code").press("Enter");
  await expect(page.getByRole("region", { name: "Site services" })).toContainText("Simulated Express");
  expect(await mouseEvents(page)).toBe(0);

  // 5. an item type
  await page.goto(`/customers/${customerId}/item_types`);
  await expect(page.getByTestId("item-type-detail")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  await typeInto(page, page.getByLabel("Description", { exact: true }), "Carton");
  for (const [label, value] of [["Length", "40"], ["Width", "30"], ["Height", "30"], ["Weight", "5"]] as const) {
    await typeInto(page, page.getByLabel(label, { exact: true }), value);
  }
  await page.keyboard.press("Enter");
  await expect(page.getByText("Item type was saved.")).toBeVisible();
  expect(await mouseEvents(page)).toBe(0);

  // 6. the despatcher, sending from the new site
  await page.goto(`/customers/${customerId}/users`);
  await expect(page.getByTestId("user-editor")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  await typeInto(page, page.getByLabel("Email"), EMAIL);
  await typeInto(page, page.getByLabel("Full name"), "Olive Onboard");
  await expect(page.getByLabel("Role")).toHaveValue("despatcher");
  const siteBox = page.getByRole("checkbox", { name: `Onboard DC (${SITE})` });
  await siteBox.focus();
  await page.keyboard.press("Space");
  await expect(siteBox).toBeChecked();
  await page.getByLabel("Default site").selectOption({ label: `Onboard DC (${SITE})` });
  await typeInto(page, page.getByLabel("Password", { exact: true }), PASSWORD);
  await typeInto(page, page.getByLabel("Password confirmation"), PASSWORD);
  await page.getByRole("button", { name: "Save" }).press("Enter");
  await expect(page.getByText("User was saved.")).toBeVisible();
  expect(await mouseEvents(page)).toBe(0);

  // 7. the despatcher signs in and enters a consignment by keyboard: no address book, no demo data
  const theirs = await (await browser.newContext()).newPage();
  await signIn(theirs, EMAIL, "/login", PASSWORD);
  await theirs.goto("/");
  await expect(theirs.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(theirs);
  await typeInto(theirs, theirs.getByLabel("Reference", { exact: true }), `PO-${STAMP}`);
  await typeInto(theirs, theirs.getByLabel("Recipient name"), "Onboard Receiver");
  await typeInto(theirs, theirs.locator("[name='receiver_address.address_line_1']"), "5 Ipswich Road");
  await typeInto(theirs, theirs.locator("[name='receiver_address.locality']"), "Woolloongab");
  await expect(theirs.getByRole("option", { name: /WOOLLOONGABBA/ }).first()).toBeVisible();
  await theirs.keyboard.press("Enter");
  await expect(theirs.locator("[name='receiver_address.postcode']")).toHaveValue("4102");
  await typeInto(theirs, theirs.getByLabel("Quantity line 1"), "2");
  await theirs.getByLabel("Item type line 1").focus();
  await theirs.keyboard.press("c"); // Carton: fills its sizes and weight
  await expect(theirs.getByLabel("Length line 1")).toHaveValue("40");
  await theirs.keyboard.press("Tab");
  const rate = theirs.getByTestId("rate").filter({ hasText: "Simulated Express" });
  await expect(rate.first()).toBeVisible();
  await theirs.keyboard.press("Alt+r");
  await expect(theirs.locator("input[name=rate]:checked")).toBeFocused();
  // the simulated carrier books pickups at a time: on the despatch date, in the afternoon
  const despatchDate = await theirs.getByLabel("Despatch date").inputValue();
  await typeInto(theirs, theirs.getByLabel("Pickup date"), despatchDate);
  await theirs.getByLabel("Pickup time").selectOption("15:00");

  // save and print the labels: the numbers come from the account set up above
  await theirs.getByRole("button", { name: "Save + Print Labels" }).press("Enter");
  await expect(theirs.getByTestId("printed-labels")).toBeVisible();
  await expect(theirs.getByTestId("consignment-title")).toHaveText(/^Despatchable consignment OB\d{7}$/);
  const consignmentId = idFrom(theirs.url(), /\/consignment\/(\d+)/);
  const pdf = await theirs.request.get(`/print/${consignmentId}/labels`);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 4).toString()).toBe("%PDF");

  // despatch from the list: Ready to despatch (its service's group open), ticked by Space, Alt+D
  const listed = await theirs.request.get(`/api/consignments?site=${SITE}&dateFilter=today&limit=100`, { headers: { Accept: "application/json" } });
  const mine = ((await listed.json()) as { consignments: { id: number; service_id: number }[] }).consignments.find((c) => c.id === consignmentId);
  expect(mine).toBeTruthy();
  await theirs.goto(`/consignments/complete/today?site=${SITE}&open=s${mine!.service_id}`);
  await expect(theirs.getByTestId("consignment-list")).toHaveAttribute("data-hydrated", "true");
  await countMouse(theirs);
  const row = theirs.getByTestId("consignment-row").filter({ hasText: "Onboard Receiver" });
  const box = row.locator("input[name=ids]");
  await box.focus();
  await theirs.keyboard.press("Space");
  await expect(box).toBeChecked();
  await theirs.keyboard.press("Alt+d");
  await expect
    .poll(async () => {
      const res = await theirs.request.get(`/api/consignments/${consignmentId}`, { headers: { Accept: "application/json" } });
      return ((await res.json()) as { state: string }).state;
    }, { timeout: 30_000 })
    .toBe("despatched");
  expect(await mouseEvents(theirs)).toBe(0);
});
