import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAttemptCounts, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createUser } from "../../db/seed/factories";
import { LOCKED_SIGN_IN, LOCK_AFTER_FAILURES, SIGN_IN_LIMITED_HEADER, TOO_MANY_ATTEMPTS } from "../../app/modules/auth/limits";
import { env } from "../../app/utils/env.server";
import { Client, serveApp, startTestServer, type TestServer } from "../support/server";

/**
 * Issue 13 section 3: successful sign-ins never count toward the per-address limit; failed ones
 * do, per address and per account; the messages show on the sign-in page.
 */
let server: TestServer;
let acmeId: number;
/** the production default: failed attempts per address in the window */
const LIMIT = env().SIGNIN_RATE_LIMIT;
const opened: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimit: LIMIT });
  acmeId = (await seedDemo(server.db)).acme.id;
});
afterAll(async () => {
  for (const app of opened) await app.close();
  await server.close();
});

/**
 * A fresh address: the counts (kept in the database) start again, and a fresh app serves it.
 * Tests here run one after another, all from 127.0.0.1.
 */
async function freshAddress() {
  await server.db.delete(signInAttemptCounts);
  const app = await serveApp(server.services, { rateLimit: LIMIT });
  opened.push(app);
  return app.url;
}

const WRONG = "Wrong-password-00";

describe("the per-address limit counts failures only", () => {
  it("the production default is 20 failed attempts", () => {
    expect(LIMIT).toBe(20);
  });

  it("100 successful sign-ins from one address in a minute all succeed; then 20 failures stop it", async () => {
    const base = await freshAddress();
    const people = ["despatcher@example.com", "superdespatcher@example.com", "admin@example.com", "finance@example.com"];
    const statuses: number[] = [];
    // an office at 8 am: five at a time, through the JSON call and through the login form
    for (let round = 0; round < 20; round++) {
      const batch = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          const email = people[(round * 5 + i) % people.length]!;
          const c = new Client(base);
          if (i % 2) return (await c.signIn(email)).status;
          return (await c.request("/login?index", { form: { email, password: "Demo-password-12" } })).status;
        }),
      );
      statuses.push(...batch);
    }
    expect(statuses).toHaveLength(100);
    expect(statuses.filter((s) => s !== 200 && s !== 302)).toEqual([]);

    // the limiter is live: LIMIT failures from the address, then everyone from it waits
    for (let i = 0; i < LIMIT; i++) expect((await new Client(base).signIn(`nobody${i}@example.com`, WRONG)).status).toBe(401);
    const limited = await new Client(base).signIn("despatcher@example.com");
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ errors: { base: [TOO_MANY_ATTEMPTS] } });
  });

  it("a client cannot mark its own request as limited, nor unmark one", async () => {
    const base = await freshAddress();
    const c = new Client(base);
    const res = await c.request("/login?index", {
      form: { email: "despatcher@example.com", password: "Demo-password-12" },
      headers: { [SIGN_IN_LIMITED_HEADER]: "1" },
    });
    expect(res.status).toBe(302);
  });

  it("one count for every web process: failures through two processes add up", async () => {
    await freshAddress();
    const one = await serveApp(server.services, { rateLimit: LIMIT });
    const two = await serveApp(server.services, { rateLimit: LIMIT });
    opened.push(one, two);
    for (let i = 0; i < LIMIT / 2; i++) {
      expect((await new Client(one.url).signIn(`nobody${i}@example.com`, WRONG)).status).toBe(401);
      expect((await new Client(two.url).signIn(`ghost${i}@example.com`, WRONG)).status).toBe(401);
    }
    expect((await new Client(one.url).signIn("despatcher@example.com")).status).toBe(429);
    expect((await new Client(two.url).signIn("despatcher@example.com")).status).toBe(429);
  });
});

