/**
 * One HTTP attempt of one delivery (docs/decisions/039). The host's name is resolved here and
 * every address it gives is checked (a name that resolves inside is refused: DNS rebinding); the
 * connection then goes to the address checked, never to a second lookup. Redirects are not
 * followed; the whole answer must come within the timeout; the first KB of it is kept.
 */
import http from "node:http";
import https from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { refusedAddress, URL_MESSAGES } from "./address";
import { webhookSeams, type ResolvedAddress } from "./seams.server";

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  durationMs: number;
  error: string | null;
  /** the first KB of the answer */
  response: string | null;
}

export const RESPONSE_KEPT_BYTES = 1024;

const USER_AGENT = "FreightDesk-Webhooks/1";

// connections kept for the next delivery to the same receiver; a socket is only ever to an address checked when it opened
const agents = { "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }), "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }) };

/** The addresses to connect to, or why not. */
async function addressesOf(url: URL, allowLocal: boolean): Promise<{ addresses: ResolvedAddress[] } | { refused: string }> {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: ResolvedAddress[];
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await webhookSeams.resolve(host);
    } catch (e) {
      return { refused: `Could not resolve ${host}: ${(e as Error).message}` };
    }
    if (!addresses.length) return { refused: `Could not resolve ${host}: no addresses` };
  }
  if (!allowLocal) {
    for (const a of addresses) {
      const why = refusedAddress(a.address);
      if (why) return { refused: `Refused: ${host} resolves to ${why} (checked at delivery: DNS rebinding)` };
    }
  }
  return { addresses };
}

/** Sends `body` to `rawUrl` with `headers`; never throws. */
export async function attempt(rawUrl: string, headers: Record<string, string>, body: string, options: { allowLocal: boolean }): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, "durationMs">): AttemptResult => ({ ...r, durationMs: Math.round(performance.now() - started) });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return done({ ok: false, status: null, error: URL_MESSAGES.invalid, response: null });
  }
  if (url.protocol !== "https:" && !(options.allowLocal && url.protocol === "http:")) return done({ ok: false, status: null, error: URL_MESSAGES.https, response: null });
  const resolved = await addressesOf(url, options.allowLocal);
  if ("refused" in resolved) return done({ ok: false, status: null, error: resolved.refused, response: null });
  const [chosen] = resolved.addresses as [ResolvedAddress];
  // the connection's own lookup answers the address checked above
  const pinned: LookupFunction = (_host, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [chosen]);
    else callback(null, chosen.address, chosen.family);
  };
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (r: Omit<AttemptResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve(done(r));
    };
    const req = transport.request(
      url,
      {
        method: "POST",
        lookup: pinned,
        agent: agents[url.protocol as "http:" | "https:"],
        headers: { ...headers, "content-type": "application/json", "user-agent": USER_AGENT, "content-length": String(Buffer.byteLength(body)) },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let kept = 0;
        res.on("data", (chunk: Buffer) => {
          if (kept < RESPONSE_KEPT_BYTES) chunks.push(chunk.subarray(0, RESPONSE_KEPT_BYTES - kept));
          kept += chunk.length;
          // more than we keep is not read: the receiver's answer is not ours to download
          if (kept >= RESPONSE_KEPT_BYTES * 64) end();
        });
        const end = () => {
          const response = Buffer.concat(chunks).toString("utf8");
          if (status >= 300 && status < 400) {
            finish({ ok: false, status, error: `Redirect to ${res.headers.location ?? "(no location)"} not followed: the URL must answer itself`, response });
          } else {
            finish({ ok: status >= 200 && status < 300, status, error: status >= 200 && status < 300 ? null : `Answered ${status}`, response });
          }
        };
        res.on("end", end);
        res.on("error", (e) => finish({ ok: false, status, error: e.message, response: null }));
      },
    );
    const timer = setTimeout(() => finish({ ok: false, status: null, error: `No answer within ${webhookSeams.timeoutMs / 1000} s`, response: null }), webhookSeams.timeoutMs);
    req.on("error", (e) => finish({ ok: false, status: null, error: e.message, response: null }));
    req.end(body);
  });
}
