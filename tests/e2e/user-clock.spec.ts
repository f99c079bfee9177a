import { expect, test, type Browser, type Page } from "./support/test";
import { countMouse, mouseEvents, signIn } from "./helpers";
import { formatDisplayDate } from "../../app/modules/calendar/display-date";
import { localTime, todayIn } from "../../app/modules/calendar/site-time";

/**
 * Issue 31 #1 (decision 032): the browser runs in Melbourne and in Los Angeles, and each reader
 * sees their own clock whatever the browser's zone: the admin (no setting, no site) the
 * provider's Melbourne and DD/MM/YYYY, not the demo's first site, Los Angeles; the devs user, who
 * chose Los Angeles and MM/DD/YYYY, those. Every page is loaded with JavaScript, so a server render
 * the browser would write differently fails the test as a hydration error (support/test.ts).
 */

const json = { headers: { Accept: "application/json" } };
const MEL = "Australia/Melbourne";
const LA = "America/Los_Angeles";

type Reader = { email: string; zone: string; format: "DD/MM/YYYY" | "MM/DD/YYYY" };
const ADMIN: Reader = { email: "admin@example.com", zone: MEL, format: "DD/MM/YYYY" };
const DEVS: Reader = { email: "devs@example.com", zone: LA, format: "MM/DD/YYYY" };

/** The devs user's own setting, through the user form's API; returns the undo. */
async function chooseClock(browser: Browser, setting: { timezone: string | null; date_format: string | null }) {
  const page = await (await browser.newContext()).newPage();
  await signIn(page, "devs@example.com");
  const me = (await (await page.request.get("/api/customers/1/users?q=devs@example.com", json)).json()) as { users: Array<{ id: number; customer_id: number; email: string }> };
  // the demo's users are all Acme's (customer 1)
  const user = me.users.find((u) => u.email === "devs@example.com")!;
  const customerId = user.customer_id;
  const put = async (data: Record<string, unknown>) => {
    const res = await page.request.put(`/api/customers/${customerId}/users/${user.id}`, { ...json, data });
    expect(res.status(), await res.text()).toBe(200);
  };
  await put(setting);
  return async () => {
    await put({ timezone: null, date_format: null });
    await page.context().close();
  };
}

async function readerIn(browser: Browser, timezoneId: string, reader: Reader): Promise<Page> {
  const page = await (await browser.newContext({ timezoneId })).newPage();
  await signIn(page, reader.email);
  return page;
}

/** Every <time> on the page reads its instant in the reader's zone and format. */
async function timesRead(page: Page, reader: Reader) {
  const times = page.locator("main time[datetime], time[datetime]");
  const n = await times.count();
  for (let i = 0; i < Math.min(n, 10); i++) {
    const at = (await times.nth(i).getAttribute("datetime"))!;
    await expect(times.nth(i)).toHaveText(localTime(new Date(at), reader.zone, reader.format));
  }
  return n;
}

async function screens(browser: Browser, timezoneId: string, reader: Reader, header: string) {
  const page = await readerIn(browser, timezoneId, reader);
  const today = formatDisplayDate(todayIn(reader.zone), reader.format);

  // a notice dated today (blank date: today in the writer's clock), published by keyboard: Published at once
  const made = await page.request.post("/api/admin_notices", { ...json, data: { header, customer_id: 1, content: "<p>Depot closed</p>" } });
  expect(made.status(), await made.text()).toBe(201);
  await page.goto("/notices");
  await countMouse(page);
  await page.getByRole("button", { name: `Publish ${header}` }).focus();
  await page.keyboard.press("Enter");
  const row = page.getByRole("row").filter({ hasText: header });
  await expect(row).toContainText("Published");
  await expect(row).toContainText(today);
  expect(await mouseEvents(page)).toBe(0);

  // /home shows the notice's date as /notices does
  await page.goto("/home");
  await expect(page.locator("#notices li").filter({ hasText: header })).toContainText(today);

  // the mailbox and the declarations list: times in the reader's clock
  await page.goto("/mailbox");
  await expect(page.getByRole("heading", { name: /Mailbox/ })).toBeVisible();
  await timesRead(page, reader);
  await page.goto("/customers/1/index_declarations");
  await expect(page.getByRole("table", { name: "Declarations" }).or(page.getByText(/no declarations/i))).toBeVisible();

  // the date fields ask for the reader's format and start at today in their zone
  await page.goto("/advanced");
  await expect(page.getByLabel("From despatch date")).toHaveAttribute("placeholder", reader.format);
  await expect(page.getByLabel("From despatch date")).toHaveValue(today);
  await page.goto("/manifests");
  await expect(page.getByLabel("From", { exact: true })).toHaveAttribute("placeholder", reader.format);
  await expect(page.getByLabel("To", { exact: true })).toHaveValue(/^\d{2}\/\d{2}\/\d{4}$/);
  await page.goto("/invoices_receivable?modal=invoice");
  await expect(page.getByLabel("Date (once)")).toHaveAttribute("placeholder", reader.format);
  await page.goto("/manage_tracking");
  await expect(page.getByLabel("From", { exact: true })).toHaveValue(today);
  await expect(page.getByLabel("From", { exact: true })).toHaveAttribute("placeholder", reader.format);
  await page.context().close();
}

test.describe.configure({ timeout: 360_000 });

test("the admin without a setting reads Melbourne and DD/MM/YYYY in a Melbourne browser", async ({ browser }) => {
  await screens(browser, MEL, ADMIN, `E2E clock MEL ${Date.now()}`);
});

test("the admin without a setting still reads Melbourne and DD/MM/YYYY in a Los Angeles browser", async ({ browser }) => {
  await screens(browser, LA, ADMIN, `E2E clock MEL in LA ${Date.now()}`);
});

test("a user who chose Los Angeles and MM/DD/YYYY reads them, in a Los Angeles and in a Melbourne browser", async ({ browser }) => {
  const undo = await chooseClock(browser, { timezone: LA, date_format: "MM/DD/YYYY" });
  try {
    await screens(browser, LA, DEVS, `E2E clock LA ${Date.now()}`);
    await screens(browser, MEL, DEVS, `E2E clock LA in MEL ${Date.now()}`);
  } finally {
    await undo();
  }
});
