import { expect, test, type Page } from "./support/test";
import { audit, hydrated, json, visit } from "./axe";
import { setUserFlags, signIn } from "./helpers";

/**
 * Axe on the administration screens (issues 16 and 17), as the role that sees each: the audit is
 * the one of accessibility.spec.ts (./axe.ts).
 */

const ACME = 1;

test("customers administration, as customer service", async ({ page }) => {
  await signIn(page, "customerservice@example.com");
  await visit(page, "/index_customers", "customers list");
  await visit(page, `/customers/${ACME}`, "customer detail", hydrated("customer-detail"));
  await visit(page, "/customers", "new customer", hydrated("customer-detail"));
  await visit(page, `/customers/${ACME}/reference_types`, "custom references");
});

test("custom e-mails and declarations, as an admin", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await visit(page, `/customers/${ACME}/custom_emails`, "custom e-mails");
  await visit(page, `/customers/${ACME}/custom_emails/return`, "custom e-mail editor", async (p) => expect(p.locator('[data-editor="quill"]').first()).toBeVisible());
  await visit(page, `/customers/${ACME}/index_declarations`, "declarations");
  await visit(page, `/customers/${ACME}/declarations`, "new declaration");
});

test("carriers, services and carrier account validations, as an admin", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, "admin@example.com");
  const found = (await (await page.request.get("/api/carriers?filter=SIMEX", json)).json()) as { carriers: Array<{ id: number }> };
  const id = found.carriers[0]!.id;
  await visit(page, "/carriers", "carriers list");
  await visit(page, `/carrier/${id}`, "carrier edit");
  await visit(page, "/carrier", "new carrier");
  await visit(page, `/carriers/${id}/services`, "carrier services");
  await visit(page, `/carriers/${id}/service`, "new service");
  await visit(page, `/carriers/${id}/carrier-account-validations`, "carrier account validations");
  await visit(page, `/carriers/${id}/carrier-account-validation`, "new carrier account validation");
});

test("a super admin's home, and the finance view", async ({ page }) => {
  // 21 s on PostgreSQL, past the default 30 s on PGlite in the fresh-machine run
  test.setTimeout(120_000);
  await signIn(page, "superadmin@example.com");
  await visit(page, "/home", "home (super admin)");
  await test.step("a background job's progress", async () => {
    await page.getByRole("button", { name: "Remove expired sessions" }).click();
    await expect(page.locator("[data-job-status]")).toBeVisible();
    await audit(page, "home with a job's progress");
  });
  await visit(page, "/index_notification_types", "notification types");
  await visit(page, "/index_notification_types?saved=1", "notification types, saved");
  await visit(page, "/notification_types", "new notification type");
  await visit(page, "/notification_types/1", "notification type");
  await visit(page, "/notices", "notices");
  await visit(page, "/notice", "new notice", async (p) => expect(p.locator('[data-editor="quill"]')).toBeVisible());
  await page.context().clearCookies();
  await signIn(page, "finance@example.com");
  await visit(page, "/invoices_payable", "payable invoices (later release, finance view)");
  await visit(page, "/export", "export report (can_export)");
});

test("item types, as an admin and as a despatcher", async ({ page }) => {
  await signIn(page, "admin@example.com");
  const ready = (testId: string) => async (p: Page) => expect(p.getByTestId(testId)).toHaveAttribute("data-hydrated", "true");
  await visit(page, `/customers/${ACME}/index_item_types`, "item types", ready("item-types-list"));
  await visit(page, `/customers/${ACME}/item_types`, "new item type", ready("item-type-detail"));
  await visit(page, `/customers/${ACME}/item_types/1`, "item type", ready("item-type-detail"));
  await test.step("item type with field errors", async () => {
    await page.getByLabel("Description", { exact: true }).fill("");
    await page.getByLabel("Length", { exact: true }).fill("12345");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText("Description is required")).toBeVisible();
    await audit(page, "item type with field errors");
  });
  await page.context().clearCookies();
  await signIn(page, "despatcher@example.com");
  await visit(page, `/customers/${ACME}/index_item_types`, "item types (despatcher, read only)", ready("item-types-list"));
  await visit(page, `/customers/${ACME}/item_types/1`, "item type (despatcher, read only)", ready("item-type-detail"));
});

