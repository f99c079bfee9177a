/**
 * Issue 12 findings 1 and 7: dates past the calendar's end once spun the server at 100 % CPU, and
 * impossible times, sizes and blobs were saved. The app runs in a child process here: a request
 * that loops forever would also stop a server inside the test's process, and with it the timeout
 * meant to fail the test. Every call gives up after a few seconds, so a regression fails, not hangs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESPATCH_DATE_PAST, DESPATCH_DATE_TOO_FAR, plusDays, plusYears } from "../../app/modules/calendar/dates";
import { MEL_TO_BNE } from "../support/rating";
import { Client } from "../support/server";
import { startServerProcess, type ServerProcess } from "../support/server-process";

let app: ServerProcess;
let despatcher: Client;

beforeAll(async () => {
  app = await startServerProcess();
  despatcher = new Client(app.url);
  await despatcher.signIn("despatcher@example.com");
}, 120_000);
afterAll(() => app?.close(), 30_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

/** A call that gives up after 5 s (an AbortError fails the test) instead of waiting on a hung server. */
async function call(path: string, json?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(app.url + path, {
    method: json === undefined ? "GET" : "POST",
    headers: { cookie: despatcher.cookie, accept: "application/json", "x-requested-with": "XMLHttpRequest", ...(json === undefined ? {} : { "content-type": "application/json" }) },
    body: json === undefined ? undefined : JSON.stringify(json),
    signal: AbortSignal.timeout(5_000),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const today = () => new Date().toISOString().slice(0, 10);
/** A weekday a week ahead: a despatch date valid at every site. */
function nextWeek() {
  let d = plusDays(today(), 7);
  while ([0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay())) d = plusDays(d, 1);
  return d;
}

const rating = (over: Json = {}) => ({ despatch_date: nextWeek(), ...MEL_TO_BNE, items: [{ quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: 5 }], ...over });
const receiver = { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD", country: "AUSTRALIA" };
const sender = { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", country: "AUSTRALIA" };
const consignment = (over: Json = {}) => ({
  site_code: "MEL",
  despatch_date: nextWeek(),
  sender_address: sender,
  receiver_address: receiver,
  items: [{ quantity: 1, item_type_id: app.cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "5" }],
  ...over,
});

describe("finding 1: a date at the calendar's end answers 422 at once, and the server keeps serving", () => {
  it.each(["9999-12-31", "9999-12-24"])("POST /api/carrier_selection with despatch date %s", async (date) => {
    const { status, body } = await call("/api/carrier_selection", rating({ despatch_date: date }));
    expect(status).toBe(422);
    expect(body.errors.despatch_date).toEqual([DESPATCH_DATE_TOO_FAR]);
  });

  it("GET /api/next_business_day?date=9999-12-31", async () => {
    const { status, body } = await call("/api/next_business_day?country=AUSTRALIA&region=VIC&date=9999-12-31");
    expect(status).toBe(422);
    expect(body.errors.date).toEqual(["Date must be in the years 2000 to 2100"]);
  });

  it("POST /api/consignments with despatch date 9999-12-31 (and 9000-06-01)", async () => {
    for (const date of ["9999-12-31", "9000-06-01"]) {
      const { status, body } = await call("/api/consignments", consignment({ despatch_date: date }));
      expect(status).toBe(422);
      expect(body.errors.despatch_date).toEqual([DESPATCH_DATE_TOO_FAR]);
    }
  });

  it("a despatch date a year from today is rated; a few days later, or before today, is refused with the spec's words", async () => {
    expect((await call("/api/carrier_selection", rating({ despatch_date: plusYears(today(), 1) }))).status).toBe(200);
    const far = await call("/api/carrier_selection", rating({ despatch_date: plusDays(plusYears(today(), 1), 3) }));
    expect(far.body.errors.despatch_date).toEqual([DESPATCH_DATE_TOO_FAR]);
    const past = await call("/api/carrier_selection", rating({ despatch_date: plusDays(today(), -3) }));
    expect(past.status).toBe(422);
    expect(past.body.errors.despatch_date).toEqual([DESPATCH_DATE_PAST]);
  });

  it("the server still answers: the next business day after a Friday is the Monday", async () => {
    const { status, body } = await call("/api/next_business_day?country=AUSTRALIA&region=VIC&date=2026-11-20");
    expect(status).toBe(200);
    expect(body.date).toBe("2026-11-23");
  });
});

describe("finding 7: impossible values are refused per field, not saved", () => {
  it.each([
    ["pickup_at", "2026-99-99 99:99", "Pickup time must be a real date and time (hour 0-23, minute 0-59)"],
    ["deliver_by", "2026-02-30 25:61", "Deliver-by time must be a real date and time (hour 0-23, minute 0-59)"],
    ["deliver_at", "0000-00-00 00:00", "Delivery time must be a real date and time (hour 0-23, minute 0-59)"],
    ["deliver_at", "2026-02-28 24:00", "Delivery time must be a real date and time (hour 0-23, minute 0-59)"],
    ["pickup_at", "1970-01-01 10:00", "Pickup time must be in the years 2000 to 2100"],
  ])("POST /api/consignments with %s %s", async (field, value, message) => {
    const { status, body } = await call("/api/consignments", consignment({ [field]: value }));
    expect(status).toBe(422);
    expect(body.errors[field]).toEqual([message]);
  });

  it("a pickup time the site's clocks skip (02:30 as Melbourne goes forward) is refused; 03:00 is taken", async () => {
    const skipped = await call("/api/consignments", consignment({ pickup_at: "2026-10-04 02:30" }));
    expect(skipped.status).toBe(422);
    expect(skipped.body.errors.pickup_at).toEqual(["2026-10-04 02:30 does not exist at the site (the clocks go forward then)"]);
    const real = await call("/api/consignments", consignment({ pickup_at: "2026-10-04 03:00" }));
    expect(real.status).toBe(201);
    expect(real.body.pickup_at).toBe("2026-10-04 03:00");
  });

  it("a return's ready time is checked the same way", async () => {
    const { status, body } = await call("/api/consignments", consignment({ return_info: { ready_at: "2026-13-01 10:00", contact_name: "Al" } }));
    expect(status).toBe(422);
    expect(body.errors["return_info.ready_at"]).toEqual(["Ready time must be a real date and time (hour 0-23, minute 0-59)"]);
  });

  it("options over 10 KB, or nested 20 deep, are refused; small options are kept", async () => {
    // 20 KB: over the cap, under any body limit
    const big = await call("/api/consignments", consignment({ options: { blob: "x".repeat(20_000) } }));
    expect(big.status).toBe(422);
    expect(big.body.errors.options).toEqual(["Options must be at most 10 KB as JSON"]);
    let deep: Json = { leaf: true };
    for (let i = 0; i < 20; i++) deep = { a: deep };
    const nested = await call("/api/consignments", consignment({ options: deep }));
    expect(nested.status).toBe(422);
    expect(nested.body.errors.options).toEqual(["Options must be nested at most 8 levels deep"]);
    const small = await call("/api/consignments", consignment({ options: { delivery_options: { authority_to_leave: true } } }));
    expect(small.status).toBe(201);
  });

  it.each([
    ["length", 1e15, "Length must be at most 9999"],
    ["width", 10_000, "Width must be at most 9999"],
    ["height", 1e6, "Height must be at most 9999"],
    ["weight_in_uom", 100_000, "Weight must be at most 99999"],
    ["quantity", 10_000, "Quantity must be at most 9999"],
  ])("POST /api/carrier_selection with %s %d is refused (the spec's 4 digits, 5 characters)", async (field, value, message) => {
    const { status, body } = await call("/api/carrier_selection", rating({ items: [{ quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: 5, [field]: value }] }));
    expect(status).toBe(422);
    expect(body.errors[`items.0.${field}`]).toEqual([message]);
  });

  it("the largest goods the spec allows are still rated", async () => {
    const { status } = await call("/api/carrier_selection", rating({ items: [{ quantity: 9999, length: 9999, width: 9999, height: 9999, weight_in_uom: 99999 }] }));
    expect(status).toBe(200);
  });

  it("the same limits hold on the consignment: a 5-digit length is refused", async () => {
    const { status, body } = await call("/api/consignments", consignment({ items: [{ quantity: 1, item_type_id: app.cartonTypeId, length: 1e15, width: 30, height: 30, weight_in_uom: "5" }] }));
    expect(status).toBe(422);
    expect(body.errors["items.0.length"]).toEqual(["Length must be a whole number of up to 4 digits"]);
  });
});
