import { expect, test } from "./support/test";
import { countMouse, mouseEvents, signIn, startRatedConsignment, tabTo } from "./helpers";

test("a despatcher creates, rates and saves a consignment with the keyboard alone", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  const k = page.keyboard;

  // the reference has focus on a new consignment
  await expect(page.getByLabel("Reference", { exact: true })).toBeFocused();
  await k.type("PO-KEYS-1");
  await k.press("Tab"); // despatch date, already today
  await expect(page.getByLabel("Despatch date")).toBeFocused();
  await k.press("Tab"); // its calendar button
  await k.press("Tab"); // custom reference
  await k.press("Tab"); // site
  await k.press("Tab"); // sender summary (collapsed, defaulted to the site)
  await k.press("Tab"); // recipient name: the address book typeahead
  await expect(page.getByTestId("receiver_address-name")).toBeFocused();
  await k.type("Brisb");
  await expect(page.getByRole("option", { name: /Brisbane Hardware/ })).toBeVisible();
  await k.press("Enter");
  await expect(page.getByLabel("Postcode").nth(1)).toHaveValue("4102");

  // on through the rest of the address (postcode and region are read-only and skipped) to the first item line
  expect(await tabTo(page, page.getByLabel("Quantity line 1"))).toBeLessThanOrEqual(12);
  await k.type("2");
  await k.press("Tab");
  await k.press("c"); // Carton: fills 40 x 30 x 30 and its weight
  await expect(page.getByLabel("Length line 1")).toHaveValue("40");
  await tabTo(page, page.getByLabel("Dead weight line 1"), 5);
  await k.press("Control+A");
  await k.type("12");
  // Enter in the last weight adds a line and moves to its quantity
  await k.press("Enter");
  await expect(page.getByLabel("Quantity line 2")).toBeFocused();
  await k.type("1");
  await k.press("Tab");
  await k.press("s"); // Skid
  await tabTo(page, page.getByLabel("Dead weight line 2"), 5);
  await k.press("Control+A");
  await k.type("150");
  await k.press("Tab");

  // live rates arrive; Alt+R goes to them and the arrow keys choose
  await expect(page.getByTestId("rate").first()).toBeVisible();
  await k.press("Alt+r");
  const checked = page.locator("input[name=rate]:checked");
  await expect(checked).toBeFocused();
  const first = await checked.getAttribute("value");
  await k.press("ArrowDown");
  const chosen = await page.locator("input[name=rate]:checked").getAttribute("value");
  expect(chosen).not.toBe(first);

  // Alt+S saves
  await k.press("Alt+s");
  await expect(page).toHaveURL(/\/consignment\/\d+$/);
  await expect(page.getByText("Your consignment has been saved.")).toBeVisible();
  await expect(page.getByTestId("consignment-title")).toHaveText("Despatchable consignment Pending");
  await expect(page.getByLabel("Reference", { exact: true })).toHaveValue("PO-KEYS-1");
  await expect(page.getByTestId("item-line")).toHaveCount(2);
  // the saved rate shows first and the live rates follow; the chosen one stays checked through both
  await expect(page.locator("input[name=rate]").first()).toBeVisible();
  await expect(page.locator("input[name=rate]:checked")).toHaveValue(chosen!);
  // Save is paused for 5 s after a save
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Save", exact: true })).toBeEnabled({ timeout: 8000 });
  expect(await mouseEvents(page)).toBe(0);
});

test("the screen shows the shortcuts, the summary and the rating hints", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("shortcuts")).toContainText("Alt+S");
  await expect(page.getByTestId("shortcuts")).toContainText("Alt+P");
  await expect(page.getByTestId("rating-hints")).toContainText("Must have weight");
  await expect(page.getByTestId("rating-hints")).toContainText("Must have quantity");
  await page.getByLabel("Quantity line 1").fill("3");
  await page.getByLabel("Item type line 1").selectOption({ label: "Standard pallet" });
  await expect(page.getByLabel("Dead weight line 1")).toHaveValue("900");
  await expect(page.getByTestId("rating-hints")).toHaveCount(0);
  // 3 x 1.2 x 1.2 x 1.5 m
  await expect(page.getByTestId("line-volume")).toHaveText("6.48");
  await expect(page.getByTestId("summary-weight")).toHaveText("900 kg");
  await page.getByLabel("Quantity line 1").fill("4");
  await page.getByLabel("Dead weight line 1").fill("1200");
  await expect(page.getByTestId("summary-weight")).toHaveText("1.20 t");
  await expect(page.getByTestId("summary-packages")).toHaveText("4");
  // weight rounds up to the type's increment (10 for a pallet) when leaving the field
  await page.getByLabel("Dead weight line 1").fill("1201");
  await page.getByLabel("Dead weight line 1").press("Tab");
  await expect(page.getByLabel("Dead weight line 1")).toHaveValue("1210");
});

