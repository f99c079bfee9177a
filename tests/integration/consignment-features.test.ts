/** The consignment API's features: the address book, merging, quotes, delete and reinstate. */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignments, customers } from "../../db/schema";
import { Client, type TestServer } from "../support/server";
import { futureDate, receiver, startConsignmentWorld, type ConsignmentWorld, type Json } from "../support/consignments";

let server: TestServer;
let despatcher: Client;
let cartonTypeId: number;
let consignment: ConsignmentWorld["consignment"];

beforeAll(async () => {
  ({ server, despatcher, cartonTypeId, consignment } = await startConsignmentWorld());
}, 120_000);
afterAll(() => server.close());

describe("address book: /api/addresses", () => {
  const entry = { name: "Hobart Chandlery", address_line_1: "1 Morrison Street", locality: "HOBART", postcode: "7000", region: "TAS", country: "AUSTRALIA", phone: "03 6200 0000", email: "orders@chandlery.example" };

  it("adds, reads and edits a recipient; the typeahead finds it", async () => {
    const editor = new Client(server.url);
    await editor.signIn("superdespatcher@example.com");
    const created = await editor.json<Json>("/api/addresses", { json: entry });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "Hobart Chandlery", locality: "HOBART", postcode: "7000", address_type: "business" });
    const read = await despatcher.json<Json>(`/api/addresses/${created.body.id}`);
    expect(read.body.email).toBe("orders@chandlery.example");
    const edited = await editor.json<Json>(`/api/addresses/${created.body.id}`, { method: "PUT", json: { ...entry, phone: "03 6200 9999" } });
    expect(edited.body.phone).toBe("03 6200 9999");
    const found = await despatcher.json<Json>("/api/address_selection?type=recipient&query=chandl");
    expect(found.body.addresses.map((a: Json) => a.name)).toContain("Hobart Chandlery");
  });

  it("answers errors per field and refuses users without can_edit_recipients", async () => {
    const editor = new Client(server.url);
    await editor.signIn("superdespatcher@example.com");
    const bad = await editor.json<Json>("/api/addresses", { json: { ...entry, name: "", email: "nope", address_line_1: "" } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toMatchObject({ name: ["Name is required"], email: ["Email is not a valid e-mail address"] });
    const noLine = await editor.json<Json>("/api/addresses", { json: { ...entry, address_line_1: "" } });
    expect(noLine.body.errors).toEqual({ address_line_1: ["Address line 1 is required"] });
    const nowhere = await editor.json<Json>("/api/addresses", { json: { ...entry, locality: "ATLANTIS" } });
    expect(nowhere.body.errors).toEqual({ locality: ["7000 ATLANTIS is not a known place"] });
    const tooLong = await editor.json<Json>("/api/addresses", { json: { ...entry, special_instructions: "z".repeat(81) } });
    expect(tooLong.body.errors.special_instructions).toEqual(["Special instructions is too long (maximum is 80 characters)"]);

    const refused = await despatcher.json<Json>("/api/addresses", { json: entry });
    expect(refused.status).toBe(403);
  });

  it("keeps each customer's address book to itself", async () => {
    const editor = new Client(server.url);
    await editor.signIn("superdespatcher@example.com");
    const created = await editor.json<Json>("/api/addresses", { json: { ...entry, name: "Private Recipient" } });
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.json<Json>(`/api/addresses/${created.body.id}`)).status).toBe(404);
    const search = await other.json<Json>("/api/address_selection?type=recipient&query=private");
    expect(search.body.addresses).toEqual([]);
  });
});

