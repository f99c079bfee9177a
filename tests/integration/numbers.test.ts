import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carrierAccounts } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { createCarrier, createCarrierAccount } from "../../db/seed/factories";
import { isValidSscc } from "../../app/modules/numbers/format";
import { allocateConsignmentNumber, allocateSsccs, remaining } from "../../app/modules/numbers/numbers.server";
import { itemTypes } from "../../db/schema";
import { Client, startTestServer, type TestServer } from "../support/server";

let server: TestServer;
let demo: Awaited<ReturnType<typeof seedDemo>>;
let carrierId: number;

beforeAll(async () => {
  server = await startTestServer();
  demo = await seedDemo(server.db);
  carrierId = (await createCarrier(server.db, { code: "NUMCO", name: "Number Carrier" })).id;
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
}, 120_000);
afterAll(() => server.close());

const newAccount = (over: Parameters<typeof createCarrierAccount>[3] = {}) => createCarrierAccount(server.db, demo.sites.melbourne.id, carrierId, over);

describe("number allocation from a carrier account's range", () => {
  it("8 parallel callers, 240 numbers: no duplicates and no gaps", async () => {
    const account = await newAccount();
    const got = (
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          const mine: string[] = [];
          for (let i = 0; i < 30; i++) mine.push(await server.db.transaction((tx) => allocateConsignmentNumber(tx, account.id)));
          return mine;
        }),
      )
    ).flat();
    expect(new Set(got).size).toBe(240);
    expect([...got].sort()).toEqual(Array.from({ length: 240 }, (_, i) => `CN${String(i + 1).padStart(8, "0")}`));
  });

  it("a rolled-back transaction gives its number back", async () => {
    const account = await newAccount();
    await expect(
      server.db.transaction(async (tx) => {
        expect(await allocateConsignmentNumber(tx, account.id)).toBe("CN00000001");
        throw new Error("printing failed");
      }),
    ).rejects.toThrow("printing failed");
    expect(await allocateConsignmentNumber(server.db, account.id)).toBe("CN00000001");
  });

  it("says clearly when a range is exhausted, and counts what is left", async () => {
    const account = await newAccount({ accountNumber: "SMALL-1", consignmentRangeStart: 7, consignmentRangeEnd: 9 });
    expect(await allocateConsignmentNumber(server.db, account.id)).toBe("CN00000007");
    const [row] = await server.db.select().from(carrierAccounts).where(eq(carrierAccounts.id, account.id));
    expect(remaining(row!).consignment).toBe(2);
    await allocateConsignmentNumber(server.db, account.id);
    await allocateConsignmentNumber(server.db, account.id);
    await expect(allocateConsignmentNumber(server.db, account.id)).rejects.toThrow("The consignment number range of carrier account SMALL-1 is exhausted. Please contact customer services.");
  });

  it("hands out SSCC-18s with GS1 check digits, in parallel without repeats", async () => {
    const account = await newAccount();
    const batches = await Promise.all(Array.from({ length: 8 }, () => server.db.transaction((tx) => allocateSsccs(tx, account.id, 25))));
    const all = batches.flat();
    expect(all).toHaveLength(200);
    expect(new Set(all).size).toBe(200);
    expect(all.every(isValidSscc)).toBe(true);
    // each batch is a run of consecutive serial references
    for (const b of batches) {
      const serials = b.map((s) => Number(s.slice(8, 17)));
      expect(serials).toEqual(serials.map((_, i) => serials[0]! + i));
    }
    const noRange = await newAccount({ ssccPrefix: null });
    await expect(allocateSsccs(server.db, noRange.id, 1)).rejects.toThrow(/has no SSCC range/);
  });
});

