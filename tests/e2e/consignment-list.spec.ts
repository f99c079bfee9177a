import { expect, test, type APIRequestContext, type Page } from "./support/test";
import { countMouse, mouseEvents, printTab, signIn, tabTo } from "./helpers";
import { todayIn } from "../../app/modules/calendar/site-time";

/**
 * The consignment list (spec 1 section 2) in Chromium. Each test makes its own consignments at
 * the Sydney site through POST /api/consignments, on a carrier service of its own, and opens the
 * list filtered to that site, so what other tests leave behind stays out of its group.
 */

// the consignments below are sent from Sydney: "today" is Sydney's
const today = todayIn("Australia/Sydney");
const receiver = { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD", country: "AUSTRALIA" };
const sender = { name: "Sydney DC", address_line_1: "45 Victoria Street", locality: "WETHERILL PARK", postcode: "2164", region: "NSW", country: "AUSTRALIA" };

interface Created {
  id: number;
  service_code: string;
  state: string;
}

let cartonId = 0;
/** Signs in and reads the demo customer's Carton item type id, as the consignment screen offers it. */
async function start(page: Page) {
  await signIn(page, "despatcher@example.com");
  if (cartonId) return;
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  cartonId = Number(await page.getByLabel("Item type line 1").locator("option", { hasText: "Carton" }).first().getAttribute("value"));
}

async function create(request: APIRequestContext, reference: string, service: [string, string], over: Record<string, unknown> = {}): Promise<Created> {
  const res = await request.post("/api/consignments", {
    headers: { Accept: "application/json" },
    data: {
      site_code: "SYD",
      reference,
      despatch_date: today,
      sender_address: sender,
      receiver_address: { ...receiver, name: `${reference} Receiver` },
      carrier_code: service[0],
      service_code: service[1],
      items: [{ quantity: 1, item_type_id: cartonId, length: 40, width: 30, height: 30, weight_in_uom: "8", reference: `${reference}-ITEM` }],
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as Created;
  expect(body.state).toBe("despatchable");
  return body;
}

/** The service id of a group, as the list's URL names it (s<id>). */
async function groupOf(request: APIRequestContext, id: number): Promise<string> {
  const res = await request.get(`/api/consignments?site=SYD&dateFilter=today&limit=1000`, { headers: { Accept: "application/json" } });
  const row = ((await res.json()) as { consignments: { id: number; service_id: number }[] }).consignments.find((r) => r.id === id);
  return `s${row!.service_id}`;
}

const row = (page: Page, reference: string) => page.getByTestId("consignment-row").filter({ hasText: `${reference} Receiver`.slice(0, 19) });
const box = (page: Page, reference: string) => row(page, reference).locator("input[name=ids]");

async function hydrated(page: Page) {
  await expect(page.getByTestId("consignment-list")).toHaveAttribute("data-hydrated", "true");
}


test("select a range with shift-click, delete it and undo", async ({ page }) => {
  await start(page);
  const refs = ["E2E-SEL-1", "E2E-SEL-2", "E2E-SEL-3", "E2E-SEL-4"];
  const made: Created[] = [];
  for (const r of refs) made.push(await create(page.request, r, ["NORTHLINE", "RXP"]));
  const group = await groupOf(page.request, made[0]!.id);
  await page.goto(`/consignments/metadata/today?site=SYD&sort=reference&dir=asc&open=${group}`);
  await hydrated(page);
  await expect(page.getByText("There are no consignments to display.")).toHaveCount(0);

  // shift-click selects the rows between, in the order shown
  await box(page, "E2E-SEL-1").click();
  await box(page, "E2E-SEL-3").click({ modifiers: ["Shift"] });
  for (const r of ["E2E-SEL-1", "E2E-SEL-2", "E2E-SEL-3"]) await expect(box(page, r)).toBeChecked();
  await expect(box(page, "E2E-SEL-4")).not.toBeChecked();

  await page.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByText("3 consignments deleted.")).toBeVisible();
  for (const r of ["E2E-SEL-1", "E2E-SEL-2", "E2E-SEL-3"]) await expect(row(page, r)).toHaveCount(0);
  await expect(row(page, "E2E-SEL-4")).toHaveCount(1);

  await page.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("3 consignments reinstated.")).toBeVisible();
  for (const r of refs) await expect(row(page, r)).toHaveCount(1);

  // a header sorts: the same column again flips the order
  await page.getByRole("columnheader", { name: /Reference/ }).getByRole("link").click();
  await expect(page).toHaveURL(/sort=reference&dir=desc/);
  await expect(page.getByTestId("consignment-row").first()).toContainText("E2E-SEL-4");
  await expect(page.getByRole("columnheader", { name: /Reference/ })).toHaveAttribute("aria-sort", "descending");

  // select all in the group, then a shift-click clears a range
  await page.getByRole("checkbox", { name: /^Select all in Northline/ }).check();
  for (const r of refs) await expect(box(page, r)).toBeChecked();
  await box(page, "E2E-SEL-3").click();
  await box(page, "E2E-SEL-1").click({ modifiers: ["Shift"] });
  await expect(box(page, "E2E-SEL-4")).toBeChecked();
  for (const r of ["E2E-SEL-1", "E2E-SEL-2", "E2E-SEL-3"]) await expect(box(page, r)).not.toBeChecked();
});

test("the site and date filters are remembered and the counters link to their lists", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  await page.goto("/consignments/metadata/today?site=all");
  await hydrated(page);
  await page.getByLabel("Current site").selectOption({ label: "Sydney DC" });
  await expect(page).toHaveURL(/\/consignments\/metadata\/today\?site=SYD/);
  await page.getByLabel("Despatch date").selectOption("next_7_days");
  await expect(page).toHaveURL(/\/consignments\/metadata\/next_7_days\?site=SYD/);
  // remembered: the list without path segments opens the same way
  await page.goto("/consignments");
  await expect(page.getByLabel("Despatch date")).toHaveValue("next_7_days");
  await expect(page.getByLabel("Current site")).toHaveValue("SYD");
  await page.getByTestId("filter-labels_to_print").click();
  await expect(page).toHaveURL(/\/consignments\/labels_to_print\/next_7_days\?site=SYD/);
  await expect(page.getByTestId("filter-labels_to_print")).toHaveAttribute("aria-current", "page");
  // Despatch cannot run from Labels to print
  await expect(page.getByRole("button", { name: "Despatch", exact: true })).toBeDisabled();
  await page.getByLabel("Despatch date").selectOption("today");
  await expect(page).toHaveURL(/\/consignments\/labels_to_print\/today\?site=SYD/);
  await expect(page.getByTestId("shortcuts")).toContainText("Alt+M");
});

test("Print Labels prints the selection as one PDF and the consignments move on to Ready to despatch", async ({ page }) => {
  await start(page);
  const a = await create(page.request, "E2E-PRT-1", ["NORTHLINE", "GEN"]);
  await create(page.request, "E2E-PRT-2", ["NORTHLINE", "GEN"]);
  const group = await groupOf(page.request, a.id);
  await page.goto(`/consignments/labels_to_print/today?site=SYD&sort=reference&dir=asc&open=${group}`);
  await hydrated(page);
  await box(page, "E2E-PRT-1").check();
  await box(page, "E2E-PRT-2").check();
  // the labels are fetched as one PDF and shown in a new tab as an object URL (a headless shell, as
  // the bundled Chromium is, has no PDF viewer and leaves that tab blank)
  const popup = page.waitForEvent("popup");
  const printed = page.waitForResponse((r) => /\/print\/labels\?ids=\d+(,\d+)+$/.test(r.url()) && r.request().method() === "POST");
  await page.getByRole("button", { name: "Print Labels" }).click();
  await popup;
  expect((await printed).headers()["content-type"]).toBe("application/pdf");
  await expect(page.getByText("2 labels sent to printer. (Desk printer (PDF))")).toBeVisible();
  // the list reloads: printed labels are no longer to print
  await expect(row(page, "E2E-PRT-1")).toHaveCount(0);
  await page.goto(`/consignments/complete/today?site=SYD&sort=reference&dir=asc&open=${group}`);
  await expect(row(page, "E2E-PRT-1")).toHaveCount(1);
  await expect(row(page, "E2E-PRT-1").getByRole("link")).toHaveText(/^[A-Z]+SYD\d{7}$/);
  // a reprint of both is one PDF
  const pdf = await page.request.get(`/print/labels?ids=${a.id}`);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  expect((await pdf.body()).subarray(0, 4).toString()).toBe("%PDF");
});

test("a despatcher selects, despatches and prints the manifest with the keyboard alone", async ({ page }) => {
  await start(page);
  const made: Created[] = [];
  for (const r of ["E2E-KEY-1", "E2E-KEY-2", "E2E-KEY-3"]) made.push(await create(page.request, r, ["auspost", "PP"]));
  // labels printed: Ready to despatch
  const printed = await page.request.post(`/print/labels?ids=${made.map((m) => m.id).join(",")}&format=html`);
  expect(printed.status()).toBe(200);
  const group = await groupOf(page.request, made[0]!.id);
  await page.goto(`/consignments/complete/today?site=SYD&sort=reference&dir=asc&open=${group}`);
  await hydrated(page);
  await countMouse(page);
  const k = page.keyboard;

  // Tab reaches the first row's checkbox; Space selects it, the arrows move, Shift+Space selects the range
  await tabTo(page, box(page, "E2E-KEY-1"), 60);
  await k.press("Space");
  await expect(box(page, "E2E-KEY-1")).toBeChecked();
  await k.press("ArrowDown");
  await k.press("ArrowDown");
  await expect(box(page, "E2E-KEY-3")).toBeFocused();
  await k.press("Shift+Space");
  for (const r of ["E2E-KEY-1", "E2E-KEY-2", "E2E-KEY-3"]) await expect(box(page, r)).toBeChecked();

  // Alt+M: Despatch + Print Manifest
  const popup = printTab(page, /\/print\/despatch_manifest_report\?ids=\d+(,\d+)*$/);
  await k.press("Alt+m");
  const progress = page.locator("[data-job-status]");
  await expect(progress).toContainText(/Despatching\.\.\.|Despatched \d+ of 3 Consignments|Your consignments have been despatched\./);
  const manifest = await popup;
  await expect(page.getByText(/manifests? sent to printer\. \(Office A4 \(PDF\)\)/)).toBeVisible();
  const pdf = await page.request.get(new URL(manifest).pathname + new URL(manifest).search);
  expect(pdf.headers()["content-type"]).toBe("application/pdf");
  // the despatched consignments leave Ready to despatch; the progress clears 3 s after completion
  await expect(row(page, "E2E-KEY-1")).toHaveCount(0);
  await expect(progress).toHaveCount(0, { timeout: 10_000 });
  const listed = await page.request.get(`/api/consignments?filter=despatched&site=SYD&dateFilter=today&limit=1000`, { headers: { Accept: "application/json" } });
  const despatched = ((await listed.json()) as { consignments: { id: number }[] }).consignments.map((c) => c.id);
  for (const m of made) expect(despatched).toContain(m.id);
  expect(await mouseEvents(page)).toBe(0);
});

test("Auto Labels prints what is still to print while open, and says what it printed", async ({ page }) => {
  await start(page);
  const a = await create(page.request, "E2E-AUTO-1", ["SIMEX", "ONT"], { pickup_at: `${today} 23:45` });
  await page.goto(`/consignments/labels_to_print/today?site=SYD`);
  await hydrated(page);
  await page.getByRole("button", { name: "Auto Labels" }).click();
  const dialog = page.getByTestId("auto-labels");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId("auto-labels-log")).toContainText("E2E-AUTO-1", { timeout: 10_000 });
  await expect(dialog.getByTestId("auto-labels-status")).toContainText("sent to printer");
  const after = await page.request.get(`/api/consignments?filter=complete&site=SYD&dateFilter=today&limit=1000`, { headers: { Accept: "application/json" } });
  expect(((await after.json()) as { consignments: { id: number }[] }).consignments.map((c) => c.id)).toContain(a.id);
  // a consignment made while it is open is printed on a later round
  await create(page.request, "E2E-AUTO-2", ["SIMEX", "ONT"], { pickup_at: `${today} 23:45` });
  await expect(dialog.getByTestId("auto-labels-log")).toContainText("E2E-AUTO-2", { timeout: 10_000 });
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toBeHidden();
});

