import { expect, test } from "./support/test";
import { PASSWORD, signIn } from "./helpers";

test.describe("sign-in and landing", () => {
  test("a despatcher signs in with the keyboard and lands on /", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    // the e-mail field has focus: type, Tab to the password, Enter submits
    await page.keyboard.type("despatcher@example.com");
    await page.keyboard.press("Tab");
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "New consignment" })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Home", "Consignments", "Manifests", "Quotes", "Insight"]);
  });

  test("the wanted path is restored after sign-in", async ({ page }) => {
    await page.goto("/manifests");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fmanifests$/);
    await page.getByLabel("E-mail").fill("despatcher@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/manifests$/);
    await expect(page.getByRole("heading", { name: "Manifests" })).toBeVisible();
  });

  test("a FINANCE user lands on /invoices_payable with the finance navigation", async ({ page }) => {
    await signIn(page, "finance@example.com");
    await expect(page).toHaveURL(/\/invoices_payable$/);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link")).toHaveText(["Payable", "Reconciliations", "Receivable", "Insight"]);
    await page.goto("/");
    await expect(page).toHaveURL(/\/invoices_payable$/);
  });

  test("a despatcher is sent to / from /index_customers", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    await page.goto("/index_customers");
    await expect(page).toHaveURL(/\/$/);
  });

  test("a failed sign-in shows the server error and shakes the form", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("E-mail").fill("despatcher@example.com");
    await page.getByLabel("Password").fill("Wrong-password-00");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid email or password.");
    await expect(page.getByTestId("login-card")).toHaveClass(/animate-shake/);
    await expect(page).toHaveURL(/\/login/);
  });

  test("validation messages show without a round trip, and leave the links where they are", async ({ page }) => {
    await page.goto("/login");
    const posts: string[] = [];
    page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
    await page.getByLabel("E-mail").fill("x");
    await page.getByLabel("E-mail").press("Enter");
    await expect(page.getByText("Email must be at least 2 characters")).toBeVisible();
    await expect(page.getByText("Password is required")).toBeVisible();
    // fixing the field clears its message as you type
    await page.getByLabel("E-mail").fill("despatcher@example.com");
    await expect(page.getByText("Email must be at least 2 characters")).toHaveCount(0);
    expect(posts).toEqual([]);
  });

  test("clicking the forgot password link from an untouched form goes there", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await expect(page).toHaveURL(/\/forgot_password$/);
  });

  test("sign-in works with JavaScript disabled", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto("/login");
    await page.getByLabel("E-mail").fill("despatcher@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { name: "New consignment" })).toBeVisible();
    await context.close();
  });

  test("forgot password always answers the same message", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    // the login page has an E-mail field too: fill the new page's, not the old one's during the move
    await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
    await page.getByLabel("E-mail").fill("nobody@example.com");
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toHaveText(
      "An email has been sent to nobody@example.com, if user exists and is permitted to reset password.",
    );
  });

  test("sign-out from the user menu ends the session", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    await page.getByTestId("user-menu").locator("summary").click();
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/home");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fhome$/);
  });
});

