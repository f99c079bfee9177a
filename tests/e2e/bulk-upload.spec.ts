import { expect, test } from "./support/test";
import { countMouse, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Bulk upload (issue 17 item 4): an admin gives the despatcher can_bulkupload; the despatcher
 * uploads a file of 50 consignments by keyboard alone, watches the job to its result and finds
 * the consignments in the consignment list.
 */

const ACME = 1;
const DESPATCHER = 1;
// short: the list shows 12 characters of a reference
const RUN = Date.now().toString(36).toUpperCase().slice(-5);
const HEADER = "site_code,despatch_date,reference,receiver_name,receiver_address_line_1,receiver_locality,receiver_postcode,receiver_region,item_type,quantity,length,width,height,weight";

/** Melbourne's today as the file writes it (DD/MM/YYYY): the list's default date filter shows them. */
function melbourneToday(): string {
  const parts = new Intl.DateTimeFormat("en-AU", { timeZone: "Australia/Melbourne", day: "2-digit", month: "2-digit", year: "numeric" }).formatToParts(new Date());
  const get = (t: string) => parts.find((p) => p.type === t)!.value;
  return `${get("day")}/${get("month")}/${get("year")}`;
}

function fileOf50(): string {
  const date = melbourneToday();
  const lines = [HEADER];
  for (let i = 1; i <= 50; i++) {
    lines.push(`MEL,${date},B${RUN}-${i},Receiver ${i},5 Ipswich Road,WOOLLOONGABBA,4102,QLD,Carton,1,40,30,20,5`);
    if (i % 2 === 0) lines.push(",,,,,,,,Carton,2,30,30,30,3");
  }
  return `${lines.join("\n")}\n`;
}

test("the despatcher bulk-uploads 50 consignments by keyboard and sees them in the consignment list", async ({ page, browser }) => {
  test.setTimeout(120_000);
  // an admin gives the despatcher the bulk upload flag
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signIn(admin, "admin@example.com");
  await admin.goto(`/customers/${ACME}/users/${DESPATCHER}`);
  await expect(admin.getByTestId("user-editor")).toHaveAttribute("data-hydrated", "true");
  const flag = admin.getByRole("checkbox", { name: "Can bulk upload" });
  if (!(await flag.isChecked())) {
    await tabTo(admin, flag, 80);
    await admin.keyboard.press("Space");
    await expect(flag).toBeChecked();
    await tabTo(admin, admin.getByRole("button", { name: "Save", exact: true }), 40);
    await admin.keyboard.press("Enter");
    await expect(admin.getByText("User was saved.")).toBeVisible();
  }
  await adminContext.close();

  await signIn(page, "despatcher@example.com");
  await page.goto("/bulk_upload");
  await expect(page.getByRole("heading", { name: "Bulk uploader" })).toBeVisible();
  await expect(page.getByTestId("bulk-upload-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);

  await tabTo(page, page.getByLabel("Type"), 30);
  await expect(page.getByLabel("Type")).toHaveValue("consignment");
  const file = page.getByLabel("File", { exact: true });
  await tabTo(page, file, 10);
  await file.setInputFiles({ name: `bulk-${RUN}.csv`, mimeType: "text/csv", buffer: Buffer.from(fileOf50()) });
  await tabTo(page, page.getByRole("button", { name: "Upload", exact: true }), 10);
  await page.keyboard.press("Enter");

  await expect(page).toHaveURL(/\/bulk_upload\?upload=\d+/);
  // the job's progress, then its result (the page polls the job and reloads its data when done)
  const result = page.getByTestId("bulk-upload-result");
  await expect(result).toBeVisible({ timeout: 60_000 });
  await expect(result.getByRole("status")).toHaveText("50 consignments created of 50 in the file.");
  await expect(page.getByText("Upload Errors")).toHaveCount(0);

  await countMouse(page);
  await tabTo(page, page.getByRole("link", { name: "Go to the consignment list" }), 40);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/consignments/);
  await expect(page.getByTestId("consignment-list")).toBeVisible();
  expect(await mouseEvents(page)).toBe(0);
  // the list groups by service: open the groups the upload went into
  const res = await page.request.get("/api/consignments?site=MEL&dateFilter=today&limit=1000", { headers: { Accept: "application/json" } });
  const mine = ((await res.json()) as { consignments: { reference: string; service_id: number }[] }).consignments.filter((c) => c.reference?.startsWith(`B${RUN}-`));
  expect(mine).toHaveLength(50);
  const groups = [...new Set(mine.map((c) => `s${c.service_id}`))].join(",");
  await page.goto(`/consignments/metadata/today?site=MEL&open=${groups}`);
  const rows = page.getByTestId("consignment-row").filter({ hasText: `B${RUN}-` });
  await expect(rows).toHaveCount(50);
  // each of the upload's references once (-25 and -50 name no other of the 50)
  for (const i of [25, 50]) await expect(page.getByTestId("consignment-row").filter({ hasText: `B${RUN}-${i}` })).toHaveCount(1);
});
