/**
 * Where a webhook may go (docs/decisions/039): https only, and never to this machine, a private
 * network, link-local addresses (the cloud metadata service at 169.254.169.254) or unspecified
 * addresses. A URL is judged when it is saved (the host as written: `localhost` or a literal
 * address), and every address a name resolves to is judged again at each delivery (DNS rebinding).
 * `allowLocal` (WEBHOOKS_ALLOW_LOCAL=1) lifts both rules for development and tests.
 */
import { BlockList, isIP } from "node:net";

const inside = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], // unspecified, "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, incl. the metadata service 169.254.169.254
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
] as const) inside.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 128], // unspecified
  ["::1", 128], // loopback
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
] as const) inside.addSubnet(net, bits, "ipv6");

/** An IPv4 address written inside IPv6 (::ffff:10.0.0.1, or its hex form ::ffff:a00:1). */
function mappedV4(address: string): string | null {
  const m = /^(?:0*:)*:?ffff:(.+)$/i.exec(address.replace(/^\[|\]$/g, ""));
  if (!m) return null;
  if (isIP(m[1]!) === 4) return m[1]!;
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(m[1]!);
  if (!hex) return null;
  const [a, b] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [a >> 8, a & 255, b >> 8, b & 255].join(".");
}

/** Why an address may not be a receiver, or null when it may. */
export function refusedAddress(address: string): string | null {
  const bare = address.replace(/^\[|\]$/g, "");
  const v4 = isIP(bare) === 6 ? mappedV4(bare) : null;
  if (v4) return refusedAddress(v4);
  const family = isIP(bare);
  if (!family) return null;
  if (inside.check(bare, family === 4 ? "ipv4" : "ipv6")) return `${bare} is a loopback, private, link-local or unspecified address`;
  return null;
}

export const URL_MESSAGES = {
  invalid: "URL must be a full address, such as https://example.com/webhooks",
  https: "URL must start with https://",
  credentials: "URL must not carry a user name or password",
  localhost: "URL must not point at localhost",
  inside: (why: string) => `URL must not point inside the network: ${why}`,
};

/**
 * The save-time check of a URL, without a name lookup: its scheme, and a host that is `localhost`
 * or a literal inside address. Answers the message for the url field, or null.
 */
export function urlProblem(raw: string, allowLocal: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return URL_MESSAGES.invalid;
  }
  if (url.protocol !== "https:" && !(allowLocal && url.protocol === "http:")) return URL_MESSAGES.https;
  if (url.username || url.password) return URL_MESSAGES.credentials;
  if (allowLocal) return null;
  const host = url.hostname.replace(/\.$/, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost")) return URL_MESSAGES.localhost;
  // WHATWG URL parsing already turns 0x7f.1, 2130706433 and the like into 127.0.0.1
  const why = refusedAddress(host);
  return why ? URL_MESSAGES.inside(why) : null;
}