test("sites and carrier accounts, as an admin", async ({ page }) => {
  await signIn(page, "admin@example.com");
  await visit(page, `/customers/${ACME}/index_sites`, "sites");
  await visit(page, `/customers/${ACME}/sites`, "new site");
  await visit(page, `/customers/${ACME}/sites/1?saved=1`, "site, saved");
  await visit(page, `/customers/${ACME}/sites/1/accounts`, "new account");
  const { accounts } = (await (await page.request.get(`/api/customers/${ACME}/sites/1/accounts`, json)).json()) as { accounts: Array<{ id: number }> };
  await visit(page, `/customers/${ACME}/sites/1/accounts/${accounts[0]!.id}?saved=1`, "account, saved");
});

test("bookings: the list, a new booking and a booking (can_book)", async ({ page }) => {
  // two sign-ins and four audited screens
  test.setTimeout(90_000);
  // an admin gives the demo despatcher can_book, as the user editor saves it
  const restore = await setUserFlags(page.context().browser()!, "despatcher@example.com", { can_book: true });
  try {
    await bookingScreens(page);
  } finally {
    await restore();
  }
});

async function bookingScreens(page: Page) {
  await signIn(page, "despatcher@example.com");
  const fresh = await (await page.request.get("/api/bookings/new", json)).json();
  const item = { quantity: 1, type: "Pallet", length: 120, width: 120, height: 100, weight_in_uom: 200 };
  const made = await page.request.put("/api/bookings/book_all", { ...json, data: { bookings: [{ site_id: fresh.site.id, service_code: "ONT", carrier_code: "SIMEX", booking_date: fresh.today, ready_at: "09:00", closing_at: "23:45", additional_items_attributes: [item] }] } });
  expect(made.status(), await made.text()).toBe(200);
  const { booking_ids } = await made.json();
  await visit(page, "/bookings", "bookings");
  await visit(page, "/bookings?from_date=2030-01-01&to_date=2030-06-01", "bookings, range too large");
  await visit(page, "/new_bookings", "new bookings", hydrated("new-bookings-screen"));
  await visit(page, `/booking/${booking_ids[0]}`, "booking");
}

// issue 17 item 6: the online store's setup and products screens
test("online store, as an admin", async ({ page }) => {
  // three screens audited, and a setup and an import between them
  test.slow();
  await signIn(page, "admin@example.com");
  await visit(page, `/customers/${ACME}/store`, "online store setup");
  const put = await page.request.put(`/api/customers/${ACME}/store`, { ...json, data: { cart_type: "shopify", site_id: 1, external_id: `a11y-shop-${Date.now()}` } });
  const { store } = (await put.json()) as { store: { id: number } };
  await page.request.post(`/api/customers/${ACME}/store/products/import`, { headers: { "content-type": "text/csv" }, data: "sku,name,length,width,height,weight\nA11Y-1,Accessible mug,10,10,10,0.5\n" });
  await visit(page, `/customers/${ACME}/store/${store.id}`, "online store");
  await visit(page, `/customers/${ACME}/store/${store.id}/products`, "online store products");
});

// issue 17 items 4, 7 and 8: the bulk uploader (an admin without the upload flags sees its bulk
// redespatch form), branding and the accounting link with the simulated service's consent page
test("bulk redespatch, branding and the accounting link, as an admin", async ({ page }) => {
  test.setTimeout(90_000);
  await signIn(page, "admin@example.com");
  await visit(page, "/bulk_upload", "bulk uploader (bulk redespatch)");
  await visit(page, `/branding?customer_id=${ACME}`, "branding");
  await visit(page, "/myob", "accounting link");
  await test.step("the simulated accounting service's consent page", async () => {
    await page.getByRole("button", { name: "Authenticate" }).click();
    await page.waitForURL(/\/simulated\/myob\/authorize/);
    await audit(page, "simulated MYOB consent");
  });
});

test("the bulk uploader, as a despatcher with can_bulkupload", async ({ page, browser }) => {
  const restore = await setUserFlags(browser, "despatcher@example.com", { can_bulkupload: true });
  try {
    await signIn(page, "despatcher@example.com");
    await visit(page, "/bulk_upload", "bulk uploader");
  } finally {
    await restore();
  }
});
