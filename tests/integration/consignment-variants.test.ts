/** Returns and third-party pickups, time slots, custom references, the change history and dates at the sending site. */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, customers, sites, users } from "../../db/schema";
import { Client, type TestServer } from "../support/server";
import { futureDate, receiver, sender, startConsignmentWorld, type ConsignmentWorld, type Json } from "../support/consignments";
import { loadCurrentUser } from "../../app/modules/auth/current-user.server";
import { saveConsignment } from "../../app/modules/consignments/save.server";
import { listQuotes } from "../../app/modules/consignments/quotes.server";

let server: TestServer;
let despatcher: Client;
let admin: Client;
let consignment: ConsignmentWorld["consignment"];

beforeAll(async () => {
  ({ server, despatcher, admin, consignment } = await startConsignmentWorld());
}, 120_000);
afterAll(() => server.close());

describe("returns and third-party pickups: /api/returns", () => {
  const pickupDay = futureDate(5);
  const info = { ready_at: `${pickupDay} 09:05`, closing_at: `${pickupDay} 16:50`, contact_name: "Pat Picker", phone_number: "(07) 3000-1111", pickup_location: "Loading dock 2" };
  // a return: collected from the customer's customer, back to the Melbourne site
  const aReturn = (over: Record<string, unknown> = {}) => consignment({ sender_address: receiver, receiver_address: sender, return_info: info, ...over });

  it("creates a return priced as a return, with pickup times rounded up to the quarter hour and the phone cleaned", async () => {
    const res = await despatcher.json<Json>("/api/returns", { json: aReturn() });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ return_type: "return", state: "despatchable", errors: {} });
    expect(res.body.return_info).toMatchObject({ ready_at: `${pickupDay} 09:15`, closing_at: `${pickupDay} 17:00`, phone_number: "07 30001111", contact_name: "Pat Picker" });
    expect(res.body.service_rate).toBeGreaterThan(0);
    const got = await despatcher.json<Json>(`/api/returns/${res.body.id}`);
    expect(got.body.id).toBe(res.body.id);
  });

  it("needs the pickup window, a contact and a phone; closing must follow ready", async () => {
    const res = await despatcher.json<Json>("/api/returns", { json: aReturn({ return_info: { ready_at: info.ready_at } }) });
    expect(res.body.state).toBe("open");
    expect(res.body.errors).toMatchObject({
      "return_info.closing_at": ["Closing time is required"],
      "return_info.contact_name": ["Contact name is required"],
      "return_info.phone_number": ["Phone number is required"],
    });
    const backwards = await despatcher.json<Json>("/api/returns", { json: aReturn({ return_info: { ...info, closing_at: `${pickupDay} 08:00` } }) });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors["return_info.closing_at"]).toEqual(["Closing time must be after the ready time"]);
    const notes = await despatcher.json<Json>("/api/returns", { json: aReturn({ return_info: { ...info, email_body: "n".repeat(4001) } }) });
    expect(notes.body.errors["return_info.email_body"]).toEqual(["Additional notes is too long (maximum is 4000 characters)"]);
  });

  it("a third-party pickup needs both addresses", async () => {
    const res = await despatcher.json<Json>("/api/returns", { json: aReturn({ return_type: "third_party", receiver_address: null }) });
    expect(res.body).toMatchObject({ return_type: "third_party", state: "open" });
    expect(res.body.errors.receiver_address).toEqual(["Receiver address is required"]);
    const noSender = await despatcher.json<Json>("/api/returns", { json: aReturn({ sender_address: null }) });
    expect(noSender.body.errors.sender_address).toEqual(["Sender address is required"]);
  });

  it("keeps returns and consignments apart", async () => {
    const outbound = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    expect((await despatcher.json<Json>(`/api/returns/${outbound.id}`)).status).toBe(404);
    expect((await despatcher.json<Json>(`/api/returns/${outbound.id}`, { method: "PUT", json: aReturn({ version: 1 }) })).status).toBe(404);
  });

  it("lets a super admin alone correct the pickup information of a despatched return", async () => {
    const created = (await despatcher.json<Json>("/api/returns", { json: aReturn() })).body;
    await server.db.update(consignments).set({ state: "despatched" }).where(eq(consignments.id, created.id));
    const body = { superadmin: true, version: created.version, return_info: { ...info, contact_name: "Corrected Name" } };
    expect((await admin.json<Json>(`/api/returns/${created.id}`, { method: "PUT", json: body })).status).toBe(403);
    const superAdmin = new Client(server.url);
    await superAdmin.signIn("superadmin@example.com");
    const ok = await superAdmin.json<Json>(`/api/returns/${created.id}`, { method: "PUT", json: body });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ state: "despatched", version: created.version + 1 });
    expect(ok.body.return_info.contact_name).toBe("Corrected Name");
    const stale = await superAdmin.json<Json>(`/api/returns/${created.id}`, { method: "PUT", json: body });
    expect(stale.body.error_code).toBe("stale");
    // an ordinary update of a despatched return is refused
    const plain = await despatcher.json<Json>(`/api/returns/${created.id}`, { method: "PUT", json: aReturn({ version: created.version + 1 }) });
    expect(plain.status).toBe(409);
  });
});

