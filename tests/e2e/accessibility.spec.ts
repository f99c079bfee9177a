import { expect, test, type APIRequestContext, type Page } from "./support/test";
import { todayIn } from "../../app/modules/calendar/site-time";
import { audit, hydrated, json, visit } from "./axe";
import { PASSWORD, signIn } from "./helpers";

/**
 * Issue 13 section 5: axe on every screen and the dialogs that open from them, as the role that
 * sees each, with WCAG 2.0 and 2.1 (A and AA) and axe's best practices (landmarks, heading order,
 * table headers). A serious or critical violation fails, and so does one of the moderate or minor
 * rules this product meets everywhere (HELD); each screen is a soft assertion, so one run lists
 * every screen's violations (rule, impact, nodes). Other moderate and minor ones are recorded as
 * annotations of the test. One sign-in per role; the consignments the screens need are made at
 * the Melbourne site through the API, to a receiver of their own, so they stay out of the other
 * specs' groups (those work at Sydney or to receivers of their own). The administration screens'
 * audits are in accessibility-admin.spec.ts; both use ./axe.ts.
 */

// the consignments are sent from Melbourne: "today" is Melbourne's
const today = todayIn("Australia/Melbourne");
const ACME = 1;

/** The demo customer's Carton item type id, as the consignment screen offers it. */
async function cartonId(page: Page) {
  return Number(await page.getByLabel("Item type line 1").locator("option", { hasText: "Carton" }).first().getAttribute("value"));
}

