import { expect, test } from "./support/test";
import { signIn } from "./helpers";

// the demo data's first customer is Acme Distribution
const ACME = 1;

test("an admin adds a surcharge set, sees it listed, and deletes it", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto(`/customers/${ACME}/surcharges`);
  await expect(page.getByRole("heading", { name: "Surcharges · Acme Distribution" })).toBeVisible();
  const form = page.getByRole("form", { name: "New surcharge set" });
  await form.getByLabel("Name", { exact: true }).fill("E2E express surcharges");
  await form.getByLabel("Code", { exact: true }).fill("E2E-EXP");
  await form.getByLabel("Carrier").selectOption("SIMEX");
  await form.getByLabel("Dangerous goods amount").fill("40");
  await form.getByLabel("Return ($) amount").fill("7.5");
  await form.getByLabel("Remote 1 tier").fill("4");
  await form.getByLabel("Remote 1 surcharge").fill("15");
  await form.getByLabel("Remote 1 is a percentage").check();
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Surcharge set E2E express surcharges was saved." })).toBeVisible();
  const section = page.getByRole("region", { name: "E2E express surcharges" });
  await expect(section).toContainText("DG $40.00");
  await expect(section).toContainText("Return $7.50");
  await expect(section).toContainText("No length surcharges");
  await expect(section).toContainText("Tier 4: 15%");
  await section.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Surcharge set deleted." })).toBeVisible();
  await expect(page.getByRole("region", { name: "E2E express surcharges" })).toHaveCount(0);
});

test("a bad surcharge amount is reported and nothing is saved", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto(`/customers/${ACME}/surcharges`);
  const form = page.getByRole("form", { name: "New surcharge set" });
  await form.getByLabel("Name", { exact: true }).fill("Broken");
  await form.getByLabel("Code", { exact: true }).fill("BROKEN");
  await form.getByLabel("Dangerous goods amount").fill("-5");
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Must be 0 or more" }).first()).toBeVisible();
  await expect(page.getByRole("region", { name: "Broken" })).toHaveCount(0);
});

test("an admin changes a site service's markup on Carriers & Services", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto(`/customers/${ACME}/site_services?site=SYD`);
  const row = page.getByRole("form", { name: "Edit SYD:NORTHLINE:RXP" });
  await row.getByLabel("Markup", { exact: true }).fill("18.5");
  await row.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "NORTHLINE:RXP at SYD was saved." })).toBeVisible();
  await page.reload();
  await expect(page.getByRole("form", { name: "Edit SYD:NORTHLINE:RXP" }).getByLabel("Markup", { exact: true })).toHaveValue("18.5");
});

test("customer service sees site services read-only; a despatcher cannot open them", async ({ page }) => {
  await signIn(page, "customerservice@example.com");
  await page.goto(`/customers/${ACME}/site_services`);
  await expect(page.getByRole("region", { name: "Site services" })).toContainText("Northline");
  await expect(page.getByRole("button", { name: "Save" })).toHaveCount(0);
  await page.goto("/login");
  await page.context().clearCookies();
  await signIn(page, "despatcher@example.com");
  await page.goto(`/customers/${ACME}/site_services`);
  await expect(page).toHaveURL(/\/$/);
});

