import { describe, expect, it } from "vitest";
import { addBusinessDays, isBusinessDay, nextBusinessDay } from "./business-days";

describe("business days (public holidays by state and country)", () => {
  it("skips weekends", () => {
    expect(isBusinessDay("2026-11-21", "AUSTRALIA", "VIC")).toBe(false); // Saturday
    expect(isBusinessDay("2026-11-22", "AUSTRALIA", "VIC")).toBe(false); // Sunday
    expect(nextBusinessDay("2026-11-20", "AUSTRALIA", "VIC")).toBe("2026-11-23"); // Friday -> Monday
  });

  it("skips Christmas, Boxing Day and its substitute Monday: after 24 Dec 2026 in VIC comes 29 Dec", () => {
    expect(isBusinessDay("2026-12-25", "AUSTRALIA", "VIC")).toBe(false);
    expect(isBusinessDay("2026-12-28", "AUSTRALIA", "VIC")).toBe(false); // Boxing Day (Saturday) substitute
    expect(nextBusinessDay("2026-12-24", "AUSTRALIA", "VIC")).toBe("2026-12-29");
  });

  it("knows state holidays: Melbourne Cup Day is a holiday in VIC, not in NSW", () => {
    expect(isBusinessDay("2026-11-03", "AUSTRALIA", "VIC")).toBe(false);
    expect(isBusinessDay("2026-11-03", "AUSTRALIA", "NSW")).toBe(true);
    expect(nextBusinessDay("2026-11-02", "AUSTRALIA", "VIC")).toBe("2026-11-04");
    expect(nextBusinessDay("2026-11-02", "AUSTRALIA", "NSW")).toBe("2026-11-03");
  });

  it("knows national holidays of each country, on their own calendar date", () => {
    expect(isBusinessDay("2027-01-26", "AUSTRALIA", "QLD")).toBe(false); // Australia Day
    expect(isBusinessDay("2027-02-08", "NEW ZEALAND")).toBe(false); // Waitangi Day (Sat 6 Feb) observed Monday
    expect(isBusinessDay("2026-02-06", "NEW ZEALAND")).toBe(false); // Waitangi Day on a Friday
    expect(isBusinessDay("2026-11-26", "UNITED STATES OF AMERICA", "CA")).toBe(false); // Thanksgiving
    expect(isBusinessDay("2026-11-26", "AUSTRALIA", "VIC")).toBe(true);
  });

  it("counts transit days as business days after the despatch date, across a holiday", () => {
    // Mon 2 Nov + 2 in VIC: Tue 3 is Melbourne Cup, so Wed 4 and Thu 5
    expect(addBusinessDays("2026-11-02", 2, "AUSTRALIA", "VIC")).toBe("2026-11-05");
    expect(addBusinessDays("2026-11-02", 2, "AUSTRALIA", "NSW")).toBe("2026-11-04");
    // 0 days: today if it is a business day, else the next one
    expect(addBusinessDays("2026-11-23", 0, "AUSTRALIA", "VIC")).toBe("2026-11-23");
    expect(addBusinessDays("2026-11-21", 0, "AUSTRALIA", "VIC")).toBe("2026-11-23");
    // from a Saturday, counting starts on Monday
    expect(addBusinessDays("2026-11-21", 1, "AUSTRALIA", "VIC")).toBe("2026-11-24");
    // across the year end
    expect(addBusinessDays("2026-12-31", 1, "AUSTRALIA", "NSW")).toBe("2027-01-04");
  });

  it("treats an unknown country as weekends only", () => {
    expect(nextBusinessDay("2026-12-24", "ATLANTIS")).toBe("2026-12-25");
  });
});