describe("time slots", () => {
  it("a service that needs a pickup time leaves the consignment open until it has one", async () => {
    const without = await despatcher.json<Json>("/api/consignments", { json: consignment({ carrier_code: "SIMEX", service_code: "ONT" }) });
    expect(without.body).toMatchObject({ carrier_code: "SIMEX", service_code: "ONT", state: "open" });
    expect(without.body.errors).toEqual({ pickup_at: ["Pickup time is required for this service"] });
    const pickupAt = `${futureDate()} 10:30`;
    const withSlot = await despatcher.json<Json>("/api/consignments", { json: consignment({ carrier_code: "SIMEX", service_code: "ONT", pickup_at: pickupAt }) });
    expect(withSlot.body).toMatchObject({ state: "despatchable", pickup_at: pickupAt, errors: {} });
    // services without slots do not ask
    const road = await despatcher.json<Json>("/api/consignments", { json: consignment({ carrier_code: "NORTHLINE", service_code: "GEN" }) });
    expect(road.body.state).toBe("despatchable");
  });
});

describe("custom reference by the customer's type", () => {
  it("dropdown_generic takes one of the customer's references and needs one; dropdown_charge_site takes a site", async () => {
    const [acme] = await server.db.select().from(customers).where(eq(customers.code, "ACME"));
    await server.db
      .update(customers)
      .set({ customConsignmentReferenceType: "dropdown_generic", customConsignmentReferenceLabel: "Cost centre", options: { ...acme!.options, custom_references: ["COST-A", "COST-B"] } })
      .where(eq(customers.id, acme!.id));
    try {
      const wrong = await despatcher.json<Json>("/api/consignments", { json: consignment({ custom_reference: "COST-C" }) });
      expect(wrong.status).toBe(422);
      expect(wrong.body.errors.custom_reference).toEqual(["Cost centre must be one of the list"]);
      const missing = await despatcher.json<Json>("/api/consignments", { json: consignment() });
      expect(missing.body).toMatchObject({ state: "open", errors: { custom_reference: ["Cost centre is required"] } });
      const ok = await despatcher.json<Json>("/api/consignments", { json: consignment({ custom_reference: "COST-B" }) });
      expect(ok.body).toMatchObject({ state: "despatchable", custom_reference: "COST-B" });
      // the screen offers the list
      expect(await (await despatcher.request("/")).text()).toContain('<option value="COST-A">COST-A</option>');

      await server.db.update(customers).set({ customConsignmentReferenceType: "dropdown_charge_site", customConsignmentReferenceLabel: "Charge to site" }).where(eq(customers.id, acme!.id));
      expect((await despatcher.json<Json>("/api/consignments", { json: consignment({ custom_reference: "SYD" }) })).body.state).toBe("despatchable");
      const notASite = await despatcher.json<Json>("/api/consignments", { json: consignment({ custom_reference: "NOPE" }) });
      expect(notASite.body.errors.custom_reference).toEqual(["Charge to site must be one of the list"]);
    } finally {
      await server.db.update(customers).set({ customConsignmentReferenceType: "text", customConsignmentReferenceLabel: null, options: acme!.options }).where(eq(customers.id, acme!.id));
    }
  });
});

