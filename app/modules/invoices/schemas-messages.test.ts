import { describe, expect, it } from "vitest";
import { fieldErrorsFrom } from "../../utils/validation";
import { invoiceUpdateSchema, lineUpdateSchema, MONEY_RANGE } from "./schemas";
import { FILTER_RANGE, listQuerySchema } from "../reconciliation/list-schemas";

/** Issue 31 item 8: an amount out of range is told its range, not that it is no number. */
const errorsOf = (schema: typeof lineUpdateSchema | typeof invoiceUpdateSchema | typeof listQuerySchema, raw: unknown) => {
  const r = schema.safeParse(raw);
  return r.success ? {} : fieldErrorsFrom(r.error);
};

describe("amounts out of range", () => {
  it("says the range of a line's total cost and an invoice's total, and still 'Must be a number' for text", () => {
    expect(errorsOf(lineUpdateSchema, { total_cost: "-99999999999" })).toEqual({ total_cost: [MONEY_RANGE] });
    expect(errorsOf(invoiceUpdateSchema, { total: "99999999999" })).toEqual({ total: [MONEY_RANGE] });
    expect(errorsOf(lineUpdateSchema, { total_cost: "abc" })).toEqual({ total_cost: ["Must be a number"] });
    expect(errorsOf(lineUpdateSchema, { total_cost: "-9999999.99" })).toEqual({});
  });
  it("says the limit of a weight and a quantity", () => {
    expect(errorsOf(lineUpdateSchema, { total_charge_weight: "1000001" })).toEqual({ total_charge_weight: ["Charge weight must be at most 1,000,000"] });
    expect(errorsOf(lineUpdateSchema, { total_quantity: "-1" })).toEqual({ total_quantity: ["Quantity cannot be negative"] });
    expect(errorsOf(lineUpdateSchema, { total_quantity: "100001" })).toEqual({ total_quantity: ["Quantity must be at most 100,000"] });
  });
  it("says the range of the reconciliations list's figure filters", () => {
    expect(errorsOf(listQuerySchema, { discrepancy: "-99999999999" })).toEqual({ discrepancy: [FILTER_RANGE] });
    expect(errorsOf(listQuerySchema, { weight: "abc" })).toEqual({ weight: ["Must be a number"] });
  });
});
