import { expect, test } from "./support/test";
import { countMouse, despatchedSimex, mouseEvents, signIn, tabTo } from "./helpers";

/**
 * Track and trace end to end (issue 14 items 2, 3 and 5): a SIMEX consignment is despatched, its
 * journey runs on the simulated clock, the tracking screen picks the events up by itself, and the
 * public link is copied from its modal and opened signed out. Keyboard only on the screens.
 */

const json = { headers: { Accept: "application/json" } };

test.beforeEach(async ({ page }) => {
  await signIn(page, "superadmin@example.com");
  // a journey of seconds, delivered at the first attempt
  expect((await page.request.put("/api/carriers/SIMEX/simulation", { ...json, data: { journey_minutes: 0.1, fail_delivery: false } })).status()).toBe(200);
});
test.afterEach(async ({ page }) => {
  await page.request.put("/api/carriers/SIMEX/simulation", { ...json, data: { journey_minutes: null } });
});

test("a despatched SIMEX consignment's journey shows on its tracking screen; the public link is copied and opens signed out", async ({ page, browser, context }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const c = await despatchedSimex(page, "E2E-TRACKING", { name: "Tracking E2E Receiver", email: "e2e-tracking@example.net" });

  await page.goto(`/consignment/${c.id}`);
  await expect(page.getByTestId("consignment-screen")).toHaveAttribute("data-hydrated", "true");
  await countMouse(page);
  await tabTo(page, page.getByRole("link", { name: "Tracking", exact: true }), 80);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/tracking/${c.id}$`));
  await expect(page.getByTestId("tracking-screen")).toHaveAttribute("data-hydrated", "true");

  // the screen asks for news by itself until the journey ends: delivered with its proof
  await expect(page.getByTestId("tracking-title")).toContainText("Delivered with POD", { timeout: 60_000 });
  const rows = page.getByTestId("tracking-event");
  await expect(rows.first()).toHaveAttribute("data-event", "delivered_with_pod");
  await expect(rows.last()).toHaveAttribute("data-event", "picked_up");
  await expect(page.getByRole("link", { name: "POD", exact: true }).first()).toBeVisible();

  // the tracking URL: the modal by keyboard, Copy URL, Escape back to its button
  await tabTo(page, page.getByRole("link", { name: "Tracking URL" }), 40);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Tracking URL" });
  const field = dialog.getByLabel("Tracking URL");
  await expect(field).toHaveValue(/\/track\/[0-9a-f-]{36}$/);
  // it opens on its field, not on New link, and Tab stays inside it (issue 31 #9)
  await expect(field).toBeFocused();
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press("Tab");
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  const publicUrl = await field.inputValue();
  await tabTo(page, dialog.getByRole("button", { name: "Copy URL" }), 10);
  await page.keyboard.press("Enter");
  await expect(dialog.getByTestId("tracking-url-status")).toHaveText("URL Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(publicUrl);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("link", { name: "Tracking URL" })).toBeFocused();
  expect(await mouseEvents(page)).toBe(0);

  // anyone with the link, signed out
  const stranger = await browser.newContext();
  try {
    const receiver = await stranger.newPage();
    await receiver.goto(publicUrl);
    await expect(receiver.getByTestId("public-state")).toHaveText("Delivered (proof of delivery)");
    await expect(receiver.getByTestId("public-number")).toHaveText(c.number);
    await expect(receiver.getByTestId("public-events").locator("li")).toHaveCount(await rows.count());
    const pod = await receiver.request.get(await receiver.getByRole("link", { name: "Proof of delivery" }).getAttribute("href").then((h) => new URL(h!, publicUrl).toString()));
    expect(pod.status()).toBe(200);
    expect(await pod.text()).toContain("Tracking E2E Receiver");
  } finally {
    await stranger.close();
  }

  // the demo's delivered notification reached the receiver, once, through the mailer (the mailbox without SMTP)
  await page.goto("/mailbox");
  const mail = page.getByTestId("mail-message").filter({ hasText: `consignment ${c.number}: Delivered (proof of delivery)` });
  await expect(async () => {
    await page.reload();
    await expect(mail).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(mail).toContainText("to e2e-tracking@example.net");
  await expect(mail).toContainText(`Hello Tracking E2E Receiver,`);
  // links in e-mails start with APP_URL (here unset: the server's own localhost address)
  await expect(mail).toContainText(new URL(publicUrl).pathname);
});

test("a new link from the modal replaces the old one, which then says it is no longer valid", async ({ page, browser }) => {
  const c = await despatchedSimex(page, "E2E-TRACKING-NEW-LINK", { name: "Tracking E2E Receiver", email: "e2e-tracking-new-link@example.net" });
  await page.goto(`/tracking/${c.id}`);
  await expect(page.getByTestId("tracking-screen")).toHaveAttribute("data-hydrated", "true");
  await page.getByRole("link", { name: "Tracking URL" }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Tracking URL" });
  await expect(dialog.getByLabel("Tracking URL")).toHaveValue(/\/track\//);
  const old = await dialog.getByLabel("Tracking URL").inputValue();
  await tabTo(page, dialog.getByRole("button", { name: "New link" }), 10);
  await page.keyboard.press("Enter");
  // asked first, Yes focused
  await expect(dialog.getByRole("button", { name: "Yes" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByTestId("tracking-url-status")).toHaveText("A new link was made. The previous link no longer works.");
  await expect(dialog.getByLabel("Tracking URL")).not.toHaveValue(old);

  const stranger = await browser.newContext();
  try {
    const receiver = await stranger.newPage();
    const res = await receiver.goto(old);
    expect(res?.status()).toBe(404);
    await expect(receiver.getByRole("alert")).toContainText("This tracking link is not valid.");
  } finally {
    await stranger.close();
  }
});