describe("GET /api/consignment_changes", () => {
  it("gives admins the audit history, newest first, with who made each change; others are refused", async () => {
    const created = (await despatcher.json<Json>("/api/consignments", { json: consignment({ reference: "HIST-1" }) })).body;
    await despatcher.json<Json>(`/api/consignments/${created.id}`, { method: "PUT", json: consignment({ version: 1, reference: "HIST-2" }) });
    const res = await admin.json<Json>(`/api/consignment_changes?id=${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body.changes[0]).toMatchObject({ version: 2, field: "reference", from: "HIST-1", to: "HIST-2", by: "Dana Despatcher" });
    expect(res.body.changes.at(-1)).toMatchObject({ version: 1, field: "created" });
    expect((await despatcher.json<Json>(`/api/consignment_changes?id=${created.id}`)).status).toBe(403);
    expect((await admin.json<Json>("/api/consignment_changes?id=abc")).status).toBe(422);
  });
});

describe("dates at the sending site", () => {
  it("'the past' is before today in the site's time zone, not in UTC", async () => {
    const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    const user = (await loadCurrentUser(server.db, row!.id))!;
    // 07:00 on 2 December in Melbourne is still 1 December in UTC: 1 December has passed there
    const melbourneMorning = new Date("2026-12-01T20:00:00Z");
    await expect(saveConsignment(server.db, user, null, consignment({ despatch_date: "2026-12-01" }), { now: melbourneMorning })).rejects.toThrow("Despatch date cannot be in the past");
    const today = await saveConsignment(server.db, user, null, consignment({ despatch_date: "2026-12-02" }), { now: melbourneMorning });
    expect(today.consignment.errors.despatch_date).toBeUndefined();
    // 18:00 on 1 December in Los Angeles is already 2 December in UTC: 1 December is still today there
    const losAngelesEvening = new Date("2026-12-02T02:00:00Z");
    const la = await saveConsignment(server.db, user, null, consignment({ site_code: "LAX", despatch_date: "2026-12-01" }), { now: losAngelesEvening });
    expect(la.consignment.errors.despatch_date).toBeUndefined();
    await expect(saveConsignment(server.db, user, null, consignment({ despatch_date: "2026-12-01" }), { now: losAngelesEvening })).rejects.toThrow("Despatch date cannot be in the past");
  });

  it("a quote's date on the quotes list is the day it was made at its site", async () => {
    const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    const user = (await loadCurrentUser(server.db, row!.id))!;
    const mel = (await saveConsignment(server.db, user, null, consignment({ is_quote: true, reference: "Q-MEL-TZ" }), { isQuote: true })).consignment;
    const lax = (await saveConsignment(server.db, user, null, consignment({ is_quote: true, site_code: "LAX", reference: "Q-LAX-TZ" }), { isQuote: true })).consignment;
    // both made at 20:00 UTC on 1 December: 07:00 on 2 December in Melbourne, 12:00 on 1 December in Los Angeles
    await server.db.update(consignments).set({ createdAt: new Date("2026-12-01T20:00:00Z") }).where(inArray(consignments.id, [mel.id, lax.id]));
    const quotes = await listQuotes(server.db, user, new Date("2026-12-03T00:00:00Z"));
    expect(quotes.find((q) => q.id === mel.id)?.date).toBe("2026-12-02");
    expect(quotes.find((q) => q.id === lax.id)?.date).toBe("2026-12-01");
    // shown as each site's country writes it
    expect(quotes.find((q) => q.id === mel.id)?.country).toBe("AUSTRALIA");
    expect(quotes.find((q) => q.id === lax.id)?.country).toBe("UNITED STATES OF AMERICA");
  });

  it("a quote on the quotes list carries its site's system of measurement, for the units shown", async () => {
    const [row] = await server.db.select({ id: users.id }).from(users).where(eq(users.email, "admin@example.com"));
    await server.db.update(sites).set({ som: "imperial" }).where(eq(sites.code, "LAX"));
    try {
      const user = (await loadCurrentUser(server.db, row!.id))!;
      const mel = (await saveConsignment(server.db, user, null, consignment({ is_quote: true, reference: "Q-MEL-SOM" }), { isQuote: true })).consignment;
      const lax = (await saveConsignment(server.db, user, null, consignment({ is_quote: true, site_code: "LAX", reference: "Q-LAX-SOM" }), { isQuote: true })).consignment;
      const quotes = await listQuotes(server.db, user);
      expect(quotes.find((q) => q.id === mel.id)?.som).toBe("metric");
      expect(quotes.find((q) => q.id === lax.id)?.som).toBe("imperial");
    } finally {
      await server.db.update(sites).set({ som: "metric" }).where(eq(sites.code, "LAX"));
    }
  });
});