test("an incomplete consignment is saved open with the incomplete alert and its errors", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await page.getByLabel("Reference", { exact: true }).fill("NO-RECEIVER");
  await page.getByLabel("Quantity line 1").fill("1");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page).toHaveURL(/\/consignment\/\d+$/);
  await expect(page.getByText("Your consignment has been saved but is incomplete.")).toBeVisible();
  await expect(page.getByTestId("consignment-title")).toHaveText("Open consignment Pending");
  await page.reload();
  await expect(page.getByText("Consignment is incomplete")).toBeVisible();
  await expect(page.getByText("Receiver address is required")).toBeVisible();
  await expect(page.getByText("Please select a carrier service")).toBeVisible();
});

test("a save over the limits keeps what was typed and shows the error by its field", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await page.getByLabel("Reference", { exact: true }).fill("KEEP-ME");
  await page.getByLabel("Despatch date").fill("01/01/2020");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByText("Unable to save. If issue persists, please contact tech support.")).toBeVisible();
  await expect(page.getByText("Despatch date cannot be in the past")).toBeVisible();
  await expect(page.getByLabel("Reference", { exact: true })).toHaveValue("KEEP-ME");
  await expect(page.getByLabel("Despatch date")).toHaveValue("01/01/2020");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("Get rates prices the form and Save saves it", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    await page.goto("/");
    await page.getByLabel("Reference", { exact: true }).fill("NO-JS-1");
    await page.locator("[name='receiver_address.name']").fill("Perth Outdoor Supplies");
    await page.locator("[name='receiver_address.address_line_1']").fill("22 Great Eastern Highway");
    await page.locator("[name='receiver_address.locality']").fill("RIVERVALE");
    await page.locator("[name='receiver_address.postcode']").fill("6103");
    await page.locator("[name='receiver_address.region']").fill("WA");
    await page.getByLabel("Quantity line 1").fill("1");
    await page.getByLabel("Item type line 1").selectOption({ label: "Carton" });
    for (const [f, v] of [["Length", "40"], ["Width", "30"], ["Height", "30"], ["Dead weight", "8"]]) await page.getByLabel(`${f} line 1`).fill(v!);
    await page.getByRole("button", { name: "Get rates" }).click();
    await expect(page.getByTestId("rate").first()).toBeVisible();
    await expect(page.getByLabel("Reference", { exact: true })).toHaveValue("NO-JS-1");
    await page.locator("input[name=rate]").first().check();
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page).toHaveURL(/\/consignment\/\d+\?saved=complete$/);
    await expect(page.getByText("Your consignment has been saved.")).toBeVisible();
    await expect(page.getByTestId("consignment-title")).toHaveText("Despatchable consignment Pending");
  });
});

test("New Address: a server error shows by its field, then the saved address fills the recipient", async ({ page }) => {
  await signIn(page, "superdespatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: "New Address" }).click();
  const dialog = page.getByTestId("address-dialog");
  await expect(dialog.getByRole("heading", { name: "New Address" })).toBeVisible();
  const save = dialog.getByRole("button", { name: "Save" });
  await expect(save).toBeDisabled();
  await dialog.getByLabel("Address name").fill("Launceston Timber");
  await dialog.getByLabel("Address line 1").fill("9 Cimitiere Street");
  await dialog.getByTestId("address-locality").fill("LAUNCESTON");
  await dialog.getByRole("option", { name: /LAUNCESTON TAS 7250/ }).click();
  await expect(dialog.getByLabel("Postcode")).toHaveValue("7250");
  await dialog.getByLabel("Email").fill("not-an-email");
  await expect(save).toBeEnabled();
  await save.click();
  await expect(dialog.getByText("Email is not a valid e-mail address")).toBeVisible();
  await expect(page.getByText("Your address for Launceston Timber has failed. Please contact customer services.")).toBeVisible();
  await dialog.getByLabel("Email").fill("yard@timber.example");
  await save.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText("Your address for customer Launceston Timber has been saved.")).toBeVisible();
  await expect(page.getByTestId("receiver_address-name")).toHaveValue("Launceston Timber");
  await expect(page.locator("[name='receiver_address.postcode']")).toHaveValue("7250");
  // and the address book now offers it
  await page.getByTestId("receiver_address-name").fill("Launces");
  await expect(page.getByRole("option", { name: /Launceston Timber/ })).toBeVisible();
});

test("the merge dialog merges a consignment into another to the same receiver and date", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  const date = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const body = (reference: string, weight: string) => ({
    site_code: "MEL",
    reference,
    despatch_date: date,
    receiver_address: { name: "E2E Merge Receiver", address_line_1: "80 Grenfell Street", locality: "ADELAIDE", postcode: "5000", region: "SA" },
    items: [{ quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: weight }],
  });
  const a = await (await page.request.post("/api/consignments", { data: body("MERGE-A", "7"), headers: { Accept: "application/json" } })).json();
  const b = await (await page.request.post("/api/consignments", { data: body("MERGE-B", "9"), headers: { Accept: "application/json" } })).json();
  await page.goto(`/consignment/${b.id}`);
  await expect(page.getByTestId("merge-notice")).toContainText("1 consignment to the same receiver");
  await page.getByRole("button", { name: "Merge…" }).click();
  const dialog = page.getByTestId("merge-dialog");
  await expect(dialog.getByRole("radio", { name: /MERGE-A/ })).toBeChecked();
  // the candidate's size with its unit (a metric site)
  await expect(dialog.getByTestId("merge-candidate-size")).toHaveText("1 item · 7 kg");
  await dialog.getByRole("button", { name: "Merge" }).click();
  await expect(page).toHaveURL(new RegExp(`/consignment/${a.id}$`));
  await expect(page.getByText("The consignments have been merged.")).toBeVisible();
  await expect(page.getByTestId("item-line")).toHaveCount(2);
  await expect(page.getByLabel("Dead weight line 2")).toHaveValue("9");
  const merged = await (await page.request.get(`/api/consignments/${b.id}`, { headers: { Accept: "application/json" } })).json();
  expect(merged.state).toBe("merged");
});

