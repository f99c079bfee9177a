import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookingConsignments, bookings, consignments, mailMessages, sites, userSites, users } from "../../db/schema";
import { nextBusinessDay } from "../../app/modules/calendar/business-days";
import { todayIn } from "../../app/modules/calendar/site-time";
import * as support from "../support/despatch";
import { futureDate, type DespatchWorld, type Json } from "../support/despatch";
import type { Client, TestServer } from "../support/server";

let world: DespatchWorld;
let server: TestServer;
let despatcher: Client;
let superDespatcher: Client;
let tester: Client;
let admin: Client;
let melId: number;
let laxId: number;
let tstId: number;

const work = (jobId: string, client: Client = despatcher) => support.workJob(world, jobId, client);
const put = (client: Client, path: string, json: unknown) => client.json<Json>(path, { method: "PUT", json });
const window = { ready_at: "09:00", closing_at: "17:00" };

/** Despatched consignments from `site` on a carrier and service (made and despatched through the API). */
async function despatched(n: number, carrier = "SIMEX", service = "ONT", site: "MEL" | "SYD" = "MEL", client = despatcher): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) ids.push((await support.createDespatchable(world, client, site, carrier, service)).id);
  const res = await put(client, "/api/consignments/despatch_all", { ids });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const job = await work(res.body.job_id, client);
  expect(job.status, JSON.stringify(job)).toBe("complete");
  return ids;
}

const booking = (ids: number[], over: Record<string, unknown> = {}) => ({ site_id: melId, service_code: "ONT", booking_date: futureDate(), consignment_ids: ids, ...window, ...over });

beforeAll(async () => {
  world = await support.startDespatchWorld();
  ({ server } = world);
  ({ despatcher, superDespatcher, tester, admin } = world.clients);
  await server.db.update(users).set({ canBook: true }).where(inArray(users.email, ["despatcher@example.com", "superdespatcher@example.com", "tester@example.com"]));
  const rows = await server.db.select({ id: sites.id, code: sites.code }).from(sites);
  melId = rows.find((s) => s.code === "MEL")!.id;
  laxId = rows.find((s) => s.code === "LAX")!.id;
  tstId = rows.find((s) => s.code === "TST")!.id;
  // the other customer's user works at their own site
  const [terry] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "tester@example.com"));
  await server.db.insert(userSites).values({ userId: terry!.id, siteId: tstId }).onConflictDoNothing();
}, 120_000);
afterAll(() => server.close());

