import { expect, test, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * The consignment information modal (issue 15 item 6): opened from the screen's footer by
 * keyboard, focus kept inside and given back; the history shows a change; a super admin edits a
 * field and sees its history line.
 */

const json = { headers: { Accept: "application/json" } };
const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);

/** A saved consignment whose reference was changed once (a line in its history). */
async function consignmentWithAChange(page: Page, reference: string) {
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  const carton = Number(await page.getByLabel("Item type line 1").locator("option", { hasText: "Carton" }).first().getAttribute("value"));
  const body = {
    site_code: "MEL",
    reference,
    despatch_date: date,
    carrier_code: "NORTHLINE",
    service_code: "GEN",
    sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
    receiver_address: { name: "Info E2E Receiver", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
    items: [{ quantity: 1, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 8 }],
  };
  const created = await page.request.post("/api/consignments", { ...json, data: body });
  expect(created.status(), await created.text()).toBe(201);
  const c = (await created.json()) as { id: number; version: number };
  const changed = await page.request.put(`/api/consignments/${c.id}`, { ...json, data: { ...body, version: c.version, reference: `${reference}-2` } });
  expect(changed.status(), await changed.text()).toBe(200);
  return c.id;
}

async function openByKeyboard(page: Page, id: number) {
  await page.goto(`/consignment/${id}`);
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  const info = page.getByRole("link", { name: "Info", exact: true });
  await tabTo(page, info, 120);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Consignment information" });
  await expect(dialog.getByTestId("info-fields")).toBeVisible();
  return { dialog, info };
}

test("an admin opens the information modal by keyboard: focus stays inside, the history shows the change, Escape gives focus back", async ({ page }) => {
  await signIn(page, "admin@example.com");
  const id = await consignmentWithAChange(page, "E2E-INFO");
  const { dialog, info } = await openByKeyboard(page, id);

  const change = dialog.getByTestId("info-changes").locator("tr", { hasText: "reference" });
  await expect(change).toContainText("E2E-INFO");
  await expect(change).toContainText("E2E-INFO-2");
  await expect(dialog.getByRole("link", { name: /^Site Melbourne DC/ })).toBeVisible();
  // an admin reads; Info Save is a super admin's
  await expect(dialog.getByRole("button", { name: "Info Save" })).toHaveCount(0);

  // Tab and Shift+Tab go round the dialog's controls, never out of it
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Shift+Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(info).toBeFocused();
  expect(await mouseEvents(page)).toBe(0);
});

test("a super admin edits a field in the modal, saves, and sees the new history line; Info Save rests 5 s", async ({ page }) => {
  await signIn(page, "superadmin@example.com");
  const id = await consignmentWithAChange(page, "E2E-SUPER");
  const { dialog } = await openByKeyboard(page, id);

  const reference = dialog.getByLabel("Reference", { exact: true });
  await tabTo(page, reference, 40);
  await reference.fill("E2E-SUPER-FIXED");
  const save = dialog.getByRole("button", { name: "Info Save" });
  await tabTo(page, save, 60);
  await page.keyboard.press("Enter");
  await expect(dialog.getByTestId("info-message")).toHaveText("Consignment information was saved.");
  await expect(save).toBeDisabled();
  const line = dialog.getByTestId("info-changes").locator("tr", { hasText: "E2E-SUPER-FIXED" });
  await expect(line).toContainText("reference");
  await expect(line).toContainText("E2E-SUPER-2");
  await expect(line).toContainText("Sky Superadmin");
  await expect(dialog.getByTestId("info-fields").locator('tr[data-field="reference"] input')).toHaveValue("E2E-SUPER-FIXED");
  expect(await mouseEvents(page)).toBe(0);
});
