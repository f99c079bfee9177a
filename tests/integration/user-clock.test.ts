/**
 * Issue 31 #1 (decision 032): a staff user has no site and once read every date at the customer's
 * first site, the demo's Los Angeles warehouse. Their clock is now their own setting, else their
 * default site's, else their customer's country's, else the provider's Melbourne.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sites, users } from "../../db/schema";
import { seedDemoIfEmpty } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { loadCurrentUser } from "../../app/modules/auth/current-user.server";
import { localDate, todayIn, userToday } from "../../app/modules/calendar/site-time";
import { instantInZone } from "../../app/modules/calendar/zone-offset";
import { createNoticeForAdmin, listNoticesForAdmin } from "../../app/modules/notices/admin.server";
import { createTestDatabase, type TestDatabase } from "../support/database";

let test: TestDatabase;
const db = () => test.database.db;
const userId = async (email: string) => (await db().select({ id: users.id }).from(users).where(eq(users.email, email)))[0]!.id;
const load = async (email: string) => (await loadCurrentUser(db(), await userId(email)))!;

beforeAll(async () => {
  test = await createTestDatabase();
  await loadLocalities(db());
  expect(await seedDemoIfEmpty(db())).toBe(true);
}, 180_000);
afterAll(() => test.drop());

describe("a staff user's clock", () => {
  it("is the provider's Melbourne in DD/MM/YYYY, not the first site's Los Angeles", async () => {
    const admin = await load("admin@example.com");
    // the demo's first site by name is the Los Angeles warehouse: the one staff once fell back to
    expect(admin.sites[0]?.timezone).toBe("America/Los_Angeles");
    expect(admin.clock).toMatchObject({ timeZone: "Australia/Melbourne", dateFormat: "DD/MM/YYYY" });
    expect(userToday(admin)).toBe(todayIn("Australia/Melbourne"));
  });

  it("a notice an admin dates today is published from Melbourne's midnight and listed in DD/MM/YYYY", async () => {
    const admin = await load("admin@example.com");
    const made = await createNoticeForAdmin(db(), admin, { header: "Depot closed", customer_id: admin.customer.id, content: "<p>Closed</p>" });
    const today = todayIn("Australia/Melbourne");
    expect(new Date(made.publish_at).getTime()).toBe(instantInZone(today, "00:00", "Australia/Melbourne").getTime());
    const [y, m, d] = today.split("-");
    expect(made.publish_date).toBe(`${d}/${m}/${y}`);
    const listed = await listNoticesForAdmin(db(), admin);
    expect(listed.notices.find((n) => n.id === made.id)?.publish_date).toBe(`${d}/${m}/${y}`);
  });

  it("the user's own setting wins, and a notice date is typed in their format", async () => {
    await db().update(users).set({ timezone: "America/Los_Angeles", dateFormat: "MM/DD/YYYY" }).where(eq(users.email, "superadmin@example.com"));
    const sa = await load("superadmin@example.com");
    expect(sa.clock).toMatchObject({ timeZone: "America/Los_Angeles", dateFormat: "MM/DD/YYYY", from: { timeZone: "user" } });
    const made = await createNoticeForAdmin(db(), sa, { header: "Holiday", customer_id: sa.customer.id, publish_at: "12/25/2030", content: "<p>Closed</p>" });
    expect(made.publish_date).toBe("12/25/2030");
    expect(localDate(new Date(made.publish_at), "America/Los_Angeles", "AUSTRALIA")).toBe("25/12/2030");
  });

  it("a default site gives its zone and format; without own setting or site, the customer's country", async () => {
    const [la] = await db().select().from(sites).where(eq(sites.timezone, "America/Los_Angeles"));
    await db().update(users).set({ defaultSiteId: la!.id }).where(eq(users.email, "customerservice@example.com"));
    expect((await load("customerservice@example.com")).clock).toMatchObject({ timeZone: "America/Los_Angeles", dateFormat: "MM/DD/YYYY", from: { timeZone: "site" } });
    const devs = await load("devs@example.com");
    expect(devs.clock.from.timeZone === "customer" || devs.clock.from.timeZone === "provider").toBe(true);
  });
});
