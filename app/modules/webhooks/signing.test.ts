import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { newSecret, sign, signedHeaders, verify } from "./signing";

describe("Standard Webhooks signatures", () => {
  // the example of the Standard Webhooks specification's reference libraries
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  const id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
  const timestamp = 1614265330;
  const body = '{"test": 2432232314}';

  it("signs id.timestamp.body with the base64-decoded key, as the specification's example", () => {
    expect(sign(secret, id, timestamp, body)).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("is HMAC-SHA256 keyed with the decoded secret (not the text), so a wrong key or body fails", () => {
    const key = Buffer.from(secret.slice("whsec_".length), "base64");
    const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
    expect(sign(secret, id, timestamp, body)).toBe(`v1,${mac}`);
    expect(sign(newSecret(), id, timestamp, body)).not.toBe(`v1,${mac}`);
    expect(sign(secret, id, timestamp, body + " ")).not.toBe(`v1,${mac}`);
  });

  it("verifies its own headers within the tolerance and refuses an old timestamp or a changed body", () => {
    const s = newSecret();
    expect(s).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const now = new Date(timestamp * 1000);
    const h = signedHeaders(s, id, timestamp, body);
    const given = { id: h["webhook-id"]!, timestamp: h["webhook-timestamp"]!, signature: `v1,bogus ${h["webhook-signature"]}` };
    expect(verify(s, given, body, { now })).toBe(true);
    expect(verify(s, given, body + "x", { now })).toBe(false);
    expect(verify(s, given, body, { now: new Date((timestamp + 301) * 1000) })).toBe(false);
  });
});
