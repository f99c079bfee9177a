import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customers, users } from "../../db/schema";
import { createCustomer, createSite, createUser } from "../../db/seed/factories";
import { loadCurrentUser, loadCurrentUserByToken, loadSessionWithUser } from "../../app/modules/auth/current-user.server";
import { createSession, resolveSession } from "../../app/modules/auth/sessions.server";
import { tokenDigest } from "../../app/modules/auth/tokens.server";
import { createTestDatabase, type TestDatabase } from "../support/database";

/**
 * The per-request user load (one query): who the user works for, which sites they may send
 * from, and who has no access at all.
 */
let test: TestDatabase;
let db: TestDatabase["database"]["db"];
let home: Awaited<ReturnType<typeof createCustomer>>;
let other: Awaited<ReturnType<typeof createCustomer>>;
let zeta: number, alpha: number, closed: number, unassigned: number, otherSite: number;

beforeAll(async () => {
  test = await createTestDatabase();
  db = test.database.db;
  home = await createCustomer(db, { name: "Home Pty Ltd" });
  other = await createCustomer(db, { name: "Other Pty Ltd" });
  zeta = (await createSite(db, home.id, { name: "Zeta", som: "imperial", country: "UNITED STATES OF AMERICA", region: "CA", timezone: "America/Los_Angeles", csPhoneNumber: null })).id;
  alpha = (await createSite(db, home.id, { name: "Alpha" })).id;
  closed = (await createSite(db, home.id, { name: "Closed", active: false })).id;
  unassigned = (await createSite(db, home.id, { name: "Middle" })).id;
  otherSite = (await createSite(db, other.id, { name: "Elsewhere" })).id;
});

afterAll(async () => {
  await test.drop();
});

describe("the current user load", () => {
  it("gives a despatcher only the active sites assigned to them, by name, with what pages need of each", async () => {
    const u = await createUser(db, home.id, { siteIds: [zeta, alpha, closed, otherSite] });
    const user = (await loadCurrentUser(db, u.id))!;
    expect(user.customer).toMatchObject({ id: home.id, name: "Home Pty Ltd", status: "LIVE" });
    expect(user.siteIds).toEqual([alpha, zeta]);
    expect(user.sites[1]).toEqual({ id: zeta, name: "Zeta", code: expect.any(String), som: "imperial", country: "UNITED STATES OF AMERICA", region: "CA", timezone: "America/Los_Angeles", csPhoneNumber: null });
  });

  it("gives staff every active site of the customer they work in, and a despatcher's switch is ignored", async () => {
    const admin = await createUser(db, home.id, { role: "admin" });
    expect((await loadCurrentUser(db, admin.id))!.siteIds).toEqual([alpha, unassigned, zeta]);

    await db.update(users).set({ currentCustomerId: other.id }).where(eq(users.id, admin.id));
    const switched = (await loadCurrentUser(db, admin.id))!;
    expect(switched.customer.id).toBe(other.id);
    expect(switched.homeCustomerId).toBe(home.id);
    expect(switched.siteIds).toEqual([otherSite]);

    const despatcher = await createUser(db, home.id, { siteIds: [alpha], currentCustomerId: other.id });
    const stays = (await loadCurrentUser(db, despatcher.id))!;
    expect(stays.customer.id).toBe(home.id);
    expect(stays.siteIds).toEqual([alpha]);
  });

  it("has no user for a disabled user, or one whose home customer is disabled (even when working elsewhere); a sign-in lock does not end access", async () => {
    const disabled = await createUser(db, home.id, { disabled: true });
    const locked = await createUser(db, home.id, { lockedAt: new Date() });
    expect(await loadCurrentUser(db, disabled.id)).toBeNull();
    // a lock refuses new sign-ins only: wrong guesses by someone else must not sign the user out
    expect(await loadCurrentUser(db, locked.id)).not.toBeNull();

    const closedCustomer = await createCustomer(db);
    const staff = await createUser(db, closedCustomer.id, { role: "customer_service", currentCustomerId: other.id });
    expect(await loadCurrentUser(db, staff.id)).not.toBeNull();
    await db.update(customers).set({ disabled: true }).where(eq(customers.id, closedCustomer.id));
    expect(await loadCurrentUser(db, staff.id)).toBeNull();
  });

  it("loads a session with the same user in one call, and nothing for an unknown session", async () => {
    const u = await createUser(db, home.id, { siteIds: [alpha] });
    const token = await createSession(db, u.id, { rememberMe: true });
    const found = (await loadSessionWithUser(db, tokenDigest(token)))!;
    expect(found.session).toMatchObject({ userId: u.id, rememberMe: true });
    expect(found.session.expiresAt).toBeInstanceOf(Date);
    expect(found.user).toEqual(await loadCurrentUser(db, u.id));
    expect(await loadSessionWithUser(db, tokenDigest("not-a-session"))).toBeNull();

    await db.update(users).set({ disabled: true }).where(eq(users.id, u.id));
    expect((await loadSessionWithUser(db, tokenDigest(token)))!.user).toBeNull();
  });

  it("loads an API caller by authentication token, and nothing for an unknown token or a disabled user", async () => {
    const u = await createUser(db, home.id, { siteIds: [alpha], authenticationToken: "token-of-the-api-caller" });
    expect(await loadCurrentUserByToken(db, "token-of-the-api-caller")).toEqual(await loadCurrentUser(db, u.id));
    expect(await loadCurrentUserByToken(db, "token-of-nobody")).toBeNull();
    await db.update(users).set({ disabled: true }).where(eq(users.id, u.id));
    expect(await loadCurrentUserByToken(db, "token-of-the-api-caller")).toBeNull();
  });

  it("ends an idle session by the home customer's session_timeout, even for staff working in another customer", async () => {
    const strict = await createCustomer(db, { options: { session_timeout: 5 } });
    const lenient = await createCustomer(db, { options: { session_timeout: 1000 } });
    const start = new Date("2026-11-23T00:00:00Z");
    const tenMinutesLater = new Date(start.getTime() + 10 * 60_000);

    const fromStrict = await createUser(db, strict.id, { role: "admin", currentCustomerId: lenient.id });
    const strictToken = await createSession(db, fromStrict.id, { rememberMe: false, now: start });
    expect(await resolveSession(db, strictToken, tenMinutesLater)).toBeNull();

    const fromLenient = await createUser(db, lenient.id, { role: "admin", currentCustomerId: strict.id });
    const lenientToken = await createSession(db, fromLenient.id, { rememberMe: false, now: start });
    expect((await resolveSession(db, lenientToken, tenMinutesLater))!.customer.id).toBe(strict.id);
  });
});