test.describe("home", () => {
  test("staff switch customer on /home", async ({ page }) => {
    test.setTimeout(60_000); // waits out the 8 s alert
    await signIn(page, "admin@example.com");
    await page.goto("/home");
    await page.getByLabel("Work in customer").selectOption({ label: "Testing Pty Ltd (TESTCO) TEST" });
    await page.getByRole("button", { name: "Switch" }).click();
    const switched = page.getByRole("status").filter({ hasText: "You are now working in Testing Pty Ltd." });
    await expect(switched).toBeVisible();
    // a success alert leaves by itself after 8 s
    await expect(switched).toHaveCount(0, { timeout: 12_000 });
    await page.getByTestId("user-menu").locator("summary").click();
    await expect(page.getByTestId("user-menu")).toContainText("Alex Admin · Testing Pty Ltd");
    await page.keyboard.press("Escape"); // the open menu would cover the switcher
    // back to the home customer for the other tests
    await page.getByLabel("Work in customer").selectOption({ label: "Acme Distribution (ACME) LIVE" });
    await page.getByRole("button", { name: "Switch" }).click();
    await expect(page.getByRole("status").filter({ hasText: "You are now working in Acme Distribution." })).toBeVisible();
  });

  test("menus open from the keyboard and close with Escape or a click elsewhere", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    await page.goto("/home");
    const menu = page.getByTestId("user-menu");
    await menu.locator("summary").focus();
    await page.keyboard.press("Enter");
    await expect(menu).toHaveAttribute("open", "");
    await page.keyboard.press("Tab");
    await expect(menu.getByRole("link", { name: "Advanced search" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(menu).not.toHaveAttribute("open", "");
    await expect(menu.locator("summary")).toBeFocused();
    await menu.locator("summary").click();
    await expect(menu).toHaveAttribute("open", "");
    await page.getByRole("heading", { name: "Home" }).click();
    await expect(menu).not.toHaveAttribute("open", "");
  });

  test("a despatcher sees no customer switcher and no admin buttons", async ({ page }) => {
    await signIn(page, "despatcher@example.com");
    await page.goto("/home");
    await expect(page.getByLabel("Work in customer")).toHaveCount(0);
    await expect(page.getByRole("heading", { name: "Administration" })).toHaveCount(0);
    await expect(page.getByTestId("notice").first()).toBeVisible();
  });

  test("the notices bell count goes after mark all as seen", async ({ page }) => {
    await signIn(page, "superdespatcher@example.com");
    await page.goto("/home");
    const bell = page.getByTestId("notices-bell");
    await expect(bell.getByTestId("unseen-count")).toHaveText("3");
    await bell.locator("summary").click();
    await bell.getByRole("button", { name: "Mark all as seen" }).click();
    await expect(bell.getByTestId("unseen-count")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("notices-bell").getByTestId("unseen-count")).toHaveCount(0);
  });

  test("the view chooser switches to the finance view through the API", async ({ page }) => {
    await signIn(page, "customerservice@example.com");
    await page.goto("/home");
    await page.getByLabel("Working view").selectOption("FINANCE");
    const saved = page.waitForResponse((r) => r.url().includes("/api/update_user_options/") && r.request().method() === "PUT");
    await page.getByRole("button", { name: "Save view" }).click();
    expect((await saved).status()).toBe(200);
    await expect(page).toHaveURL(/\/invoices_payable$/);
    await page.goto("/home");
    await page.getByLabel("Working view").selectOption("DESPATCHER");
    await page.getByRole("button", { name: "Save view" }).click();
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Consignments" })).toBeVisible();
  });

  test("a super admin runs a background job and watches its progress clear", async ({ page }) => {
    await signIn(page, "devs@example.com");
    await page.goto("/home");
    await page.getByRole("button", { name: "Remove expired sessions" }).click();
    await expect(page).toHaveURL(/\/home\?job=/);
    const progress = page.locator("[data-job-status]");
    await expect(progress).toHaveAttribute("data-job-status", "complete", { timeout: 15_000 });
    await expect(progress).toContainText(/Removed \d+ expired session/);
    // cleared 3 s after completion
    await expect(progress).toHaveCount(0, { timeout: 10_000 });
  });

  test("every link in the shell leads somewhere real", async ({ page }) => {
    await signIn(page, "superadmin@example.com");
    await page.goto("/home");
    const hrefs = await page.locator("header a[href^='/'], main a[href^='/']").evaluateAll((as) =>
      [...new Set(as.map((a) => (a as HTMLAnchorElement).getAttribute("href")!))].filter((h) => !h.includes("#")),
    );
    expect(hrefs.length).toBeGreaterThan(10);
    // a whole page load per link (about 25 of them): the budget grows with the links, not one 30 s for all
    test.setTimeout(30_000 + hrefs.length * 5_000);
    for (const href of hrefs) {
      const res = await page.goto(href);
      expect(res?.status(), href).toBe(200);
      // nothing bounced back to / or /login
      expect(new URL(page.url()).pathname, href).toBe(href.split("?")[0]);
    }
  });
});

// production React reports a hydration mismatch as "Minified React error #418/#423/#425"
const HYDRATION = /hydrat|Minified React error #(418|419|421|422|423|425)/i;

for (const timezoneId of ["Australia/Melbourne", "America/Los_Angeles"]) {
  test(`/home hydrates without mismatches in a browser in ${timezoneId}`, async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, timezoneId });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text());
      });
      page.on("pageerror", (e) => errors.push(e.message));
      await signIn(page, "despatcher@example.com");
      await page.goto("/home");
      await expect(page.getByTestId("notice").first()).toBeVisible();
      // hydration has finished once the page's scripts have loaded and run
      await page.waitForLoadState("networkidle");
      await page.waitForFunction(() => document.readyState === "complete");
      expect(errors.filter((e) => HYDRATION.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  });
}
