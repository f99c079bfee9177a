import { describe, expect, it } from "vitest";
import { clockSettingSchema } from "./clock-setting";

describe("a user's own time zone and date format", () => {
  it("blank means Default (inherit); a known zone and format are kept; others are refused", () => {
    expect(clockSettingSchema.parse({ timezone: "", date_format: "" })).toEqual({ timezone: null, date_format: null });
    expect(clockSettingSchema.parse({ timezone: "Australia/Melbourne", date_format: "MM/DD/YYYY" })).toEqual({ timezone: "Australia/Melbourne", date_format: "MM/DD/YYYY" });
    expect(clockSettingSchema.safeParse({ timezone: "Mars/Olympus", date_format: "" }).success).toBe(false);
    expect(clockSettingSchema.safeParse({ timezone: "", date_format: "YYYY-MM-DD" }).success).toBe(false);
  });
});
