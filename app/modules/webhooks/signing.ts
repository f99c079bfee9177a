/**
 * Signatures in the Standard Webhooks scheme (https://www.standardwebhooks.com, docs/decisions/039):
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the secret's
 * base64 part decoded. Receivers verify with any Standard Webhooks library or a few lines (README).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const SECRET_PREFIX = "whsec_";

/** A new secret: 32 random bytes, base64, with the scheme's prefix. */
export const newSecret = () => SECRET_PREFIX + randomBytes(32).toString("base64");

const keyOf = (secret: string) => Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");

/** The signature of one message: "v1," and the base64 HMAC. */
export function sign(secret: string, id: string, timestamp: number, body: string): string {
  return "v1," + createHmac("sha256", keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest("base64");
}

/** The headers a delivery carries; `timestamp` in whole seconds since the epoch. */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string): Record<string, string> {
  return { "webhook-id": id, "webhook-timestamp": String(timestamp), "webhook-signature": sign(secret, id, timestamp, body) };
}

/**
 * What a receiver checks: one of the space-separated signatures matches, and the timestamp is
 * within `toleranceSeconds` of `now` (a replayed old message is refused).
 */
export function verify(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string, options: { now?: Date; toleranceSeconds?: number } = {}): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts)) return false;
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000);
  if (Math.abs(now - ts) > (options.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(sign(secret, headers.id, ts, body));
  return headers.signature.split(" ").some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
