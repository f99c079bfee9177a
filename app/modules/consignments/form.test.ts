import { describe, expect, it } from "vitest";
import { consignmentFromForm } from "./form";

const AU = "AUSTRALIA";
const US = "UNITED STATES OF AMERICA";
const form = (fields: Record<string, string>) => Object.entries(fields);

describe("the consignment form read with the sending site's date format", () => {
  it("the despatch date: DD/MM/YYYY, MM/DD/YYYY at a US site, to YYYY-MM-DD", () => {
    expect(consignmentFromForm(form({ despatch_date: "24/11/2026" }), AU).despatch_date).toBe("2026-11-24");
    expect(consignmentFromForm(form({ despatch_date: "11/24/2026" }), US).despatch_date).toBe("2026-11-24");
    // read with the wrong country it is no date, and the server says so
    expect(consignmentFromForm(form({ despatch_date: "24/11/2026" }), US).despatch_date).toBe("2026-24-11");
  });

  it("a time slot typed as a date and a time is the API's YYYY-MM-DD HH:mm", () => {
    const us = consignmentFromForm(form({ despatch_date: "11/24/2026", pickup_at_date: "11/25/2026", pickup_at_time: "10:15", deliver_by_date: "", deliver_by_time: "" }), US);
    expect(us.pickup_at).toBe("2026-11-25 10:15");
    expect(us).not.toHaveProperty("pickup_at_date");
    expect(us).not.toHaveProperty("pickup_at_time");
    // both blank: no time
    expect(us.deliver_by).toBeUndefined();
    expect(consignmentFromForm(form({ deliver_at_date: "25/11/2026", deliver_at_time: "16:45" }), AU).deliver_at).toBe("2026-11-25 16:45");
  });

  it("the return's pickup window likewise", () => {
    const r = consignmentFromForm(form({ "return_info.ready_date": "11/25/2026", "return_info.ready_time": "09:00", "return_info.closing_date": "11/25/2026", "return_info.closing_time": "17:00" }), US);
    expect(r.return_info).toEqual({ ready_at: "2026-11-25 09:00", closing_at: "2026-11-25 17:00" });
  });
});
