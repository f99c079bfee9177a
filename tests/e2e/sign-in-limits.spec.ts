import { spawn, type ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import { createServer } from "node:net";
import { expect, test, type Page } from "./support/test";
import { LOCKED_SIGN_IN, LOCK_AFTER_FAILURES, TOO_MANY_ATTEMPTS } from "../../app/modules/auth/limits";
import { PASSWORD, countMouse, mouseEvents } from "./helpers";

/**
 * Issue 13 section 3: the sign-in page shows the lock and limit messages in the page, with
 * JavaScript (single fetch: a bare 429 used to crash it into "Something went wrong") and without.
 *
 * Reaching the address limit would lock every other e2e test out of the shared server, so this
 * file runs its own server (own database, a per-address limit of LIMIT failures).
 */
const LIMIT = LOCK_AFTER_FAILURES + 2;
const dataDir = `.tmp/e2e-sign-in-limits-${process.pid}`;
let server: ChildProcess;
let base: string;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

test.beforeAll(async () => {
  test.setTimeout(180_000);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn("npx", ["tsx", "server.ts"], {
    detached: true,
    stdio: "ignore",
    env: { ...process.env, PORT: String(port), NODE_ENV: "production", SEED_DEMO: "1", RUN_WORKER: "0", SIGNIN_RATE_LIMIT: String(LIMIT), DATABASE_URL: "", PGLITE_DIR: dataDir },
  });
  for (let i = 0; i < 170; i++) {
    const up = await fetch(`${base}/login`).then((r) => r.ok, () => false);
    if (up) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error("the sign-in limits server did not start");
});

test.afterAll(async () => {
  // the server's process group: npx and the node it started
  if (server?.pid) process.kill(-server.pid, "SIGTERM");
  await new Promise((r) => setTimeout(r, 1000));
  await rm(dataDir, { recursive: true, force: true });
});

const fail = (email: string) => fetch(`${base}/users/sign_in`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ user: { email, password: "Wrong-password-00" } }) });

/** Signs in through the page with the keyboard only; answers the page errors seen. */
async function signInWithKeyboard(page: Page, email: string) {
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}/login`);
  await countMouse(page);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Password").press("Enter");
  return errors;
}

test.describe.serial("sign-in limits on the page", () => {
  test("a locked account: the lock message in the page (JavaScript)", async ({ page }) => {
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) expect((await fail("superdespatcher@example.com")).status).toBe(401);
    const errors = await signInWithKeyboard(page, "superdespatcher@example.com");
    await expect(page.getByRole("alert")).toHaveText(LOCKED_SIGN_IN);
    await expect(page).toHaveURL(/\/login/);
    expect(errors).toEqual([]);
    expect(await mouseEvents(page)).toBe(0);
    // another account from the same address still signs in
    await signInWithKeyboard(page, "despatcher@example.com");
    await expect(page).not.toHaveURL(/\/login/);
  });

  test("an address over the limit: 'Too many attempts' in the page (JavaScript), no crash", async ({ page }) => {
    // failures so far: LOCK_AFTER_FAILURES + the locked attempt; one more reaches the limit
    expect((await fail("nobody@example.com")).status).toBe(401);
    const errors = await signInWithKeyboard(page, "despatcher@example.com");
    await expect(page.getByRole("alert")).toHaveText(TOO_MANY_ATTEMPTS);
    await expect(page.getByTestId("login-card")).toHaveClass(/animate-shake/);
    await expect(page.getByText("Something went wrong")).toHaveCount(0);
    await expect(page).toHaveURL(/\/login/);
    expect(errors).toEqual([]);
    expect(await mouseEvents(page)).toBe(0);
  });

  test("the same without JavaScript: the login page again, with the message", async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${base}/login`);
    await page.getByLabel("E-mail").fill("despatcher@example.com");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Password").press("Enter");
    await expect(page.getByRole("alert")).toHaveText(TOO_MANY_ATTEMPTS);
    await expect(page.getByLabel("E-mail")).toBeVisible();
    await context.close();
  });
});