test("the All view says each row's state, and a despatch there unticks what it despatched (keyboard alone)", async ({ page }) => {
  await start(page);
  const made: Created[] = [];
  for (const r of ["E2E-ALL-1", "E2E-ALL-2", "E2E-ALL-3"]) made.push(await create(page.request, r, ["auspost", "PP"]));
  // labels printed for the first two only: Ready to despatch, and Labels to print for the third
  const printed = await page.request.post(`/print/labels?ids=${made[0]!.id},${made[1]!.id}&format=html`);
  expect(printed.status()).toBe(200);
  const group = await groupOf(page.request, made[0]!.id);
  await page.goto(`/consignments/metadata/today?site=SYD&sort=reference&dir=asc&open=${group}`);
  await hydrated(page);
  await countMouse(page);
  const table = page.getByTestId(`group-${group}`);
  await expect(table.getByRole("columnheader", { name: "State" })).toBeVisible();
  const state = (reference: string) => row(page, reference).getByTestId("row-state");
  await expect(state("E2E-ALL-1")).toHaveText("Ready to despatch");
  await expect(state("E2E-ALL-3")).toHaveText("Labels to print");

  const k = page.keyboard;
  await tabTo(page, box(page, "E2E-ALL-1"), 80);
  await k.press("Space");
  await k.press("ArrowDown");
  await k.press("Shift+Space");
  for (const r of ["E2E-ALL-1", "E2E-ALL-2"]) await expect(box(page, r)).toBeChecked();
  await k.press("Alt+d");
  // the despatched rows stay in the All view, now Despatched and no longer ticked
  for (const r of ["E2E-ALL-1", "E2E-ALL-2"]) {
    await expect(state(r)).toHaveText("Despatched");
    await expect(box(page, r)).not.toBeChecked();
  }
  await expect(table.getByText(/\d+ selected/)).toHaveCount(0);
  await expect(state("E2E-ALL-3")).toHaveText("Labels to print");
  expect(await mouseEvents(page)).toBe(0);
});
