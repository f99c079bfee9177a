import { describe, expect, it } from "vitest";
import { localDate, localTime, todayIn, userToday } from "./site-time";

const at = (iso: string) => new Date(iso);

describe("site time", () => {
  it("today is the site's date, not UTC's", () => {
    expect(todayIn("Australia/Melbourne", at("2026-12-01T20:00:00Z"))).toBe("2026-12-02");
    expect(todayIn("America/Los_Angeles", at("2026-12-02T02:00:00Z"))).toBe("2026-12-01");
    expect(todayIn(null, at("2026-12-02T02:00:00Z"))).toBe("2026-12-02");
    expect(todayIn("Not/AZone", at("2026-12-02T02:00:00Z"))).toBe("2026-12-02");
  });

  it("today turns at the site's midnight even just after it was read (a kept today belongs to its second)", () => {
    // midnight in Melbourne (UTC+11 in December) is 13:00 UTC
    expect(todayIn("Australia/Melbourne", at("2026-12-01T12:59:59.900Z"))).toBe("2026-12-01");
    expect(todayIn("Australia/Melbourne", at("2026-12-01T13:00:00.000Z"))).toBe("2026-12-02");
    expect(todayIn("Australia/Melbourne", at("2026-12-01T12:59:59.999Z"))).toBe("2026-12-01");
  });

  it("a user's today: at the site asked for, else in the user's own zone (never the first site's)", () => {
    const sites = [
      { id: 1, timezone: "America/Los_Angeles" },
      { id: 2, timezone: "Australia/Melbourne" },
    ];
    const now = at("2026-12-01T20:00:00Z"); // 12:00 on 1 Dec in LA, 07:00 on 2 Dec in Melbourne
    const melbourne = { timeZone: "Australia/Melbourne" };
    expect(userToday({ sites, clock: { timeZone: "America/Los_Angeles" } }, 2, now)).toBe("2026-12-02");
    expect(userToday({ sites, clock: melbourne }, null, now)).toBe("2026-12-02");
    expect(userToday({ sites, clock: melbourne }, undefined, now)).toBe("2026-12-02");
    expect(userToday({ sites, clock: melbourne }, 1, now)).toBe("2026-12-01");
    expect(userToday({ sites, clock: { timeZone: "America/Los_Angeles" } }, 99, now)).toBe("2026-12-01");
    expect(userToday({ sites: [], clock: melbourne }, null, now)).toBe("2026-12-02");
  });

  it("times read as the site reads them, month first in the US", () => {
    expect(localTime(at("2026-11-24T06:30:00Z"), "Australia/Melbourne", "AUSTRALIA")).toBe("24/11/2026 17:30");
    expect(localTime(at("2026-11-24T06:30:00Z"), "America/Los_Angeles", "UNITED STATES OF AMERICA")).toBe("11/23/2026 22:30");
  });

  it("dates read in the site's zone whatever zone formats them (the server's and the browser's agree)", () => {
    expect(localDate(at("2026-11-23T20:00:00Z"), "Australia/Melbourne", "AUSTRALIA")).toBe("24/11/2026");
    expect(localDate(at("2026-11-24T02:00:00Z"), "America/Los_Angeles", "UNITED STATES OF AMERICA")).toBe("11/23/2026");
    expect(localDate(at("2026-11-23T20:00:00Z"), null, "AUSTRALIA")).toBe("23/11/2026");
  });
});