async function createConsignment(request: APIRequestContext, carton: number, reference: string, over: Record<string, unknown> = {}) {
  const res = await request.post("/api/consignments", {
    ...json,
    data: {
      site_code: "MEL",
      reference,
      despatch_date: today,
      sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
      receiver_address: { name: "Axe Audit Receiver", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
      carrier_code: "NORTHLINE",
      service_code: "GEN",
      items: [{ quantity: 1, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 8 }],
      ...over,
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as { id: number; state: string };
}

/** Despatches through the API and waits for the job to end as `expected`. */
async function despatch(request: APIRequestContext, id: number, expected: "complete" | "failed") {
  const res = await request.put("/api/consignments/despatch_all", { ...json, data: { ids: [id] } });
  const { job_id } = await res.json();
  await expect.poll(async () => (await (await request.get(`/api/job_status/${job_id}`, json)).json()).status, { timeout: 20_000 }).toBe(expected);
}

test("signed out: sign-in and forgot password", async ({ page }) => {
  await visit(page, "/login", "sign-in");
  await test.step("sign-in with its messages", async () => {
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByText("Password is required")).toBeVisible();
    await audit(page, "sign-in with its messages");
    await page.getByLabel("E-mail").fill("despatcher@example.com");
    await page.getByLabel("Password").fill("Wrong-password-00");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
    await audit(page, "sign-in refused");
  });
  await visit(page, "/forgot_password", "forgot password");
  await visit(page, "/reset_password?token=axe", "reset password");
});

test("a despatcher's consignment screens and their dialogs", async ({ page, playwright, baseURL }) => {
  test.setTimeout(180_000);
  // a super despatcher: New Address (the address book dialog) is theirs
  await signIn(page, "superdespatcher@example.com");
  const ready = hydrated("consignment-screen");

  await visit(page, "/", "new consignment", ready);
  const carton = await cartonId(page);
  await test.step("address book typeahead", async () => {
    await page.getByTestId("receiver_address-name").fill("Brisb");
    await expect(page.getByRole("option", { name: /Brisbane Hardware/ })).toBeVisible();
    await audit(page, "address book typeahead");
    await page.getByRole("option", { name: /Brisbane Hardware/ }).click();
  });
  await test.step("rates and two item lines", async () => {
    await page.getByLabel("Quantity line 1").fill("1");
    await page.getByLabel("Item type line 1").selectOption({ label: "Carton" });
    await page.getByRole("button", { name: "Add item line" }).click();
    await page.getByLabel("Quantity line 2").fill("1");
    await page.getByLabel("Item type line 2").selectOption({ label: "Carton" });
    await expect(page.getByTestId("rate").first()).toBeVisible();
    await page.getByLabel("Dangerous goods line 1").check();
    await audit(page, "consignment with rates and a dangerous goods line");
  });
  await test.step("consolidate dialog", async () => {
    await page.getByRole("button", { name: "Consolidate…" }).click();
    await expect(page.getByTestId("consolidate-dialog")).toBeVisible();
    await audit(page, "consolidate dialog");
    await page.keyboard.press("Escape");
  });
  await test.step("new address dialog", async () => {
    await page.getByRole("button", { name: "New Address" }).click();
    await expect(page.getByTestId("address-dialog")).toBeVisible();
    await audit(page, "new address dialog");
    await page.keyboard.press("Escape");
  });
  await test.step("saved, with its alert", async () => {
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page).toHaveURL(/\/consignment\/\d+$/);
    await expect(page.getByText(/^Your consignment has been saved/)).toBeVisible();
    await audit(page, "saved consignment with its alert");
  });
  await test.step("saved incomplete, with its errors", async () => {
    await page.goto("/");
    await ready(page);
    await page.getByLabel("Reference", { exact: true }).fill("AXE-INCOMPLETE");
    await page.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Your consignment has been saved but is incomplete.")).toBeVisible();
    await page.reload();
    await expect(page.getByText("Receiver address is required")).toBeVisible();
    await audit(page, "incomplete consignment with its errors");
  });

  // two consignments to one receiver on one date: the saved one offers a merge
  await createConsignment(page.request, carton, "AXE-MERGE-A");
  const saved = await createConsignment(page.request, carton, "AXE-MERGE-B");
  await visit(page, `/consignment/${saved.id}`, "saved consignment", ready);
  await test.step("merge dialog", async () => {
    await page.getByRole("button", { name: "Merge…" }).click();
    await expect(page.getByTestId("merge-dialog")).toBeVisible();
    await audit(page, "merge dialog");
    await page.keyboard.press("Escape");
  });

  for (const path of ["/quote", "/return", "/thirdparty", "/return_quote", "/thirdparty_quote"]) await visit(page, path, path, ready);
  await visit(page, "/quotes");
  await visit(page, "/quick_quote", "quick quote");
  await test.step("quick quote with its rates", async () => {
    await page.getByTestId("receiver-locality").fill("2000");
    await page.getByRole("option", { name: "HAYMARKET 2000" }).click();
    for (const [f, v] of [["Quantity", "1"], ["Length", "40"], ["Width", "30"], ["Height", "30"], ["Weight", "10"]]) await page.getByLabel(`${f} line 1`).fill(v!);
    await expect(page.getByTestId("quick-quote").first()).toBeVisible();
    await audit(page, "quick quote with its rates");
  });

  // a failed despatch: the simulated carrier is told to fail by a super admin
  const devs = await playwright.request.newContext({ baseURL });
  try {
    expect((await devs.post("/users/sign_in", { ...json, data: { user: { email: "devs@example.com", password: PASSWORD, remember_me: 0 } } })).status()).toBe(200);
    const simulate = async (settings: Record<string, unknown>) => expect((await devs.put("/api/carriers/SIMEX/simulation", { ...json, data: settings })).status()).toBe(200);
    await simulate({ fail_despatch: true });
    try {
      const failed = await createConsignment(page.request, carton, "AXE-FAILED", { carrier_code: "SIMEX", service_code: "ONT", pickup_at: `${today} 23:45` });
      await despatch(page.request, failed.id, "failed");
      await visit(page, `/consignment/${failed.id}`, "failed consignment", ready);
      await visit(page, `/consignment/${failed.id}?redespatch=1`, "redespatch dialog", async (p) => {
        await expect(p.getByRole("dialog", { name: "Redespatch consignment" })).toBeVisible();
      });
    } finally {
      await simulate({ fail_despatch: false });
    }
  } finally {
    await devs.dispose();
  }
});

test("a despatcher's lists, manifests and other screens", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, "despatcher@example.com");
  await page.goto("/");
  await hydrated("consignment-screen")(page);
  const carton = await cartonId(page);
  await createConsignment(page.request, carton, "AXE-LIST-1");
  await createConsignment(page.request, carton, "AXE-LIST-2", { carrier_code: "auspost", service_code: "PP" });
  const sent = await createConsignment(page.request, carton, "AXE-SENT");
  await despatch(page.request, sent.id, "complete");
  const { manifest_id } = (await (await page.request.get(`/api/consignments/${sent.id}`, json)).json()) as { manifest_id: number };

  const list = "/consignments/metadata/next_7_days?site=MEL";
  await visit(page, list, "consignment list", hydrated("consignment-list"));
  await test.step("consignment list with its groups open", async () => {
    const keys = await page.locator("section[data-testid^='group-']").evaluateAll((s) => s.map((e) => e.getAttribute("data-testid")!.slice("group-".length)));
    expect(keys.length).toBeGreaterThan(1);
    await page.goto(`${list}&open=${keys.join(",")}`);
    await hydrated("consignment-list")(page);
    await expect(page.getByTestId("consignment-row").first()).toBeVisible();
    await page.getByTestId("consignment-row").first().locator("input[name=ids]").check();
    await audit(page, "consignment list with its groups open");
  });
  await test.step("auto labels dialog", async () => {
    // a site and day with nothing to print: the dialog waits and prints nothing
    await page.goto("/consignments/labels_to_print/today?site=LAX");
    await hydrated("consignment-list")(page);
    await page.getByRole("button", { name: "Auto Labels" }).click();
    await expect(page.getByTestId("auto-labels")).toBeVisible();
    await audit(page, "auto labels dialog");
    await page.getByTestId("auto-labels").getByRole("button", { name: "Close" }).click();
  });

  await visit(page, `/manifests?open=${manifest_id}`, "manifests with one open", hydrated("manifests-screen"));
  await visit(page, `/consignment/${sent.id}`, "despatched consignment", hydrated("consignment-screen"));
  await test.step("cancellation acknowledgement", async () => {
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect(page.getByRole("dialog", { name: "Cancellation requested" })).toBeVisible();
    await audit(page, "cancellation acknowledgement");
  });
  await visit(page, `/tracking/${sent.id}`, "track and trace", hydrated("tracking-screen"));
  await test.step("tracking URL dialog", async () => {
    await page.getByRole("link", { name: "Tracking URL" }).click();
    await expect(page.getByRole("dialog", { name: "Tracking URL" }).getByLabel("Tracking URL")).toHaveValue(/\/track\//);
    await audit(page, "tracking URL dialog");
    const publicUrl = await page.getByRole("dialog", { name: "Tracking URL" }).getByLabel("Tracking URL").inputValue();
    await page.keyboard.press("Escape");
    await visit(page, new URL(publicUrl).pathname, "public tracking page");
  });

  await visit(page, "/home");
  await test.step("the shell's menus open", async () => {
    for (const menu of ["notices-bell", "user-menu"]) {
      await page.getByTestId(menu).locator("summary").click();
      await audit(page, `${menu} open`);
    }
    await page.keyboard.press("Escape");
  });
  await visit(page, "/configure_printers", "printers");
  await visit(page, "/users/edit", "user edit");
  await visit(page, "/enquiries", "enquiries");
  await visit(page, "/advanced", "advanced search");
});

test("staff screens, as an admin", async ({ page }) => {
  // about twenty audited screens: 54 s on PostgreSQL and past 60 s on PGlite on this 2-core machine
  test.setTimeout(180_000);
  await signIn(page, "admin@example.com");
  await visit(page, "/home", "home (admin)");
  await visit(page, "/mailbox");
  await visit(page, "/jobs");
  await visit(page, "/webhooks");
  await visit(page, "/zones");
  await test.step("zones with rows", async () => {
    await page.goto("/zones?carrier_code=SIMEX&q=3175");
    await page.getByText("Import zones").click();
    await audit(page, "zones with rows and the import form");
  });
  await visit(page, "/zones/localities", "localities");
  await visit(page, "/zones/dangerous_goods", "dangerous goods");
  await visit(page, "/rate_editor", "rate editor");
  await visit(page, "/rate_editor/check", "price check");
  await test.step("price check with rates", async () => {
    await page.getByLabel("Site").selectOption("MEL");
    await page.getByLabel("Despatch date").fill(today);
    await page.getByLabel("sender locality").fill("DANDENONG SOUTH");
    await page.getByLabel("sender postcode").fill("3175");
    await page.getByLabel("receiver locality").fill("WOOLLOONGABBA");
    await page.getByLabel("receiver postcode").fill("4102");
    for (const [field, value] of [["quantity", "1"], ["length", "40"], ["width", "30"], ["height", "30"], ["weight", "5"]]) await page.getByLabel(`Line 1 ${field}`).fill(value!);
    await page.getByRole("button", { name: "Get rates" }).click();
    await expect(page.getByRole("article").first()).toBeVisible();
    await audit(page, "price check with rates");
  });
  await visit(page, `/customers/${ACME}/surcharges`, "surcharges");
  await visit(page, `/customers/${ACME}/index_users`, "users");
  await visit(page, `/customers/${ACME}/users`, "new user and its generated-password dialog", async (p) => {
    await hydrated("user-editor")(p);
    await p.getByRole("button", { name: "Generate password" }).click();
    await expect(p.getByRole("textbox", { name: "Generated password" })).toHaveValue(/.{10,}/);
  });
  await visit(page, `/customers/${ACME}/site_services?site=MEL`, "carriers & services");
  await visit(page, `/customers/${ACME}/index_recipients`, "recipients");
  await visit(page, `/customers/${ACME}/index_recipients?edit=new&confirm=delete_all`, "recipients, new recipient and delete all");
  await visit(page, `/customers/${ACME}/notification_configs`, "notification preferences", async (p) => {
    await hydrated("notification-preferences")(p);
    await expect(p.locator('[data-editor="quill"]')).toBeVisible();
  });
  await test.step("info dialog", async () => {
    await page.goto("/");
    await hydrated("consignment-screen")(page);
    const carton = await cartonId(page);
    const c = await createConsignment(page.request, carton, "AXE-INFO");
    await page.goto(`/consignment/${c.id}`);
    await hydrated("consignment-screen")(page);
    await page.getByRole("link", { name: "Info", exact: true }).click();
    await expect(page.getByTestId("info-dialog").getByTestId("info-fields")).toBeVisible();
    await audit(page, "info dialog");
    await page.goto(`/consignment/${c.id}/information`);
    await audit(page, "information page");
  });
});