describe("bookings", () => {
  it("lists a day's despatched consignments by service, books them through the carrier, and sends the generic carrier's booking e-mail", async () => {
    const simex = await despatched(2);
    const road = await despatched(1, "NORTHLINE", "GEN");

    const fresh = await despatcher.json<Json>(`/api/bookings/new?site_id=${melId}&date=${futureDate()}`);
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(200);
    expect(fresh.body.site.id).toBe(melId);
    const groups = fresh.body.groups as Json[];
    expect(groups.find((g) => g.service_code === "ONT")!.consignments.map((c: Json) => c.id)).toEqual(expect.arrayContaining(simex));
    expect(groups.find((g) => g.service_code === "GEN")!.consignments.map((c: Json) => c.id)).toEqual(road);
    expect(fresh.body.ready_at).toMatch(/^\d{2}:(00|15|30|45)$/);

    const res = await put(despatcher, "/api/bookings/book_all", {
      bookings: [booking(simex, { special_requirements: "Forklift on site" }), booking(road, { service_code: "GEN" })],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.warnings).toEqual([]);
    const job = await work(res.body.job_id);
    expect(job).toMatchObject({ status: "complete", message: "Your bookings have been sent." });

    const made = await server.db.select().from(bookings).where(inArray(bookings.id, res.body.booking_ids));
    expect(made.map((b) => b.state)).toEqual(["booked", "booked"]);
    const sim = made.find((b) => b.totalConsignments === 2)!;
    expect(sim.bookingNumber).toMatch(/^SXB\d{6}$/);
    expect(sim.specialRequirements).toBe("Forklift on site");
    const gen = made.find((b) => b.totalConsignments === 1)!;
    expect(gen.bookingNumber).toBe(`BK${String(gen.id).padStart(7, "0")}`);
    const [mail] = await server.db.select().from(mailMessages).where(eq(mailMessages.subject, `Pickup booking ${gen.bookingNumber}: Acme Distribution, Melbourne DC on ${futureDate()}`));
    expect(mail?.to ?? (await server.db.select().from(mailMessages)).map((m) => m.subject).join("|")).toBe("support@northline.example");

    // booked consignments are no longer offered, and cannot be booked twice
    const after = await despatcher.json<Json>(`/api/bookings/new?site_id=${melId}&date=${futureDate()}`);
    expect((after.body.groups as Json[]).flatMap((g) => g.consignments.map((c: Json) => c.id))).not.toContain(simex[0]);
    const twice = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([simex[0]!])] });
    expect(twice.status).toBe(409);
    expect(twice.body.errors.consignment_ids).toEqual(["At least one of the selected consignments has already been booked."]);

    // the list (today to the pickup day) and the booking
    const list = await despatcher.json<Json>(`/api/bookings?from_date=${todayIn("Australia/Melbourne")}&to_date=${futureDate()}&site_id=${melId}`);
    expect(list.status).toBe(200);
    expect((list.body.bookings as Json[]).map((b) => b.id)).toEqual(expect.arrayContaining([sim.id, gen.id]));
    const one = await despatcher.json<Json>(`/api/bookings/${sim.id}`);
    expect(one.body).toMatchObject({ state: "booked", state_label: "Booked", total_consignments: 2, rebook: false, error: null });
    expect((one.body.consignments as Json[]).map((c) => c.id).sort()).toEqual([...simex].sort());
  });

  it("says so when there is nothing to book, and refuses a booking with nothing selected", async () => {
    const none = await despatcher.json<Json>(`/api/bookings/new?site_id=${melId}&date=2031-01-06`);
    expect(none.body).toMatchObject({ groups: [], message: "There are no consignments to book." });
    const empty = await put(despatcher, "/api/bookings/book_all", { bookings: [] });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.bookings).toEqual(["There are no consignments to book."]);
    const nothing = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([]), booking([], { additional_items_attributes: [{ quantity: "", type: "" }] })] });
    expect(nothing.status).toBe(422);
    expect(nothing.body.errors.base).toEqual(["No consignments or additional items have been selected for booking."]);
  });

  it("takes additional items only with all their fields, and the dangerous goods fields together; special requirements at most 200", async () => {
    const partial = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([], { additional_items_attributes: [{ quantity: 2, type: "Pallet", length: 120 }] })] });
    expect(partial.status).toBe(422);
    expect(partial.body.errors["bookings.0.additional_items_attributes.0.width"]).toEqual(["Please ensure all additional items fields are filled out."]);
    expect(partial.body.errors["bookings.0.additional_items_attributes.0.weight_in_uom"]).toEqual(["Please ensure all additional items fields are filled out."]);
    expect(partial.body.errors["bookings.0.additional_items_attributes.0.quantity"]).toBeUndefined();

    const full = { quantity: 2, type: "Pallet", length: 120, width: 120, height: 100, weight_in_uom: 250 };
    const dg = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([], { additional_items_attributes: [{ ...full, un_number: "1203" }] })] });
    expect(dg.status).toBe(422);
    expect(Object.keys(dg.body.errors).sort()).toEqual(["bookings.0.additional_items_attributes.0.hazard_class", "bookings.0.additional_items_attributes.0.proper_shipping_name"]);

    const long = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([], { additional_items_attributes: [full], special_requirements: "x".repeat(201) })] });
    expect(long.status).toBe(422);
    expect(long.body.errors["bookings.0.special_requirements"]).toEqual(["Special requirements must be 200 characters or fewer."]);

    const times = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([], { additional_items_attributes: [full], ready_at: "09:10" })] });
    expect(times.status).toBe(422);
    expect(times.body.errors["bookings.0.ready_at"]).toEqual(["Choose a time on the quarter hour (HH:MM)"]);

    // a whole DG item books on its own: totals from its rows
    const ok = await put(despatcher, "/api/bookings/book_all", {
      bookings: [booking([], { special_requirements: "x".repeat(200), additional_items_attributes: [{ ...full, un_number: "1203", hazard_class: "3", proper_shipping_name: "PETROL" }] })],
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [made] = await server.db.select().from(bookings).where(eq(bookings.id, ok.body.booking_ids[0]));
    expect(made).toMatchObject({ totalConsignments: 0, totalItems: 2, totalWeight: "500.000", hazardousGoods: true, state: "pending" });
    expect((await work(ok.body.job_id)).status).toBe("complete");
  });

  it("moves a booking after the site's closing time to the next valid despatch date, with the warning", async () => {
    const [id] = await despatched(1, "SIMEX", "SDY");
    // closing at midnight: whenever the test runs, today's closing time has passed
    await server.db.update(sites).set({ closingTime: "00:00" }).where(eq(sites.id, melId));
    try {
      const today = todayIn("Australia/Melbourne");
      const res = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([id!], { service_code: "SDY", booking_date: today })] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.warnings).toEqual(["Closing time has passed, booking has been moved to next valid despatch date."]);
      const [made] = await server.db.select().from(bookings).where(eq(bookings.id, res.body.booking_ids[0]));
      expect(made!.bookingDate).toBe(nextBusinessDay(today, "AUSTRALIA", "VIC"));
      // a future day is not moved
      const later = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([], { additional_items_attributes: [{ quantity: 1, type: "Carton", length: 10, width: 10, height: 10, weight_in_uom: 1 }] })] });
      expect(later.body.warnings).toEqual([]);
      await work(res.body.job_id);
      await work(later.body.job_id);
    } finally {
      await server.db.update(sites).set({ closingTime: null }).where(eq(sites.id, melId));
    }
  });

  it("records a simulated refusal as failed with its error, rebooks it, and says 'Sorry...' when all failed", async () => {
    const ids = await despatched(1);
    await support.simulate(world, { fail_booking: true });
    try {
      const res = await put(despatcher, "/api/bookings/book_all", { bookings: [booking(ids)] });
      expect(res.status).toBe(200);
      const job = await work(res.body.job_id);
      expect(job.status).toBe("failed");
      expect(job.message).toBe("Sorry, all consignments failed to book. Please contact tech support.");
      expect(job.errors[0]).toBe("Sorry, all consignments failed to book. Please contact tech support.");
      const id = res.body.booking_ids[0];
      const failed = await despatcher.json<Json>(`/api/bookings/${id}`);
      expect(failed.body).toMatchObject({ state: "failed", state_label: "Failed", rebook: true, failed_booking: true, attempts: 1 });
      expect(failed.body.booking_error).toMatch(/refused pickup booking .* \(simulated failure\)/);

      // still refused: failed again; then the carrier takes it
      const again = await put(despatcher, `/api/bookings/${id}`, { rebook: true });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect((await work(again.body.job_id)).status).toBe("failed");
      await support.simulate(world, { fail_booking: false });
      const third = await put(despatcher, `/api/bookings/${id}`, { rebook: true });
      expect((await work(third.body.job_id)).message).toBe("Your bookings have been sent.");
      const booked = await despatcher.json<Json>(`/api/bookings/${id}`);
      expect(booked.body).toMatchObject({ state: "booked", booking_error: null, attempts: 3, rebook: false });
      const refused = await put(despatcher, `/api/bookings/${id}`, { rebook: true });
      expect(refused.status).toBe(409);
      expect(refused.body.errors.base).toEqual(["Only a failed booking can be rebooked."]);

      // a permanent refusal reads "Failed" too; with one of two refused the count says how many went
      await support.simulate(world, { fail_booking_permanently: true });
      const [a] = await despatched(1);
      const [b] = await despatched(1, "NORTHLINE", "RXP");
      const mixed = await put(despatcher, "/api/bookings/book_all", { bookings: [booking([a!]), booking([b!], { service_code: "RXP" })] });
      const mixedJob = await work(mixed.body.job_id);
      expect(mixedJob.message).toBe("Booked 1 of 2 bookings");
      const perm = await despatcher.json<Json>(`/api/bookings/${mixed.body.booking_ids[0]}`);
      expect(perm.body).toMatchObject({ state: "failed_permanently", state_label: "Failed", rebook: true });
    } finally {
      await support.simulate(world, { fail_booking: false, fail_booking_permanently: false });
    }
  });

  it("shows the error of a booking left with no consignments, and will not rebook it", async () => {
    const ids = await despatched(1);
    await support.simulate(world, { fail_booking: true });
    const res = await put(despatcher, "/api/bookings/book_all", { bookings: [booking(ids)] });
    await work(res.body.job_id);
    await support.simulate(world, { fail_booking: false });
    const id = res.body.booking_ids[0];
    await server.db.update(consignments).set({ state: "cancelled" }).where(inArray(consignments.id, ids));
    const one = await despatcher.json<Json>(`/api/bookings/${id}`);
    expect(one.body.error).toBe("All consignments of this booking were deleted or the carrier was changed.");
    const rebook = await put(despatcher, `/api/bookings/${id}`, { rebook: true });
    expect(rebook.status).toBe(409);
    expect(rebook.body.errors.base).toEqual(["All consignments of this booking were deleted or the carrier was changed."]);
  });

  it("refuses a range over 2 months with the spec's message, and lists nothing with its message", async () => {
    const wide = await despatcher.json<Json>("/api/bookings?from_date=2030-01-01&to_date=2030-03-02");
    expect(wide.status).toBe(422);
    expect(wide.body.errors.to_date).toEqual(["Date range too large, please select dates within 2 months."]);
    const ok = await despatcher.json<Json>("/api/bookings?fromDate=2030-01-01&toDate=2030-03-01");
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ bookings: [], message: "There are no bookings to display." });
  });

  it("checks can_book on every call, and scopes bookings to the customer and the user's sites", async () => {
    // the LAX site is the super despatcher's only
    const lax = await superDespatcher.json<Json>(`/api/bookings/book_all`, {
      method: "PUT",
      json: { bookings: [{ site_id: laxId, service_code: "ONT", booking_date: futureDate(), ...window, additional_items_attributes: [{ quantity: 1, type: "Carton", length: 10, width: 10, height: 10, weight_in_uom: 1 }] }] },
    });
    expect(lax.status, JSON.stringify(lax.body)).toBe(200);
    const laxBooking = lax.body.booking_ids[0];
    expect((await superDespatcher.json<Json>(`/api/bookings/${laxBooking}`)).status).toBe(200);
    expect((await despatcher.json<Json>(`/api/bookings/${laxBooking}`)).status).toBe(404);
    expect((await tester.json<Json>(`/api/bookings/${laxBooking}`)).status).toBe(404);
    expect((await put(tester, `/api/bookings/${laxBooking}`, { rebook: true })).status).toBe(404);
    const otherSite = await put(despatcher, "/api/bookings/book_all", { bookings: [{ ...booking([]), site_id: laxId, additional_items_attributes: [{ quantity: 1, type: "Carton", length: 10, width: 10, height: 10, weight_in_uom: 1 }] }] });
    expect(otherSite.status).toBe(422);
    expect(otherSite.body.errors.site_id).toEqual(["Choose one of your sites"]);
    // another customer's consignments are not found
    const mine = await despatched(1);
    const theirs = await put(tester, "/api/bookings/book_all", { bookings: [booking(mine, { site_id: tstId })] });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(404);
    expect(await server.db.select().from(bookingConsignments).where(eq(bookingConsignments.consignmentId, mine[0]!))).toEqual([]);

    // admin (can_book unset) is refused everywhere, screens included
    for (const path of ["/api/bookings", "/api/bookings/new", `/api/bookings/${laxBooking}`]) expect((await admin.json<Json>(path)).status, path).toBe(403);
    expect((await put(admin, "/api/bookings/book_all", { bookings: [booking(mine)] })).status).toBe(403);
    expect((await put(admin, `/api/bookings/${laxBooking}`, { rebook: true })).status).toBe(403);
    for (const path of ["/bookings", "/new_bookings", `/booking/${laxBooking}`]) {
      const page = await admin.request(path);
      expect(page.status, path).toBe(302);
      expect(page.headers.get("location")).toBe("/");
    }
  });

  it("the screens work without JavaScript: the day's groups, Book, the list with its messages and Rebook", async () => {
    const [id] = await despatched(1, "NORTHLINE", "GEN");
    const page = await despatcher.request(`/new_bookings?site_id=${melId}&date=${futureDate()}`);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain(`value="${id}"`);
    expect(html).toContain("Northline — General Road");

    const form = (over: Record<string, string>) => ({ site_id: String(melId), booking_date: futureDate(), groups: "1", "g0.service_code": "GEN", "g0.carrier_code": "NORTHLINE", "g0.rows": "1", ready_at: "09:00", closing_at: "17:00", special_requirements: "", ...over });
    const nothing = await despatcher.request("/new_bookings", { form: form({}) });
    expect(nothing.status).toBe(422);
    expect(await nothing.text()).toContain("No consignments or additional items have been selected for booking.");
    const partial = await despatcher.request("/new_bookings", { form: form({ "g0.items.0.quantity": "3", special_requirements: "Ring the bell" }) });
    expect(partial.status).toBe(422);
    const partialHtml = await partial.text();
    expect(partialHtml).toContain("Please ensure all additional items fields are filled out.");
    // what was typed comes back
    expect(partialHtml).toContain("Ring the bell");

    const booked = await despatcher.request("/new_bookings", { form: form({ "g0.c": String(id) }) });
    expect(booked.status).toBe(302);
    const location = booked.headers.get("location")!;
    const jobId = new URL(location, "http://x").searchParams.get("job")!;
    expect((await work(jobId)).message).toBe("Your bookings have been sent.");
    expect(await (await despatcher.request(location)).text()).toContain("Your bookings have been sent.");

    const [made] = await server.db.select().from(bookingConsignments).where(eq(bookingConsignments.consignmentId, id!));
    const list = await despatcher.request(`/bookings?from_date=${todayIn("Australia/Melbourne")}&to_date=${futureDate()}&sort=state&direction=desc`);
    const listHtml = await list.text();
    expect(listHtml).toContain(`/booking/${made!.bookingId}`);
    expect(listHtml).toContain('aria-sort="descending"');
    expect(await (await despatcher.request("/bookings?from_date=2030-01-01&to_date=2030-03-02")).text()).toContain("Date range too large, please select dates within 2 months.");
    expect(await (await despatcher.request("/bookings?from_date=2030-01-01&to_date=2030-01-02")).text()).toContain("There are no bookings to display.");

    // Rebook from the detail page
    await server.db.update(bookings).set({ state: "failed", bookingError: "Carrier offline" }).where(eq(bookings.id, made!.bookingId));
    const detail = await (await despatcher.request(`/booking/${made!.bookingId}`)).text();
    expect(detail).toContain("Carrier offline");
    expect(detail).toContain(">Rebook</button>");
    const rebooked = await despatcher.request(`/booking/${made!.bookingId}`, { form: { rebook: "true" } });
    expect(rebooked.status).toBe(302);
    expect((await work(new URL(rebooked.headers.get("location")!, "http://x").searchParams.get("job")!)).status).toBe("complete");
  });
});
