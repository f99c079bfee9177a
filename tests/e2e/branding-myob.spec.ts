import { expect, test } from "./support/test";
import { countMouse, mouseEvents, signIn } from "./helpers";

/**
 * Branding and the accounting link (issue 17 items 7 and 8), keyboard only for data entry: an
 * admin uploads a logo and sees it on the branded login page; an admin authenticates with the
 * simulated MYOB and maps a carrier to a supplier by typeahead.
 */

const json = { headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" } };
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 10" onload="alert(1)"><rect width="40" height="10" fill="#0369a1"/><script>alert(2)</script></svg>';

test("an admin uploads a logo and background and sees them on the branded login page", async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000); // an upload, a reload and a second browser context: over the default 30 s on a loaded machine
  await signIn(page, "admin@example.com", "/branding");
  await expect(page.getByRole("heading", { name: "Branding", exact: true })).toBeVisible();
  const customerId = Number(await page.getByLabel("Customer", { exact: true }).inputValue());
  const prefix = `e2e${Date.now() % 100000}`;
  expect((await page.request.put(`/api/customers/${customerId}`, { ...json, data: { branding_prefix: prefix } })).status()).toBe(200);
  await page.reload();
  await countMouse(page);
  // the server runs as QA (APP_ENV): the QA branding is the one its login page shows
  const country = page.getByLabel("Country");
  await country.focus();
  await expect(country).toHaveValue("au");
  const environment = page.getByLabel("Environment");
  await environment.focus();
  await environment.selectOption("qa");
  await page.getByLabel("Logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: PNG });
  await page.getByLabel("Background image").setInputFiles({ name: "bg.svg", mimeType: "image/svg+xml", buffer: Buffer.from(SVG) });
  await page.getByRole("button", { name: "Save" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Branding was saved.")).toBeVisible();
  const logo = page.getByRole("img", { name: "Logo, AU QA" });
  await expect(logo).toBeVisible();
  expect(await mouseEvents(page)).toBe(0);
  const bgUrl = await page.getByRole("img", { name: "Background, AU QA" }).getAttribute("src");
  // the SVG came back sanitised
  const svg = await (await page.request.get(bgUrl!)).text();
  expect(svg).toContain("<rect");
  expect(svg).not.toContain("script");
  expect(svg).not.toContain("onload");

  const visitor = await browser.newContext({ baseURL });
  try {
    const login = await visitor.newPage();
    await login.goto(`/login?brand=${prefix}`);
    const brandLogo = login.getByTestId("brand-logo");
    await expect(brandLogo).toBeVisible();
    await expect(brandLogo).toHaveAttribute("src", /\/branding_images\/\d+\/logo/);
    // the image really loaded (type and CSP allowed it)
    await expect.poll(() => brandLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await expect(login.getByTestId("brand-background")).toHaveAttribute("style", /\/branding_images\/\d+\/bg/);
    await login.goto("/login?brand=someone-else");
    await expect(login.getByRole("heading", { name: "Sign in" })).toBeVisible();
    await expect(login.getByTestId("brand-logo")).toHaveCount(0);
  } finally {
    await visitor.close();
  }
});

test("an admin authenticates with the simulated MYOB and maps a carrier to a supplier by typeahead", async ({ page }) => {
  test.setTimeout(90_000); // three full page loads (consent and back) and a typeahead
  await signIn(page, "admin@example.com", "/myob");
  await expect(page.getByRole("heading", { name: "MYOB", exact: true })).toBeVisible();
  await countMouse(page);
  await page.getByRole("button", { name: "Authenticate" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/simulated\/myob\/authorize\?/);
  await expect(page.getByTestId("consent-business")).toHaveText("FreightDesk Logistics Pty Ltd");
  await countMouse(page);
  await page.getByRole("button", { name: "Allow" }).focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/myob$/);
  await expect(page.getByText("MYOB Authenticated successfully")).toBeVisible();
  await expect(page.getByTestId("myob-business")).toContainText("Business name: FreightDesk Logistics Pty Ltd");

  await countMouse(page);
  const supplier = page.getByRole("combobox", { name: "Supplier for Northline" });
  await supplier.focus();
  // a database kept from an earlier run may hold a mapping already: replace what is there
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.press("Delete");
  await page.keyboard.type("north");
  const option = page.getByRole("option", { name: /Northline/ });
  await expect(option).toBeVisible();
  await expect(option).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("Enter");
  await expect(supplier).toHaveValue("Northline");
  await page.getByRole("button", { name: "Save" }).focus();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Supplier mapping was saved.")).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Supplier for Northline" })).toHaveValue("Northline");
  expect(await mouseEvents(page)).toBe(0);
  const status = (await (await page.request.get("/api/myob", json)).json()) as { carriers: Array<{ code: string; myob_uid: string | null; supplier_name: string | null }> };
  expect(status.carriers.find((c) => c.code === "NORTHLINE")).toMatchObject({ supplier_name: "Northline", myob_uid: expect.stringMatching(/^5e1d0000-/) });
});