test("Consolidate turns checked lines into one line of the chosen type", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  for (const [i, weight] of [[1, "10"], [2, "15"], [3, "7"]] as const) {
    if (i > 1) await page.getByRole("button", { name: "Add item line" }).click();
    await page.getByLabel(`Quantity line ${i}`).fill("2");
    await page.getByLabel(`Item type line ${i}`).selectOption({ label: "Carton" });
    await page.getByLabel(`Dead weight line ${i}`).fill(weight);
  }
  await page.getByRole("button", { name: "Consolidate…" }).click();
  const dialog = page.getByTestId("consolidate-dialog");
  await dialog.getByLabel(/^Line 1:/).check();
  await dialog.getByLabel(/^Line 3:/).check();
  await dialog.getByLabel("Consolidate into").selectOption({ label: "Standard pallet" });
  await dialog.getByRole("button", { name: "Consolidate" }).click();
  await expect(page.getByTestId("item-line")).toHaveCount(2);
  await expect(page.getByLabel("Item type line 1")).toHaveValue(await page.getByLabel("Item type line 1").locator("option", { hasText: "Standard pallet" }).getAttribute("value") ?? "");
  await expect(page.getByLabel("Quantity line 1")).toHaveValue("1");
  await expect(page.getByLabel("Dead weight line 1")).toHaveValue("17");
  await expect(page.getByLabel("Length line 1")).toHaveValue("120");
  await expect(page.getByLabel("Dead weight line 2")).toHaveValue("15");
});

test("time slots appear when the chosen service needs them", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await startRatedConsignment(page);
  await expect(page.getByTestId("time-slots")).toHaveCount(0);
  await page.getByTestId("rate").filter({ hasText: "Simulated Express · Overnight" }).getByRole("radio").check();
  // a date in the site's format and a time in 15-minute steps
  await expect(page.getByLabel("Pickup date")).toBeVisible();
  await expect(page.getByLabel("Pickup time")).toHaveValue("");
  await expect(page.getByLabel("Pickup time").locator("option[value='10:15']")).toHaveCount(1);
  await expect(page.getByLabel("Pickup time").locator("option[value='10:05']")).toHaveCount(0);
  await page.getByTestId("rate").filter({ hasText: "Northline · General Road" }).getByRole("radio").check();
  await expect(page.getByTestId("time-slots")).toHaveCount(0);
});

test("a typeahead left within its wait (Tab or Escape) opens no list afterwards", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  const k = page.keyboard;
  const lists = page.getByRole("listbox");

  // Tab out of the recipient name typeahead before its 500 ms wait ends
  await tabTo(page, page.getByTestId("receiver_address-name"));
  await k.type("Zqx");
  await k.press("Tab");
  // longer than the wait and a search: a list would have opened by now (a wait, not a timed assertion)
  await page.waitForTimeout(1_200);
  await expect(lists).toHaveCount(0);
  await expect(page.getByText("No matches found")).toHaveCount(0);

  // Escape in the locality typeahead cancels its pending search too
  await tabTo(page, page.getByTestId("receiver_address-locality"));
  await k.type("Qzx");
  await k.press("Escape");
  await page.waitForTimeout(1_200);
  await expect(lists).toHaveCount(0);
  await expect(page.getByText("No matches found")).toHaveCount(0);
  expect(await mouseEvents(page)).toBe(0);
});

test("every field of a dangerous goods line has a visible label with the spec's name", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await page.getByLabel("Dangerous goods line 1").check();
  const line = page.getByTestId("dg-line").first();
  const names = ["UN number", "Proper shipping name", "Hazard class", "Packing group", "Sub risk", "Aggregate quantity"];
  // on screen, a label per field (a placeholder disappears once something is typed)
  await expect(line.locator("label")).toHaveText(names.map((n) => `${n} line 1 dangerous goods 1`));
  for (const i of names.keys()) await expect(line.locator("label").nth(i)).toBeVisible();
  // and every input is named by its label, with its item line and dangerous goods line
  const inputs = line.locator("input:not([type=hidden])");
  await expect(inputs).toHaveCount(names.length);
  for (const [i, n] of names.entries()) await expect(inputs.nth(i)).toHaveAccessibleName(`${n} line 1 dangerous goods 1`);
  await page.getByLabel("UN number line 1 dangerous goods 1").fill("1203");
  await expect(page.getByLabel("UN number line 1 dangerous goods 1")).toHaveValue("1203");
});