describe("merging", () => {
  // Acme has merging on with a limit of 4 (demo data)
  const mergeDate = futureDate(10);
  // the weekday after mergeDate: futureDate(11) is the same Monday when day 10 is a Saturday
  const otherDate = (() => {
    const d = new Date(`${mergeDate}T00:00:00Z`);
    do d.setUTCDate(d.getUTCDate() + 1);
    while (d.getUTCDay() === 0 || d.getUTCDay() === 6);
    return d.toISOString().slice(0, 10);
  })();
  const mergeable = (over: Record<string, unknown> = {}) => consignment({ despatch_date: mergeDate, receiver_address: { ...receiver, name: "Merge Receiver" }, ...over });

  it("lists consignments to the same receiver address and despatch date only", async () => {
    const a = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "A" }) })).body;
    const b = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "B" }) })).body;
    await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "OTHER-DATE", despatch_date: otherDate }) });
    await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "OTHER-RECEIVER", receiver_address: { ...receiver, name: "Someone Else" } }) });
    const despatched = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "GONE" }) })).body;
    await server.db.update(consignments).set({ state: "despatched" }).where(eq(consignments.id, despatched.id));

    const res = await despatcher.json<Json>("/api/consignments/mergeable_consignments", { json: { id: a.id } });
    expect(res.status).toBe(200);
    expect(res.body.merge_limit).toBe(4);
    expect(res.body.consignments.map((c: Json) => c.reference)).toEqual(["B"]);
    expect(res.body.consignments[0]).toMatchObject({ id: b.id, receiver_name: "Merge Receiver", item_count: 2, weight: 10 });
  });

  it("merges: the source's lines join the target, which is re-priced; the source becomes merged", async () => {
    const target = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ reference: "TARGET", receiver_address: { ...receiver, name: "Merge Two" } }) })).body;
    const source = (
      await despatcher.json<Json>("/api/consignments", {
        json: mergeable({ reference: "SOURCE", receiver_address: { ...receiver, name: "Merge Two" }, items: [{ quantity: 1, item_type_id: cartonTypeId, length: 50, width: 40, height: 40, weight_in_uom: "20" }] }),
      })
    ).body;
    const res = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: source.id } });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: Json) => i.weight_in_uom)).toEqual([10, 20]);
    expect(res.body.version).toBe(target.version + 1);
    expect(res.body.state).toBe("despatchable");
    expect(res.body.service_rate).toBeGreaterThan(target.service_rate);
    const [row] = await server.db.select().from(consignments).where(eq(consignments.id, source.id));
    expect(row).toMatchObject({ state: "merged", active: false, mergedIntoId: target.id });
    // merged consignments are no longer offered, and cannot be merged again
    const again = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: source.id } });
    expect(again.status).toBe(409);
    expect(again.body.errors.base).toEqual(["Only open or despatchable consignments can be merged"]);
  });

  it("refuses a different receiver, and stops at the merge limit", async () => {
    const name = { receiver_address: { ...receiver, name: "Merge Limit" } };
    const target = (await despatcher.json<Json>("/api/consignments", { json: mergeable(name) })).body;
    const stranger = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ receiver_address: { ...receiver, name: "Stranger" } }) })).body;
    const refused = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: stranger.id } });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual(["Consignments must go to the same receiver address"]);

    // limit 4: the target may absorb three others
    for (let i = 0; i < 3; i++) {
      const s = (await despatcher.json<Json>("/api/consignments", { json: mergeable(name) })).body;
      expect((await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: s.id } })).status).toBe(200);
    }
    const fifth = (await despatcher.json<Json>("/api/consignments", { json: mergeable(name) })).body;
    const over = await despatcher.json<Json>(`/api/consignments/${target.id}/merge`, { json: { source_id: fifth.id } });
    expect(over.body.errors.base).toEqual(["The merge limit of 4 consignments has been reached"]);
    const list = await despatcher.json<Json>("/api/consignments/mergeable_consignments", { json: { id: fifth.id } });
    expect(list.body.consignments.map((c: Json) => c.id)).not.toContain(target.id);
  });

  it("offers nothing when the customer has merging off, and keeps other customers out", async () => {
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    const a = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ receiver_address: { ...receiver, name: "Merge Scope" } }) })).body;
    expect((await other.json<Json>("/api/consignments/mergeable_consignments", { json: { id: a.id } })).status).toBe(404);
    expect((await other.json<Json>(`/api/consignments/${a.id}/merge`, { json: { source_id: a.id } })).status).toBe(404);

    const b = (await despatcher.json<Json>("/api/consignments", { json: mergeable({ receiver_address: { ...receiver, name: "Merge Scope" } }) })).body;
    expect((await despatcher.json<Json>("/api/consignments/mergeable_consignments", { json: { id: a.id } })).body.consignments).toHaveLength(1);
    await server.db.update(customers).set({ mergingEnabled: false }).where(eq(customers.code, "ACME"));
    try {
      expect((await despatcher.json<Json>("/api/consignments/mergeable_consignments", { json: { id: a.id } })).body.consignments).toEqual([]);
      const off = await despatcher.json<Json>(`/api/consignments/${b.id}/merge`, { json: { source_id: a.id } });
      expect(off.body.errors.base).toEqual(["Merging is not enabled for this customer"]);
    } finally {
      await server.db.update(customers).set({ mergingEnabled: true }).where(eq(customers.code, "ACME"));
    }
  });
});

