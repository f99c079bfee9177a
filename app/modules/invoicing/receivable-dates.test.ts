import { describe, expect, it } from "vitest";
import { todayIn } from "../calendar/site-time";
import { addDays, dateRange } from "../invoices/schemas";
import { withLatestToday } from "./receivable.server";

describe("withLatestToday", () => {
  const latest = todayIn("Pacific/Kiritimati");
  const behind = addDays(latest, -1);

  it("ends a range that ends on a viewer's today a day behind on the latest today anywhere", () => {
    // a viewer in Los Angeles while Australia is already on the next day
    expect(withLatestToday("fortnight", dateRange("fortnight", behind))).toEqual({ from: addDays(behind, -13), to: latest });
  });

  it("leaves a range that already reaches the latest today, a past range and a custom one as they are", () => {
    expect(withLatestToday("fortnight", dateRange("fortnight", latest))).toEqual({ from: addDays(latest, -13), to: latest });
    const past = { from: addDays(latest, -30), to: addDays(latest, -2) };
    expect(withLatestToday("last_month", past)).toEqual(past);
    expect(withLatestToday("custom", { from: behind, to: behind })).toEqual({ from: behind, to: behind });
  });
});
