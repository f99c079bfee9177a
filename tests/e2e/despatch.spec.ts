import { expect, test, type APIRequestContext, type Page } from "./support/test";
import { countMouse, mouseEvents, PASSWORD, signIn, tabTo } from "./helpers";

/**
 * Despatch follow-up on the consignment screen (spec 1 sections 2 and 4): a failed despatch
 * redespatched through its modal, and cancellation with its results. The simulated carrier is
 * told to fail by a super admin's call, so the failure is the product's own path.
 */

const json = { headers: { Accept: "application/json" } };
const date = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
const sender = { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", country: "AUSTRALIA" };
const receiver = { name: "Despatch E2E Receiver", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD", country: "AUSTRALIA" };

async function cartonId(page: Page) {
  await page.goto("/");
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  return Number(await page.getByLabel("Item type line 1").locator("option", { hasText: "Carton" }).first().getAttribute("value"));
}

/** A consignment created and despatched through the API; answers it once its job has ended. */
async function despatched(page: Page, reference: string, carrier: string, service: string, expected: "complete" | "failed" = "complete") {
  const carton = await cartonId(page);
  const created = await page.request.post("/api/consignments", {
    ...json,
    data: {
      site_code: "MEL",
      reference,
      despatch_date: date,
      carrier_code: carrier,
      service_code: service,
      ...(carrier === "SIMEX" ? { pickup_at: `${date} 10:00` } : {}),
      sender_address: sender,
      receiver_address: receiver,
      items: [{ quantity: 1, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 8 }],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const c = await created.json();
  expect(c.state).toBe("despatchable");
  const res = await page.request.put("/api/consignments/despatch_all", { ...json, data: { ids: [c.id] } });
  const { job_id } = await res.json();
  await expect.poll(async () => (await (await page.request.get(`/api/job_status/${job_id}`, json)).json()).status, { timeout: 20_000 }).toBe(expected);
  return c.id as number;
}

/** A super admin's session, to steer the simulated carrier. */
async function asDevs(playwright: { request: { newContext(o: { baseURL: string }): Promise<APIRequestContext> } }, baseURL: string) {
  const devs = await playwright.request.newContext({ baseURL });
  const signed = await devs.post("/users/sign_in", { ...json, data: { user: { email: "devs@example.com", password: PASSWORD, remember_me: 0 } } });
  expect(signed.status()).toBe(200);
  return {
    simulate: async (settings: Record<string, unknown>) => expect((await devs.put("/api/carriers/SIMEX/simulation", { ...json, data: settings })).status()).toBe(200),
    dispose: () => devs.dispose(),
  };
}

test("a failed despatch is redespatched from its modal: refused while the carrier fails, despatched once it takes it", async ({ page, playwright, baseURL }) => {
  const devs = await asDevs(playwright, baseURL!);
  try {
    await devs.simulate({ fail_despatch: true });
    await signIn(page, "despatcher@example.com");
    const id = await despatched(page, "E2E-REDESPATCH", "SIMEX", "ONT", "failed");

    await page.goto(`/consignment/${id}`);
    await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
    await expect(page.getByTestId("consignment-title")).toContainText(/despatch failure/i);
    const number = (await (await page.request.get(`/api/consignments/${id}`, json)).json()).consignment_number as string;

    // the modal: number, last despatch time, warning; the carrier still refuses
    await page.getByRole("link", { name: "Re-Despatch" }).click();
    const modal = page.getByRole("dialog", { name: "Redespatch consignment" });
    await expect(modal.getByTestId("redespatch-number")).toHaveText(number);
    await expect(modal.getByTestId("redespatch-time")).not.toHaveText("Never");
    await expect(modal).toContainText("Only redespatch when the carrier has not received it");
    await expect(modal.getByRole("button", { name: "Redespatch" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByText("Manifest failed to redespatch.")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("consignment-title")).toContainText(/despatch failure/i);

    // the carrier takes it now
    await devs.simulate({ fail_despatch: false });
    await page.getByRole("link", { name: "Re-Despatch" }).click();
    await page.getByRole("dialog", { name: "Redespatch consignment" }).getByRole("button", { name: "Redespatch" }).click();
    await expect(page.getByText("Your consignments have been despatched.")).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId("consignment-title")).toContainText(/despatched/i);
    await expect(page.getByRole("link", { name: "Re-Despatch" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Tracking" })).toBeVisible();
  } finally {
    await devs.simulate({ fail_despatch: false });
    await devs.dispose();
  }
});

test("cancel by e-mail to the carrier shows the acknowledgement, on Australia Post and on Northline", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  const id = await despatched(page, "E2E-CANCEL-AP", "auspost", "PP");
  await page.goto(`/consignment/${id}`);
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  const ack = page.getByRole("dialog", { name: "Cancellation requested" });
  await expect(ack).toContainText("An email has been sent to the carrier to cancel this consignment. Please follow up with the carrier to make sure it is not collected.");
  await ack.getByRole("link", { name: "OK" }).click();
  await expect(ack).toHaveCount(0);
  await expect(page.getByTestId("consignment-title")).toContainText(/cancelled/i);
  await expect(page.getByRole("button", { name: "Cancel", exact: true })).toHaveCount(0);

  // the demo's Northline accounts have a support e-mail too, so cancellation shows on a second carrier
  const northline = await despatched(page, "E2E-CANCEL-NL", "NORTHLINE", "GEN");
  await page.goto(`/consignment/${northline}`);
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: "Cancel", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Cancellation requested" })).toContainText("An email has been sent to the carrier to cancel this consignment.");
});

test("a pending cancellation is confirmed by customer service", async ({ page, playwright, baseURL }) => {
  const devs = await asDevs(playwright, baseURL!);
  try {
    await devs.simulate({ cancel_result: "cancel_pending" });
    await signIn(page, "despatcher@example.com");
    const id = await despatched(page, "E2E-CANCEL-PENDING", "SIMEX", "ONT");
    await page.goto(`/consignment/${id}`);
    await page.getByRole("button", { name: "Cancel", exact: true }).click();
    await expect(page.getByText("Your cancellation request has been sent to the carrier.")).toBeVisible();
    await expect(page.getByTestId("consignment-title")).toContainText(/cancelling/i);
    // a despatcher cannot confirm it
    await expect(page.getByRole("button", { name: "Confirm Cancel" })).toHaveCount(0);

    await page.context().clearCookies();
    await signIn(page, "customerservice@example.com");
    await page.goto(`/consignment/${id}`);
    await page.getByRole("button", { name: "Confirm Cancel" }).click();
    await expect(page.getByText("The cancellation has been confirmed.")).toBeVisible();
    await expect(page.getByTestId("consignment-title")).toContainText(/cancelled/i);
  } finally {
    await devs.dispose();
  }
});

test("a return is despatched with Despatch + email, its progress shown, and the e-mail resent", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  const carton = await cartonId(page);
  const created = await page.request.post("/api/returns", {
    ...json,
    data: {
      site_code: "MEL",
      reference: "E2E-RETURN-EMAIL",
      despatch_date: date,
      carrier_code: "NORTHLINE",
      service_code: "GEN",
      sender_address: receiver,
      receiver_address: sender,
      items: [{ quantity: 1, item_type_id: carton, length: 40, width: 30, height: 30, weight_in_uom: 8 }],
      return_info: { ready_at: `${date} 09:00`, closing_at: `${date} 17:00`, contact_name: "Sam", phone_number: "07 3333 4444", pickup_location: "Dock 2", email: "sam@pickup.example" },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const r = await created.json();
  expect(r.state).toBe("despatchable");

  await page.goto(`/return/${r.id}`);
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("button", { name: "Despatch + email" }).click();
  // spec 3: Despatch + email of a return ends on the e-mail's message
  await expect(page.locator("[data-job-status=complete]")).toContainText("Labels and manifest emailed.", { timeout: 20_000 });
  await expect(page.getByTestId("consignment-title")).toContainText(/despatched/i);
  await expect(page.getByRole("button", { name: "Despatch + email" })).toHaveCount(0);
  await page.getByRole("button", { name: "Resend email" }).click();
  // the resend's own alert (dismissable), not the finished job's line the reloaded page shows again
  await expect(page.getByRole("status").filter({ has: page.getByRole("button", { name: "Dismiss" }) }).filter({ hasText: "Labels and manifest emailed." })).toBeVisible();
});

test("Enquiries of a despatched consignment leads, by the keyboard, to its enquiries, and back; Tracking to its track and trace", async ({ page }) => {
  await signIn(page, "despatcher@example.com");
  const id = await despatched(page, "E2E-ENQUIRIES", "NORTHLINE", "GEN");
  await page.goto(`/consignment/${id}`);
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  const number = (await page.getByTestId("consignment-title").textContent())!.match(/[A-Z]{2,}\d+/)![0];
  await tabTo(page, page.getByRole("link", { name: "Enquiries", exact: true }), 80);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/consignment/${id}/enquiries$`));
  await expect(page.getByRole("heading", { name: `Enquiries of consignment ${number}` })).toBeVisible();
  await tabTo(page, page.getByRole("link", { name: "Back to the consignment" }), 80);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/consignment/${id}$`));
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await tabTo(page, page.getByRole("link", { name: "Tracking", exact: true }), 80);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tracking/${id}$`));
  await expect(page.getByTestId("tracking-title")).toContainText(`Track and trace ${number}`);
  await tabTo(page, page.getByRole("link", { name: "Back to the consignment" }), 80);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/consignment/${id}$`));
  expect(await mouseEvents(page)).toBe(0);
});
