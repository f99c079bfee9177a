import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, sessions, signInAudits, users } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { createUser } from "../../db/seed/factories";
import { storedMessagesFor } from "../../app/modules/mail/mailer.server";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let acmeId: number;

beforeAll(async () => {
  server = await startTestServer();
  const demo = await seedDemo(server.db);
  acmeId = demo.acme.id;
});
afterAll(() => server.close());

const client = () => new Client(server.url);

/** The password reset e-mail goes out after the answer: wait for it (a bounded poll). */
async function resetMailFor(email: string, count = 1) {
  for (let i = 0; i < 100; i++) {
    const found = await storedMessagesFor(server.db, email, "Reset your password");
    if (found.length >= count) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no reset e-mail for ${email}`);
}

describe("POST /users/sign_in", () => {
  it("signs in, answers the user and the redirect, and sets an HttpOnly session cookie", async () => {
    const c = client();
    const { status, body, res } = await c.signIn("despatcher@example.com");
    expect(status).toBe(200);
    expect(body.redirect).toBe("/");
    expect(body.user).toMatchObject({ email: "despatcher@example.com", full_name: "Dana Despatcher", roles: [{ name: "despatcher" }] });
    // the user and the redirect only: never the API token
    expect(Object.keys(body).sort()).toEqual(["redirect", "user"]);
    const cookie = res.headers.getSetCookie().find((x) => x.startsWith("fd_session="))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Max-Age/); // a browser-session cookie without remember me
    const me = await c.json("/api/users/current");
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("despatcher@example.com");
  });

  it("is case-insensitive on the e-mail", async () => {
    expect((await client().signIn("DESPATCHER@Example.com")).status).toBe(200);
  });

  it("refuses a wrong password and an unknown e-mail with the same message, and audits both", async () => {
    const wrong = await client().signIn("despatcher@example.com", "Wrong-password-12");
    const unknown = await client().signIn("nobody@example.com", "Wrong-password-12");
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error).toBe("Invalid email or password.");
    expect(unknown.body.error).toBe("Invalid email or password.");
    const audits = await server.db.select().from(signInAudits).where(eq(signInAudits.success, false));
    expect(audits.map((a) => a.reason)).toEqual(expect.arrayContaining(["bad_password", "unknown_email"]));
  });

  it("validates the body with the login rules (422 with per-field errors)", async () => {
    const { status, body } = await client().json<{ errors: Record<string, string[]> }>("/users/sign_in", {
      json: { user: { email: "x", password: "" } },
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ email: ["Email must be at least 2 characters"], password: ["Password is required"] });
  });

  it("refuses a disabled user and the users of a disabled customer", async () => {
    const disabledUser = await createUser(server.db, acmeId, { email: "gone@example.com", disabled: true });
    expect((await client().signIn(disabledUser.email)).body.error).toMatch(/disabled/);
    const [old] = await server.db.select().from(customers).where(eq(customers.code, "OLDCO"));
    const oldUser = await createUser(server.db, old!.id, { email: "old-user@example.com" });
    expect((await client().signIn(oldUser.email)).status).toBe(401);
  });

  it("answers the FINANCE landing path for a finance user", async () => {
    expect((await client().signIn("finance@example.com")).body.redirect).toBe("/invoices_payable");
  });

  it("restores a wanted path the user may open, and refuses one they may not", async () => {
    const ok = await client().json<{ redirect: string }>("/users/sign_in?redirect_to=%2Fmanifests", {
      json: { user: { email: "despatcher@example.com", password: "Demo-password-12" } },
    });
    expect(ok.body.redirect).toBe("/manifests");
    const refused = await client().json<{ redirect: string }>("/users/sign_in?redirect_to=%2Findex_customers", {
      json: { user: { email: "despatcher@example.com", password: "Demo-password-12" } },
    });
    expect(refused.body.redirect).toBe("/");
  });

  it("rotates the session at every sign-in (a new token each time) and ends the browser's previous one", async () => {
    const c = client();
    await c.signIn("admin@example.com");
    const first = c.cookie;
    await c.signIn("admin@example.com");
    expect(c.cookie).not.toBe(first);
    expect((await c.json("/api/users/current")).status).toBe(200);
    // cookie A, kept from before the second sign-in, no longer opens anything
    const stale = new Client(server.url);
    stale.cookie = first;
    expect((await stale.json("/api/users/current")).status).toBe(401);
  });

  it("the login form also ends the session the browser held", async () => {
    const c = client();
    await c.signIn("despatcher@example.com");
    const first = c.cookie;
    const res = await c.request("/login?index", { form: { email: "despatcher@example.com", password: "Demo-password-12" } });
    expect(res.status).toBe(302);
    expect(c.cookie).not.toBe(first);
    const stale = new Client(server.url);
    stale.cookie = first;
    expect((await stale.json("/api/users/current")).status).toBe(401);
  });
});

describe("the login form (works without JavaScript)", () => {
  it("posts, sets the cookie and redirects to the wanted path", async () => {
    const c = client();
    const res = await c.request("/login?index", {
      form: { email: "despatcher@example.com", password: "Demo-password-12", redirectTo: "/manifests" },
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/manifests");
    expect(c.cookie).toMatch(/fd_session=/);
  });

  it("re-renders with the server error on a bad password", async () => {
    const res = await client().request("/login", { form: { email: "despatcher@example.com", password: "nope-nope" } });
    // a refusal's status, which the sign-in limiter counts
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(html).toContain("Invalid email or password.");
    expect(html).toContain("animate-shake");
  });

  it("sends a signed-out visitor to /login, remembering the wanted path", async () => {
    const res = await client().request("/manifests?from=x");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login?redirectTo=%2Fmanifests%3Ffrom%3Dx");
  });
});

describe("sessions", () => {
  it("end after the customer's session_timeout minutes without a request", async () => {
    await server.db.update(customers).set({ options: { session_timeout: 30 } }).where(eq(customers.id, acmeId));
    try {
      const c = client();
      await c.signIn("superdespatcher@example.com");
      const [row] = await server.db.select().from(sessions).orderBy(sql`${sessions.createdAt} desc`).limit(1);
      // 29 minutes idle: still signed in
      await server.db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 29 * 60_000) }).where(eq(sessions.id, row!.id));
      expect((await c.json("/api/users/current")).status).toBe(200);
      // 31 minutes idle: gone
      await server.db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 31 * 60_000) }).where(eq(sessions.id, row!.id));
      expect((await c.json("/api/users/current")).status).toBe(401);
      expect(await server.db.select().from(sessions).where(eq(sessions.id, row!.id))).toEqual([]);
    } finally {
      await server.db.update(customers).set({ options: { session_timeout: 720 } }).where(eq(customers.id, acmeId));
    }
  });

  it("default to 720 minutes when the customer option is blank", async () => {
    await server.db.update(customers).set({ options: {} }).where(eq(customers.id, acmeId));
    try {
      const c = client();
      await c.signIn("superdespatcher@example.com");
      const [row] = await server.db.select().from(sessions).orderBy(sql`${sessions.createdAt} desc`).limit(1);
      await server.db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 719 * 60_000) }).where(eq(sessions.id, row!.id));
      expect((await c.json("/api/users/current")).status).toBe(200);
      await server.db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 721 * 60_000) }).where(eq(sessions.id, row!.id));
      expect((await c.json("/api/users/current")).status).toBe(401);
    } finally {
      await server.db.update(customers).set({ options: { session_timeout: 720 } }).where(eq(customers.id, acmeId));
    }
  });

  it("with remember me persist 14 days and outlive the idle timeout", async () => {
    const c = client();
    const { res } = await c.signIn("superdespatcher@example.com", "Demo-password-12", true);
    expect(res.headers.getSetCookie().find((x) => x.startsWith("fd_session="))).toMatch(/Max-Age=1209600/);
    const [row] = await server.db.select().from(sessions).orderBy(sql`${sessions.createdAt} desc`).limit(1);
    expect(row!.rememberMe).toBe(true);
    await server.db.update(sessions).set({ lastSeenAt: new Date(Date.now() - 2 * 24 * 3600_000) }).where(eq(sessions.id, row!.id));
    expect((await c.json("/api/users/current")).status).toBe(200);
    await server.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.id, row!.id));
    expect((await c.json("/api/users/current")).status).toBe(401);
  });

  it("end, with their tokens, when the user's customer is disabled; a sign-in lock leaves them open", async () => {
    const locked = await createUser(server.db, acmeId, { email: "tobelocked@example.com", authenticationToken: "tok-locked" });
    const c = client();
    await c.signIn(locked.email);
    const bot = new Client(server.url, "tok-locked");
    expect((await bot.json("/api/users/current")).status).toBe(200);
    // a stranger's wrong guesses lock new sign-ins, but cannot sign the user out
    await server.db.update(users).set({ lockedAt: new Date() }).where(eq(users.id, locked.id));
    expect((await c.json("/api/users/current")).status).toBe(200);
    expect((await bot.json("/api/users/current")).status).toBe(200);
    expect((await client().signIn(locked.email)).status).toBe(401);

    const [old] = await server.db.select().from(customers).where(eq(customers.code, "OLDCO"));
    await server.db.update(customers).set({ disabled: false }).where(eq(customers.id, old!.id));
    const former = await createUser(server.db, old!.id, { email: "soon-disabled@example.com", authenticationToken: "tok-former" });
    const f = client();
    await f.signIn(former.email);
    await server.db.update(customers).set({ disabled: true }).where(eq(customers.id, old!.id));
    expect((await f.json("/api/users/current")).status).toBe(401);
    expect((await new Client(server.url, "tok-former").json("/api/users/current")).status).toBe(401);
  });

  it("end at sign-out (DELETE /users/custom_sign_out) and when the user is disabled", async () => {
    const c = client();
    await c.signIn("devs@example.com");
    const out = await c.json("/users/custom_sign_out", { method: "DELETE" });
    expect(out.status).toBe(200);
    expect((await c.json("/api/users/current")).status).toBe(401);

    const victim = await createUser(server.db, acmeId, { email: "tobedisabled@example.com" });
    const v = client();
    await v.signIn(victim.email);
    await server.db.update(users).set({ disabled: true }).where(eq(users.id, victim.id));
    expect((await v.json("/api/users/current")).status).toBe(401);
  });

  it("sign-out from the menu is a POST; a GET changes nothing", async () => {
    const c = client();
    await c.signIn("devs@example.com");
    const get = await c.request("/logout");
    expect(get.status).toBe(302);
    expect((await c.json("/api/users/current")).status).toBe(200);
    const post = await c.request("/logout", { method: "POST", form: {} });
    expect(post.headers.get("location")).toBe("/login");
    expect((await c.json("/api/users/current")).status).toBe(401);
  });
});

describe("forced password change", () => {
  it("sends every page to /users/edit, answers 403 password_reset_required on /api, and clears after a change", async () => {
    const u = await createUser(server.db, acmeId, { email: "forced@example.com", passwordResetRequired: true, fullName: "Fay Forced" });
    const c = client();
    const signed = await c.signIn(u.email);
    expect(signed.body.redirect).toBe("/users/edit");
    const page = await c.request("/home");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/users/edit");
    const apiCall = await c.json("/api/notices");
    expect(apiCall.status).toBe(403);
    expect(apiCall.body).toMatchObject({ password_reset_required: true });
    // the current user is still readable, so the client can show the page
    expect((await c.json("/api/users/current")).body.password_reset_required).toBe(true);

    const weak = await c.request("/users/edit", {
      form: { current_password: "Demo-password-12", password: "weakpassword", password_confirmation: "weakpassword" },
    });
    expect(await weak.text()).toContain("Password must be at least 10 characters and contain at least 1 lower case letter, 1 upper case letter and 2 digits.");
    const wrongCurrent = await c.request("/users/edit", {
      form: { current_password: "Not-it-at-all-99", password: "Better-pass-34", password_confirmation: "Better-pass-34" },
    });
    expect(await wrongCurrent.text()).toContain("Current password is invalid");

    const ok = await c.request("/users/edit", {
      form: { current_password: "Demo-password-12", password: "Better-pass-34", password_confirmation: "Better-pass-34" },
    });
    expect(await ok.text()).toContain("Your password has been changed.");
    expect((await c.json("/api/notices")).status).toBe(200);
    expect((await client().signIn(u.email, "Better-pass-34")).status).toBe(200);
    expect((await client().signIn(u.email, "Demo-password-12")).status).toBe(401);
  });

  it("a password change ends the user's other sessions but keeps this one", async () => {
    const u = await createUser(server.db, acmeId, { email: "twodevices@example.com" });
    const laptop = client();
    const phone = client();
    await laptop.signIn(u.email);
    await phone.signIn(u.email);
    await laptop.request("/users/edit", {
      form: { current_password: "Demo-password-12", password: "Another-pass-56", password_confirmation: "Another-pass-56" },
    });
    expect((await laptop.json("/api/users/current")).status).toBe(200);
    expect((await phone.json("/api/users/current")).status).toBe(401);
  });
});

describe("forgot password", () => {
  it("always answers the same message, and mails a working reset link only to a real user", async () => {
    const known = await client().json<{ message: string }>("/users/forgot_password", { json: { email: "admin@example.com" } });
    const unknown = await client().json<{ message: string }>("/users/forgot_password", { json: { email: "ghost@example.com" } });
    expect(known.status).toBe(200);
    expect(known.body.message).toBe("An email has been sent to admin@example.com, if user exists and is permitted to reset password.");
    expect(unknown.body.message).toBe("An email has been sent to ghost@example.com, if user exists and is permitted to reset password.");
    expect(known.body).toEqual({ message: known.body.message });
    expect(Object.keys(unknown.body)).toEqual(["message"]);
    const [mail] = await resetMailFor("admin@example.com");
    expect(await storedMessagesFor(server.db, "ghost@example.com")).toEqual([]);

    const token = decodeURIComponent(mail!.text.match(/token=([^\s]+)/)![1]!);
    const reset = await client().request("/reset_password", {
      form: { token, password: "Reset-pass-78", password_confirmation: "Reset-pass-78" },
    });
    expect(reset.status).toBe(302);
    expect((await client().signIn("admin@example.com", "Reset-pass-78")).status).toBe(200);
    // the link works once
    const again = await client().request("/reset_password", {
      form: { token, password: "Reset-pass-90", password_confirmation: "Reset-pass-90" },
    });
    expect(await again.text()).toContain("This reset link is invalid or has expired.");
  });

  it("a link works for one of two simultaneous resets, and any password change voids older links", async () => {
    const u = await createUser(server.db, acmeId, { email: "racer@example.com" });
    let sent = 0;
    const tokenFrom = async () => {
      await client().json("/users/forgot_password", { json: { email: u.email } });
      const [mail] = await resetMailFor(u.email, ++sent);
      return decodeURIComponent(mail!.text.match(/token=([^\s]+)/)![1]!);
    };
    const token = await tokenFrom();
    const attempt = (password: string) => client().request("/reset_password", { form: { token, password, password_confirmation: password } });
    const results = await Promise.all([attempt("Race-winner-11"), attempt("Race-winner-22")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 302]);

    const older = await tokenFrom();
    const c = client();
    const newest = (await c.signIn(u.email, "Race-winner-11")).status === 200 ? "Race-winner-11" : "Race-winner-22";
    await c.signIn(u.email, newest);
    await c.request("/users/edit", { form: { current_password: newest, password: "Changed-pass-33", password_confirmation: "Changed-pass-33" } });
    const stale = await client().request("/reset_password", { form: { token: older, password: "Stale-link-44", password_confirmation: "Stale-link-44" } });
    expect(await stale.text()).toContain("This reset link is invalid or has expired.");
  });

  it("staff read stored e-mail on the mailbox page; others are sent to /", async () => {
    await client().json("/users/forgot_password", { json: { email: "superdespatcher@example.com" } });
    await resetMailFor("superdespatcher@example.com");
    const staff = client();
    await staff.signIn("customerservice@example.com");
    const page = await (await staff.request("/mailbox")).text();
    expect(page).toContain("Reset your password");
    expect(page).toContain("superdespatcher@example.com");
    const d = client();
    await d.signIn("despatcher@example.com");
    expect((await d.request("/mailbox")).headers.get("location")).toBe("/");
  });

  it("validates the e-mail (422 JSON) and the form shows the same message", async () => {
    const bad = await client().json<{ errors: Record<string, string[]> }>("/users/forgot_password", { json: { email: "x" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.email).toEqual(["Email must be at least 2 characters"]);
    const form = await client().request("/forgot_password", { form: { email: "despatcher@example.com" } });
    expect(await form.text()).toContain("An email has been sent to despatcher@example.com, if user exists and is permitted to reset password.");
  });
});

describe("scripted callers", () => {
  it("use Authorization: Bearer <authentication_token> on /api with the user's permissions", async () => {
    await server.db.update(users).set({ authenticationToken: "tok-despatcher-123" }).where(eq(users.email, "despatcher@example.com"));
    const bot = new Client(server.url, "tok-despatcher-123");
    const me = await bot.json("/api/users/current");
    expect(me.status).toBe(200);
    expect(me.body.email).toBe("despatcher@example.com");
    expect((await bot.json("/api/customers/list")).status).toBe(403);
    expect((await new Client(server.url, "wrong-token").json("/api/users/current")).status).toBe(401);
  });

  it("get 401 JSON, never a redirect, from any /api path without a user", async () => {
    for (const path of ["/api/users/current", "/api/notices", "/api/no/such/call"]) {
      const res = await client().request(path);
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toMatch(/application\/json/);
    }
  });
});
