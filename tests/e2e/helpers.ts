import { expect, type Browser, type Locator, type Page, type Request } from "./support/test";

export const PASSWORD = "Demo-password-12";

/** Signs in through the login form, with the keyboard only. */
export async function signIn(page: Page, email: string, path = "/login", password = PASSWORD) {
  await page.goto(path);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Password").press("Enter");
  await expect(page).not.toHaveURL(/\/login/);
}

/** Counts every mouse event the page receives, so a test can prove it never used the mouse. */
export async function countMouse(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __mouse: number };
    w.__mouse = 0;
    for (const type of ["mousedown", "mouseup", "click", "pointerdown", "pointerup"]) {
      window.addEventListener(
        type,
        (e) => {
          // keyboard activation fires a synthetic click with detail 0: not a mouse
          if (type === "click" && (e as MouseEvent).detail === 0) return;
          w.__mouse++;
        },
        true,
      );
    }
  });
}

export const mouseEvents = (page: Page) => page.evaluate(() => (window as unknown as { __mouse: number }).__mouse);

/** Presses Tab until `target` has focus (at most `max` times): the tab order reaches it. Answers how many presses it took. */
export async function tabTo(page: Page, target: Locator, max = 20) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return i;
    await page.keyboard.press("Tab");
  }
  await expect(target).toBeFocused();
  return max;
}

/**
 * The address a print opens in a new tab: call before the click, await after. A browser with a PDF
 * viewer shows the PDF at that address; a headless shell (as the bundled Chromium is) downloads it
 * and leaves the tab blank. Both make the tab's navigation request, which is what this watches.
 */
export function printTab(page: Page, url: RegExp, timeout = 20_000): Promise<string> {
  const inNewTab = (r: Request) => {
    try {
      return r.frame().page() !== page;
    } catch {
      return true; // window.open(url): the tab's first request comes before its frame exists
    }
  };
  return page
    .context()
    .waitForEvent("request", { predicate: (r) => r.isNavigationRequest() && url.test(r.url()) && inNewTab(r), timeout })
    .then((r) => r.url());
}

/**
 * A new consignment on the screen, filled and rated: from the site to Brisbane Hardware (the
 * address book), `quantity` cartons. The rates are showing; nothing is saved yet.
 */
export async function startRatedConsignment(page: Page, quantity = "1") {
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await page.getByTestId("receiver_address-name").fill("Brisb");
  await page.getByRole("option", { name: /Brisbane Hardware/ }).click();
  await page.getByLabel("Quantity line 1").fill(quantity);
  await page.getByLabel("Item type line 1").selectOption({ label: "Carton" });
  await expect(page.getByTestId("rate").first()).toBeVisible();
}

/**
 * A SIMEX consignment from Melbourne to Woolloongabba, created and despatched through the API (the
 * despatch job waited for); the receiver named as given. Answers its id and number.
 */
export async function despatchedSimex(page: Page, reference: string, receiver: { name: string; email?: string }): Promise<{ id: number; number: string }> {
  const json = { headers: { Accept: "application/json" } };
  const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  const carton = Number(await page.getByLabel("Item type line 1").locator("option", { hasText: "Carton" }).first().getAttribute("value"));
  const created = await page.request.post("/api/consignments", {
    ...json,
    data: {
      site_code: "MEL",
      reference,
      despatch_date: date,
      carrier_code: "SIMEX",
      service_code: "ONT",
      pickup_at: `${date} 10:00`,
      sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
      receiver_address: { ...receiver, address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
      items: [{ quantity: 1, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 8 }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const c = await created.json();
  const res = await page.request.put("/api/consignments/despatch_all", { ...json, data: { ids: [c.id] } });
  const { job_id } = await res.json();
  await expect.poll(async () => (await (await page.request.get(`/api/job_status/${job_id}`, json)).json()).status, { timeout: 20_000 }).toBe("complete");
  const number = (await (await page.request.get(`/api/consignments/${c.id}`, json)).json()).consignment_number as string;
  return { id: c.id, number };
}

/**
 * Gives a demo user of Acme flags (can_book, can_bulkupload...) through the users /api as an admin,
 * in a page of its own. Answers how to put them back: the e2e tests share one database, and a later
 * file expects the demo users as the seed made them.
 */
export async function setUserFlags(browser: Browser, email: string, flags: Record<string, boolean>): Promise<() => Promise<void>> {
  const admin = await browser.newPage();
  await signIn(admin, "admin@example.com");
  const json = { headers: { Accept: "application/json" } };
  const { users } = (await (await admin.request.get("/api/customers/1/users", json)).json()) as { users: Array<{ id: number; email: string } & Record<string, unknown>> };
  const user = users.find((u) => u.email === email)!;
  const before = Object.fromEntries(Object.keys(flags).map((k) => [k, Boolean(user[k])]));
  const put = async (data: Record<string, boolean>) => {
    const res = await admin.request.put(`/api/customers/1/users/${user.id}`, { ...json, data });
    expect(res.status(), await res.text()).toBe(200);
  };
  await put(flags);
  return async () => {
    await put(before);
    await admin.close();
  };
}
