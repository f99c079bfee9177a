import { expect, test, type Page } from "./support/test";
import { countMouse, mouseEvents, printTab, signIn, tabTo } from "./helpers";

const json = { headers: { Accept: "application/json" } };

/** A despatched consignment (through the API: create, then PUT /api/consignments/despatch_all and wait for the job). */
async function despatchedConsignment(page: Page, reference: string) {
  // the item type ids of the demo customer, as the consignment screen offers them
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  const carton = Number(await page.getByLabel("Item type line 1").locator("option", { hasText: "Carton" }).first().getAttribute("value"));
  const date = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const created = await page.request.post("/api/consignments", {
    ...json,
    data: {
      site_code: "MEL",
      reference,
      despatch_date: date,
      // Northline: its manifest is ready at once (the generic adapter)
      carrier_code: "NORTHLINE",
      service_code: "GEN",
      sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
      receiver_address: { name: "Manifest E2E Receiver", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
      items: [{ quantity: 3, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 12 }],
    },
  });
  expect(created.status()).toBe(201);
  const c = await created.json();
  expect(c.errors).toEqual({});
  expect(c.state).toBe("despatchable");
  const despatch = await page.request.put("/api/consignments/despatch_all", { ...json, data: { ids: [c.id] } });
  expect(despatch.status()).toBe(200);
  const { job_id } = await despatch.json();
  await expect
    .poll(async () => (await (await page.request.get(`/api/job_status/${job_id}`, json)).json()).status, { timeout: 20_000 })
    .toBe("complete");
  const after = await (await page.request.get(`/api/consignments/${c.id}`, json)).json();
  expect(after.manifest_id).toBeTruthy();
  const { manifests } = await (await page.request.get(`/api/manifests?ids=${after.manifest_id}`, json)).json();
  return { id: c.id as number, number: after.consignment_number as string, manifest: manifests[0] as { id: number; number: string } };
}

test("today's manifest is listed by carrier, expands to its consignments and prints", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  const c = await despatchedConsignment(page, "MANIFEST-E2E");

  await page.goto("/manifests");
  await expect(page.getByTestId("manifests-screen")).toHaveAttribute("data-hydrated", "true");
  const row = page.locator(`[data-testid="manifest-row"][data-manifest-id="${c.manifest.id}"]`);
  await expect(row).toContainText("Northline");
  await expect(row).toContainText("12 kg");
  await expect(row).toContainText("0.108 m³");
  await expect(page.getByTestId("manifest-group").filter({ has: row }).locator("summary")).toContainText("Northline");

  await row.getByRole("link", { name: `Show consignments of ${c.manifest.number}` }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]open=${c.manifest.id}`));
  const members = page.getByRole("table", { name: `Consignments of ${c.manifest.number}` });
  await expect(members).toContainText("MANIFEST-E2E");
  await expect(members).toContainText("Manifest E2E Receiver");
  await expect(members.getByRole("link", { name: c.number })).toHaveAttribute("href", `/consignment/${c.id}`);

  // nothing selected: nothing to print
  await expect(page.getByRole("button", { name: "Print Manifests" })).toBeDisabled();
  await page.getByLabel(`Select manifest ${c.manifest.number}`).check();

  const reportTab = printTab(page, new RegExp(`/print/despatch_manifest_report\\?ids=${c.manifest.id}$`));
  await page.getByRole("button", { name: "Print Manifests" }).click();
  await reportTab;
  await expect(page.getByText("1 manifest sent to printer. (Office A4 (PDF))")).toBeVisible();
  const pdf = await page.request.get(`/print/despatch_manifest_report?ids=${c.manifest.id}`);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");

  const notesTab = printTab(page, new RegExp(`/print/consignment_notes\\?ids=${c.id}$`));
  await page.getByRole("button", { name: "Print connote" }).click();
  await notesTab;
  await expect(page.getByText("1 consignment note sent to printer. (Office A4 (PDF))")).toBeVisible();
});

test("a manifest is selected and printed with the keyboard alone", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  const c = await despatchedConsignment(page, "MANIFEST-KEYS");
  await page.goto("/manifests");
  await expect(page.getByTestId("manifests-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);

  const box = page.getByLabel(`Select manifest ${c.manifest.number}`);
  await tabTo(page, box, 80);
  await page.keyboard.press("Space");
  await expect(box).toBeChecked();
  // the print buttons stand above the list: back up to them
  const print = page.getByRole("button", { name: "Print Manifests" });
  for (let i = 0; i < 80 && !(await print.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Shift+Tab");
  await expect(print).toBeFocused();
  const reportTab = printTab(page, new RegExp(`/print/despatch_manifest_report\\?ids=${c.manifest.id}$`));
  await page.keyboard.press("Enter");
  await reportTab;
  await expect(page.getByText("1 manifest sent to printer. (Office A4 (PDF))")).toBeVisible();
  expect(await mouseEvents(page)).toBe(0);
});

test("an empty day says so; the dates keep their rule", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/manifests?from=2020-01-06&to=2020-01-06");
  await expect(page.getByTestId("manifests-screen")).toHaveAttribute("data-hydrated", "true");
  await expect(page.getByText("There are no manifests to display.")).toBeVisible();

  // more than 2 months: the message by the dates, and no list
  // typed in the site's format (Melbourne: day first); the address carries YYYY-MM-DD
  await page.getByLabel("To", { exact: true }).fill("07/03/2020");
  await expect(page).toHaveURL(/to=2020-03-07/);
  await expect(page.getByTestId("date-error")).toHaveText("Date range too large, please select dates within 2 months.");
  await expect(page.getByText("There are no manifests to display.")).toHaveCount(0);

  // a from after the to moves the to
  await page.getByLabel("From", { exact: true }).fill("01/04/2020");
  await expect(page).toHaveURL(/from=2020-04-01&to=2020-04-01/);
  await expect(page.getByLabel("To", { exact: true })).toHaveValue("01/04/2020");
  await expect(page.getByText("There are no manifests to display.")).toBeVisible();

  // a to before the from moves the from
  await page.getByLabel("To", { exact: true }).fill("20/03/2020");
  await expect(page).toHaveURL(/from=2020-03-20&to=2020-03-20/);
  await expect(page.getByLabel("From", { exact: true })).toHaveValue("20/03/2020");
});
