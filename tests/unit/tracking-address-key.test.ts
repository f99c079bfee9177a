import { ipKeyGenerator } from "express-rate-limit";
import { describe, expect, it } from "vitest";
import { addressKey } from "../../server/tracking-limits";

/** server/tracking-limits.ts: the tracking limiter's key per address, kept, is express-rate-limit's key for it. */
describe("the tracking limiter's address key", () => {
  it("is the rate limiter's key for every kind of address, asked once or many times", () => {
    const addresses = ["203.0.113.7", "::ffff:127.0.0.1", "::1", "2001:db8:abcd:12ff::1", "2001:db8:abcd:1200::9", "2001:db8:abcd:1300::1", ""];
    for (let round = 0; round < 2; round++) for (const ip of addresses) expect(addressKey(ip)).toBe(ipKeyGenerator(ip));
    // one /56 is one key (a host's many IPv6 addresses count together), another /56 another
    expect(addressKey("2001:db8:abcd:12ff::1")).toBe(addressKey("2001:db8:abcd:1200::9"));
    expect(addressKey("2001:db8:abcd:1300::1")).not.toBe(addressKey("2001:db8:abcd:1200::9"));
  });

  it("still answers each address's own key once more addresses were seen than it keeps", () => {
    for (let i = 0; i < 10_050; i++) expect(addressKey(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)).toBe(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
    expect(addressKey("::ffff:127.0.0.1")).toBe(ipKeyGenerator("::ffff:127.0.0.1"));
  });
});