test("an admin edits, adds and deletes zone rows on the zones screen", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto("/zones?carrier_code=SIMEX&q=3175");
  const form = page.getByRole("form", { name: "Edit zones" });
  // US ZIP codes 3175x share the prefix: labels are matched exactly
  await form.getByLabel("Zone of 3175", { exact: true }).fill("V1X");
  await form.getByLabel("New zone postcode").fill("3175");
  await form.getByLabel("New zone locality").fill("DANDENONG SOUTH");
  await form.getByLabel("New zone code").fill("V1D");
  await form.getByRole("button", { name: "Save zones" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zones saved: 1 added, 1 changed, 0 deleted." })).toBeVisible();
  await expect(page.getByLabel("Zone of 3175 DANDENONG SOUTH", { exact: true })).toHaveValue("V1D");
  await page.getByLabel("Delete zone of 3175 DANDENONG SOUTH", { exact: true }).check();
  await page.getByLabel("Zone of 3175", { exact: true }).fill("V1");
  await page.getByRole("button", { name: "Save zones" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Zones saved: 0 added, 1 changed, 1 deleted." })).toBeVisible();
  await expect(page.getByLabel("Zone of 3175 DANDENONG SOUTH", { exact: true })).toHaveCount(0);
});

test("staff import localities from a file and see the skipped lines", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto("/zones");
  await page.getByRole("link", { name: "Import localities" }).click();
  // the zones page has a "File" field of its own: wait for the new page first
  await expect(page.getByRole("heading", { name: "Import localities" })).toBeVisible();
  await page.getByLabel("File").setInputFiles({
    name: "nz-extra.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("country,locality,sublocality,postcode,region,latitude,longitude\nNEW ZEALAND,NAPIER,MARAENUI,4110,,-39.49,176.91\nMARS,OLYMPUS,,1234,,,\n"),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Localities imported: 1 added, 0 updated, 1 skipped." })).toBeVisible();
  await expect(page.getByRole("region", { name: "Upload Errors" })).toContainText("line 3: country must be one of AUSTRALIA, NEW ZEALAND, UNITED STATES OF AMERICA");
  const found = await page.request.get("/api/address_selection/search_locality?query=maraenui&country=NEW%20ZEALAND");
  expect(((await found.json()) as { localities: Array<{ sublocality: string }> }).localities[0]!.sublocality).toBe("MARAENUI");
});

test("staff import dangerous goods entries from a file; the UN typeahead then offers them", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto("/zones");
  await page.getByRole("link", { name: "Import dangerous goods" }).click();
  await expect(page.getByRole("heading", { name: "Import dangerous goods" })).toBeVisible();
  await page.getByLabel("File").setInputFiles({
    name: "dg.csv",
    mimeType: "text/csv",
    buffer: Buffer.from("un_number,proper_shipping_name,hazard_class,sub_risk,packing_group,nos\nUN2055,STYRENE MONOMER STABILIZED,3,,III,false\n99,BROKEN,3,,,\n"),
  });
  await page.getByRole("button", { name: "Import" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Dangerous goods entries imported: 1 added, 0 updated, 1 skipped." })).toBeVisible();
  await expect(page.getByRole("region", { name: "Upload Errors" })).toContainText("line 3: UN number must be 4 digits");
  const found = await page.request.get("/api/dangerous_goods_types?query=2055");
  expect(((await found.json()) as { dangerous_goods_types: Array<{ proper_shipping_name: string }> }).dangerous_goods_types[0]!.proper_shipping_name).toBe("STYRENE MONOMER STABILIZED");
});

test("a file over 10 MB is refused at the field, before it is sent (keyboard only)", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await page.goto("/zones/localities");
  await expect(page.getByRole("heading", { name: "Import localities" })).toBeVisible();
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST") posts.push(r.url());
  });
  const file = page.getByLabel("File");
  await file.setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: Buffer.alloc(10 * 1024 * 1024 + 1, "a") });
  await page.getByRole("button", { name: "Import" }).focus();
  await page.keyboard.press("Enter");
  // the browser keeps the form from submitting and says why at the field
  expect(await file.evaluate((input: HTMLInputElement) => input.validationMessage)).toBe("The file is larger than 10 MB.");
  await expect(page.getByRole("button", { name: "Import" })).toBeEnabled();
  expect(posts).toEqual([]);
  // a file within the limit is taken again
  await file.setInputFiles({ name: "small.csv", mimeType: "text/csv", buffer: Buffer.from("country,locality,sublocality,postcode,region,latitude,longitude\n") });
  expect(await file.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(true);
});