describe("PUT /api/consignments/{id}/allocate_without_printing", () => {
  it("numbers a complete consignment once; refuses an incomplete one and other customers", async () => {
    const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
    const client = new Client(server.url);
    await client.signIn("despatcher@example.com");
    const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const body = {
      site_code: "MEL",
      despatch_date: date,
      sender_address: { name: "Melbourne DC", address_line_1: "1", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
      receiver_address: { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
      items: [{ quantity: 1, item_type_id: carton!.id, length: 40, width: 30, height: 30, weight_in_uom: 5 }],
    };
    const created = (await client.json<{ id: number; consignment_number: string | null; version: number }>("/api/consignments", { json: body })).body;
    expect(created.consignment_number).toBeNull();
    const first = await client.json<{ consignment_number: string; version: number }>(`/api/consignments/${created.id}/allocate_without_printing`, { method: "PUT" });
    expect(first.status).toBe(200);
    // the demo account of the chosen service: its prefix and padded digits
    expect(first.body.consignment_number).toMatch(/^[A-Z]+\d{6,}$/);
    expect(first.body.version).toBe(created.version + 1);
    const again = await client.json<{ consignment_number: string }>(`/api/consignments/${created.id}/allocate_without_printing`, { method: "PUT" });
    expect(again.body.consignment_number).toBe(first.body.consignment_number);

    const incomplete = (await client.json<{ id: number }>("/api/consignments", { json: { ...body, receiver_address: null } })).body;
    const refused = await client.json<{ errors: { base: string[] } }>(`/api/consignments/${incomplete.id}/allocate_without_printing`, { method: "PUT" });
    expect(refused.status).toBe(409);
    expect(refused.body.errors.base).toEqual(["Only a complete consignment with a rate can be given its number"]);

    const other = new Client(server.url);
    await other.signIn("tester@example.com");
    expect((await other.json(`/api/consignments/${created.id}/allocate_without_printing`, { method: "PUT" })).status).toBe(404);
  });
});

describe("batch label prints (POST /print/labels?ids=)", () => {
  it("8 concurrent batches with overlapping ids in any order all print, and no number or SSCC repeats", async () => {
    const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
    const client = new Client(server.url);
    await client.signIn("despatcher@example.com");
    const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const body = (n: number) => ({
      site_code: "MEL",
      reference: `BATCH-${n}`,
      despatch_date: date,
      sender_address: { name: "Melbourne DC", address_line_1: "1", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
      receiver_address: { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
      items: [{ quantity: 2, item_type_id: carton!.id, length: 40, width: 30, height: 30, weight_in_uom: 5 }],
    });
    const ids: number[] = [];
    for (let n = 0; n < 6; n++) {
      const created = await client.json<{ id: number }>("/api/consignments", { json: body(n) });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    // overlapping sets, each in its own order (the order a list's ticks happen to have)
    const batches = [
      [0, 1, 2, 3, 4, 5],
      [5, 4, 3, 2, 1, 0],
      [2, 0, 4],
      [3, 5, 1],
      [4, 1, 5, 0],
      [1, 3, 0, 2],
      [5, 2, 3],
      [0, 4, 2, 5, 1],
    ].map((set) => set.map((i) => ids[i]!));
    const answers = await Promise.all(
      batches.map(async (set) => {
        const res = await client.request(`/print/labels?format=zpl&ids=${set.join(",")}`, { method: "POST" });
        return { status: res.status, text: await res.text() };
      }),
    );
    expect(answers.map((a) => (a.status === 200 ? 200 : `${a.status} ${a.text}`))).toEqual(batches.map(() => 200));

    const printed = await Promise.all(ids.map((id) => client.json<{ consignment_number: string; items: { ssccs: string[] }[] }>(`/api/consignments/${id}`)));
    const numbers = printed.map((p) => p.body.consignment_number);
    const ssccs = printed.flatMap((p) => p.body.items.flatMap((i) => i.ssccs));
    expect(numbers.every(Boolean)).toBe(true);
    expect(new Set(numbers).size).toBe(ids.length);
    expect(ssccs).toHaveLength(ids.length * 2);
    expect(new Set(ssccs).size).toBe(ssccs.length);
  });
});