describe("quotes", () => {
  it("saves a quote in state quote, with 1 or 2 digit quantities", async () => {
    const res = await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true, reference: "Q-1" }) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ is_quote: true, state: "quote", errors: {} });
    expect(res.body.service_rate).toBeGreaterThan(0);
    const tooMany = await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true, items: [{ quantity: 100, item_type_id: cartonTypeId, length: 1, width: 1, height: 1, weight_in_uom: 1 }] }) });
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.errors["items.0.quantity"]).toEqual(["Quantity must be 1 or 2 digits"]);
    // a consignment takes 100 happily
    const consignmentOk = await despatcher.json<Json>("/api/consignments", { json: consignment({ items: [{ quantity: 100, item_type_id: cartonTypeId, length: 10, width: 10, height: 10, weight_in_uom: 100 }] }) });
    expect(consignmentOk.status).toBe(201);
  });

  it("promotes a valid quote to a consignment in place; an incomplete one is refused", async () => {
    const quote = (await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true, reference: "Q-PROMOTE" }) })).body;
    const res = await despatcher.json<Json>(`/api/promote_quote_to_consignment/${quote.id}`, { method: "PUT" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: quote.id, is_quote: false, has_quote_origin: true, state: "despatchable", reference: "Q-PROMOTE", service_code: quote.service_code });
    expect(res.body.version).toBe(quote.version + 1);
    // already a consignment
    expect((await despatcher.json<Json>(`/api/promote_quote_to_consignment/${quote.id}`, { method: "PUT" })).status).toBe(404);

    const incomplete = (await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true, receiver_address: null }) })).body;
    expect(incomplete.state).toBe("quote");
    const refused = await despatcher.json<Json>(`/api/promote_quote_to_consignment/${incomplete.id}`, { method: "PUT" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual(["Only a complete quote with a rate can become a consignment"]);
    expect((await despatcher.json<Json>(`/api/promote_quote_to_consignment/${incomplete.id}`, { method: "GET" })).status).toBe(405);
  });

  it("keeps quotes to their own kind and to their customer", async () => {
    const quote = (await despatcher.json<Json>("/api/consignments", { json: consignment({ is_quote: true }) })).body;
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.json<Json>(`/api/promote_quote_to_consignment/${quote.id}`, { method: "PUT" })).status).toBe(404);
    // an update keeps the quote a quote
    const updated = await despatcher.json<Json>(`/api/consignments/${quote.id}`, { method: "PUT", json: consignment({ version: quote.version, reference: "STILL-A-QUOTE" }) });
    expect(updated.body).toMatchObject({ is_quote: true, state: "quote", reference: "STILL-A-QUOTE" });
  });
});

describe("delete and reinstate", () => {
  it("soft-deletes consignments that are not despatched, and reinstates them to the state they had", async () => {
    const a = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    const b = (await despatcher.json<Json>("/api/consignments", { json: consignment({ receiver_address: null }) })).body;
    const gone = await despatcher.json<Json>(`/api/consignments/destroy_all?ids=${a.id},${b.id}`, { method: "POST" });
    expect(gone.status).toBe(200);
    expect(gone.body.deleted.sort()).toEqual([a.id, b.id].sort());
    expect((await despatcher.json<Json>(`/api/consignments/${a.id}`)).body).toMatchObject({ state: "deleted", active: false });
    const back = await despatcher.json<Json>("/api/consignments/reinstate_all", { json: { ids: [a.id, b.id] } });
    expect(back.body.reinstated).toHaveLength(2);
    expect((await despatcher.json<Json>(`/api/consignments/${a.id}`)).body).toMatchObject({ state: "despatchable", active: true });
    expect((await despatcher.json<Json>(`/api/consignments/${b.id}`)).body).toMatchObject({ state: "open", active: true });
  });

  it("refuses despatched ones and other customers' ids, changing nothing", async () => {
    const a = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    const b = (await despatcher.json<Json>("/api/consignments", { json: consignment() })).body;
    await server.db.update(consignments).set({ state: "despatched" }).where(eq(consignments.id, b.id));
    const refused = await despatcher.json<Json>("/api/consignments/destroy_all", { json: { ids: [a.id, b.id] } });
    expect(refused.status).toBe(409);
    expect((await despatcher.json<Json>(`/api/consignments/${a.id}`)).body.state).toBe("despatchable");
    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.json<Json>("/api/consignments/destroy_all", { json: { ids: [a.id] } })).status).toBe(404);
    expect((await despatcher.json<Json>("/api/consignments/destroy_all", { json: { ids: [] } })).body.errors.ids).toEqual(["No consignments have been selected."]);
  });
});