describe("an account locks after repeated failures", () => {
  it(`${LOCK_AFTER_FAILURES} failures lock it (the right password is then refused); other accounts from the address are unaffected until the address limit`, async () => {
    const base = await freshAddress();
    const victim = await createUser(server.db, acmeId, { email: "locked-out@example.com" });
    const messages: string[] = [];
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) messages.push((await new Client(base).signIn(victim.email, WRONG)).body.error!);
    expect(messages.slice(0, -1).every((m) => m === "Invalid email or password.")).toBe(true);
    expect(messages.at(-1)).toBe(LOCKED_SIGN_IN);

    const right = await new Client(base).signIn(victim.email);
    expect(right.status).toBe(401);
    expect(right.body.error).toBe(LOCKED_SIGN_IN);
    expect(LOCKED_SIGN_IN).toBe("Your account is locked after too many failed sign-ins. Try again in 15 minutes or ask an administrator.");

    // 11 failures from this address so far: a colleague still signs in, as often as they like
    for (let i = 0; i < 3; i++) expect((await new Client(base).signIn("despatcher@example.com")).status).toBe(200);
    // up to the address limit of failures (on accounts that do not exist: nothing else locks)
    for (let i = LOCK_AFTER_FAILURES + 1; i < LIMIT; i++) expect((await new Client(base).signIn(`ghost${i}@example.com`, WRONG)).status).toBe(401);
    expect((await new Client(base).signIn("despatcher@example.com")).status).toBe(429);
  });

  it("concurrent failures cannot slip past the count", async () => {
    const base = await freshAddress();
    const u = await createUser(server.db, acmeId, { email: "racing-guesser@example.com" });
    await Promise.all(Array.from({ length: LOCK_AFTER_FAILURES }, () => new Client(base).signIn(u.email, WRONG)));
    const [row] = await server.db.select({ failed: users.failedSignIns, lockedAt: users.lockedAt }).from(users).where(eq(users.id, u.id));
    expect(row!.failed).toBe(LOCK_AFTER_FAILURES);
    expect(row!.lockedAt).not.toBeNull();
  });

  it("a lock ends after 15 minutes, and a successful sign-in starts the count again", async () => {
    const base = await freshAddress();
    const u = await createUser(server.db, acmeId, { email: "lock-expires@example.com" });
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) await new Client(base).signIn(u.email, WRONG);
    const at = (minutesAgo: number) => server.db.update(users).set({ lockedAt: new Date(Date.now() - minutesAgo * 60_000) }).where(eq(users.id, u.id));
    await at(14);
    expect((await new Client(base).signIn(u.email)).body.error).toBe(LOCKED_SIGN_IN);
    await at(15.1);
    expect((await new Client(base).signIn(u.email)).status).toBe(200);
    const [row] = await server.db.select({ failed: users.failedSignIns, lockedAt: users.lockedAt }).from(users).where(eq(users.id, u.id));
    expect(row).toEqual({ failed: 0, lockedAt: null });
    // a fresh count: nine more failures do not lock
    const base2 = await freshAddress();
    for (let i = 0; i < LOCK_AFTER_FAILURES - 1; i++) expect((await new Client(base2).signIn(u.email, WRONG)).body.error).toBe("Invalid email or password.");
    expect((await new Client(base2).signIn(u.email)).status).toBe(200);
  });

  it("an administrator can end a lock sooner; a despatcher cannot", async () => {
    const base = await freshAddress();
    const u = await createUser(server.db, acmeId, { email: "unlock-me@example.com" });
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) await new Client(base).signIn(u.email, WRONG);
    const base2 = await freshAddress();
    const despatcher = new Client(base2);
    await despatcher.signIn("despatcher@example.com");
    expect((await despatcher.json(`/api/users/${u.id}/unlock`, { method: "POST" })).status).toBe(403);
    expect((await new Client(base2).signIn(u.email)).body.error).toBe(LOCKED_SIGN_IN);
    const admin = new Client(base2);
    await admin.signIn("admin@example.com");
    expect((await admin.json(`/api/users/${u.id}/unlock`, { method: "POST" })).status).toBe(200);
    expect((await new Client(base2).signIn(u.email)).status).toBe(200);
  });
});

describe("the sign-in page shows the limits without JavaScript", () => {
  it("a locked account: the login page again, with the lock message", async () => {
    const base = await freshAddress();
    const u = await createUser(server.db, acmeId, { email: "form-locked@example.com" });
    for (let i = 0; i < LOCK_AFTER_FAILURES; i++) await new Client(base).signIn(u.email, WRONG);
    const res = await new Client(base).request("/login?index", { form: { email: u.email, password: "Demo-password-12" } });
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain('data-testid="login-card"');
    expect(html).toContain(LOCKED_SIGN_IN.replace("'", "&#x27;"));
  });

  it("an address over the limit: the login page again, with 'Too many attempts' (and the forgot password page too)", async () => {
    const base = await freshAddress();
    for (let i = 0; i < LIMIT; i++) await new Client(base).signIn(`nobody${i}@example.com`, WRONG);
    const res = await new Client(base).request("/login?index", { form: { email: "despatcher@example.com", password: "Demo-password-12" } });
    expect(res.status).toBe(429);
    expect(res.headers.get("content-type")).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain('data-testid="login-card"');
    expect(html).toContain(TOO_MANY_ATTEMPTS);
    // and it signed nobody in
    expect(res.headers.getSetCookie().some((c) => c.startsWith("fd_session=") && !/max-age=0/i.test(c))).toBe(false);

    const forgot = await new Client(base).request("/forgot_password", { form: { email: "despatcher@example.com" } });
    expect(forgot.status).toBe(429);
    expect(await forgot.text()).toContain(TOO_MANY_ATTEMPTS);
  });
});
