import { describe, expect, it } from "vitest";
import { bookingSchema, bookingsFromForm, checkAdditionalItems, defaultWindow, FILL_ADDITIONAL_ITEMS, FILL_DG_FIELDS, pastClosing, stateLabel } from "./rules";

describe("booking rules", () => {
  it("reads failed_permanently as Failed and capitalises the other states", () => {
    expect(["pending", "booked", "failed", "failed_permanently"].map((s) => stateLabel(s as never))).toEqual(["Pending", "Booked", "Failed", "Failed"]);
  });

  it("defaults the window to the next quarter hour and the site's closing time (two hours on without one, or when it has passed)", () => {
    expect(defaultWindow("09:07", "17:00")).toEqual({ ready_at: "09:15", closing_at: "17:00" });
    expect(defaultWindow("09:00", null)).toEqual({ ready_at: "09:00", closing_at: "11:00" });
    expect(defaultWindow("18:01", "17:00")).toEqual({ ready_at: "18:15", closing_at: "20:15" });
    expect(defaultWindow("22:50", null)).toEqual({ ready_at: "23:00", closing_at: "23:45" });
  });

  it("is past closing at and after the closing minute", () => {
    expect(pastClosing("16:59", "17:00")).toBe(false);
    expect(pastClosing("17:00", "17:00")).toBe(true);
    expect(pastClosing("23:10", "17:00")).toBe(true);
  });

  it("takes an additional item only whole, and its DG fields together; blank rows are dropped", () => {
    const whole = { quantity: "2", type: "Pallet", length: "120", width: "120", height: "100", weight_in_uom: "250" };
    expect(checkAdditionalItems([{}, { quantity: "" }, whole]).items).toHaveLength(1);
    expect(checkAdditionalItems([whole]).errors).toEqual({});
    const partial = checkAdditionalItems([{ type: "Pallet" }]).errors;
    expect(Object.keys(partial).sort()).toEqual(["height", "length", "quantity", "weight_in_uom", "width"].map((f) => `additional_items_attributes.0.${f}`));
    expect(Object.values(partial).flat()).toEqual(Array(5).fill(FILL_ADDITIONAL_ITEMS));
    expect(checkAdditionalItems([{ ...whole, quantity: "0" }]).errors).toEqual({ "additional_items_attributes.0.quantity": [FILL_ADDITIONAL_ITEMS] });
    const dg = checkAdditionalItems([{ ...whole, hazard_class: "3" }]).errors;
    expect(dg).toEqual({ "additional_items_attributes.0.proper_shipping_name": [FILL_DG_FIELDS], "additional_items_attributes.0.un_number": [FILL_DG_FIELDS] });
    // a DG field alone makes the row given: the item fields are asked for too
    expect(Object.keys(checkAdditionalItems([{ un_number: "1203" }]).errors)).toContain("additional_items_attributes.0.weight_in_uom");
  });

  it("wants quarter-hour times, closing after ready, and at most 200 characters of special requirements", () => {
    const base = { site_id: 1, service_code: "GEN", ready_at: "09:00", closing_at: "17:00" };
    expect(bookingSchema.safeParse(base).success).toBe(true);
    expect(bookingSchema.safeParse({ ...base, ready_at: "09:05" }).success).toBe(false);
    expect(bookingSchema.safeParse({ ...base, closing_at: "09:00" }).error?.issues[0]?.path).toEqual(["closing_at"]);
    expect(bookingSchema.safeParse({ ...base, special_requirements: "x".repeat(200) }).success).toBe(true);
    expect(bookingSchema.safeParse({ ...base, special_requirements: "x".repeat(201) }).success).toBe(false);
  });

  it("reads the screen's form as one booking a service group", () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({ site_id: "3", booking_date: "2030-01-07", groups: "2", ready_at: "09:00", closing_at: "17:00", special_requirements: "Dock 2", "g0.service_code": "GEN", "g0.carrier_code": "NORTHLINE", "g0.rows": "1", "g1.service_code": "ONT", "g1.rows": "1", "g1.items.0.quantity": "4" })) form.append(k, v);
    form.append("g0.c", "11");
    form.append("g0.c", "12");
    const { bookings } = bookingsFromForm(form);
    expect(bookings).toHaveLength(2);
    expect(bookings[0]).toMatchObject({ site_id: 3, service_code: "GEN", carrier_code: "NORTHLINE", consignment_ids: [11, 12], booking_date: "2030-01-07", special_requirements: "Dock 2" });
    expect(bookings[1]).toMatchObject({ service_code: "ONT", consignment_ids: [], additional_items_attributes: [expect.objectContaining({ quantity: "4", type: "" })] });
  });
});
