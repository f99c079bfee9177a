import { describe, expect, it } from "vitest";
import { DESPATCH_DATE_PAST, DESPATCH_DATE_TOO_FAR, plusDays } from "../calendar/dates";
import { quickQuoteSchema } from "./quick-quote.server";

const today = () => new Date().toISOString().slice(0, 10);
const quote = (despatch_date: string) => ({
  site_code: "MEL",
  despatch_date,
  sender_postcode: "3175",
  sender_locality: "DANDENONG SOUTH",
  receiver_postcode: "4102",
  receiver_locality: "WOOLLOONGABBA",
  items: [{ quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: 5 }],
});
const dateErrors = (date: string) => {
  const r = quickQuoteSchema.safeParse(quote(date));
  return r.success ? [] : r.error.issues.filter((i) => i.path[0] === "despatch_date").map((i) => i.message);
};

describe("quick quote despatch date (issue 12 finding 1)", () => {
  it("takes the shared despatch date window", () => {
    expect(dateErrors(plusDays(today(), 2))).toEqual([]);
    expect(dateErrors("9999-12-31")).toEqual([DESPATCH_DATE_TOO_FAR]);
    expect(dateErrors(plusDays(today(), -3))).toEqual([DESPATCH_DATE_PAST]);
    expect(dateErrors("2026-02-30")).toEqual(["Despatch date must be a date"]);
  });
});
