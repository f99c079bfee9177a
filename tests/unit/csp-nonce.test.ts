import { describe, expect, it } from "vitest";
import { cspNonce } from "../../server/app";

describe("cspNonce", () => {
  it("gives 16 random bytes, never the same twice, across the refills of its pool", () => {
    const seen = new Set<string>();
    // 4 KB a pool: 256 nonces each, so this crosses several refills
    for (let i = 0; i < 2_000; i++) {
      const nonce = cspNonce();
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
      seen.add(nonce);
    }
    expect(seen.size).toBe(2_000);
  });
});
