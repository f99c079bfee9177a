import type { RequestHandler, Response } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import type { DbOrTx } from "../db/client.server";
import type { AppEntry } from "./build";
import { routePath } from "./route-path";

/** The public tracking pages (/track/{token} and its /pod), in any spelling the router takes. */
const TRACKING_PATHS = /^\/track\//i;

/** Tokens that open nothing, per client address and window, before the address must wait. */
export const TRACKING_GUESSES = 30;
export const TRACKING_TOO_MANY = "Too many tracking links that do not exist were opened from this address. Please wait a few minutes and try again.";
/** Set on a counted request for the app: whose count a link that opens nothing adds to. A client's own is dropped. */
export const GUESS_KEY_HEADER = "x-tracking-guess-key";

/**
 * Public tracking tokens are random UUIDs, but nothing stopped a client trying 3,000 of them
 * (issue 35 finding 10): a link that opens nothing (404) counts against the client's address, and
 * past TRACKING_GUESSES in the window the address is answered 429. A receiver opening their real
 * link again and again is never counted.
 *
 * This reads the address's count, and refuses at the limit. The count grows where the 404 is
 * decided: the tracking pages add to the key this passes in GUESS_KEY_HEADER, before they answer
 * (app/modules/tracking/guesses.server.ts). So a real link costs one read and no write. Counting
 * every page view first and taking it back on success cost two committed writes per view (issue 32
 * profile: the page's p95 was 214 ms with 20 callers). Guesses sent all at once may each read the
 * count before any adds to it, so one burst can pass the limit by as many as it sends at once. The
 * count is still exact afterwards, and a UUID is not found by a burst.
 *
 * The count is the database's (TrackingGuessStore, the sign-in limit's store over its own table, in
 * its 15-minute window), so every web process on every host counts toward one allowance; without
 * `db` nothing is counted or refused.
 */
export function trackingLimiter(options: { limit?: number; db?: DbOrTx; Store?: AppEntry["TrackingGuessStore"] } = {}): RequestHandler {
  const limit = options.limit ?? TRACKING_GUESSES;
  const counts = options.db && options.Store ? new options.Store(options.db) : undefined;
  return (req, res, next) => {
    delete req.headers[GUESS_KEY_HEADER];
    // every other request passes at once, not through the limiter's async path (issue 32 profile)
    if (!counts || !counted(req.method, routePath(req))) return next();
    const key = addressKey(req.ip ?? "");
    counts.get(key).then((count) => {
      if ((count?.totalHits ?? 0) >= limit) return refuse(res);
      req.headers[GUESS_KEY_HEADER] = key;
      next();
    }, next);
  };
}

/**
 * The limiter's key for an address (its /56 for IPv6), kept per address: a client on an IPv6
 * socket (an IPv4 one is written ::ffff:a.b.c.d) had its address parsed by ip-address on every view,
 * 4.5% of the tracking page's CPU. Bounded: cleared at 10,000 addresses.
 */
const addressKeys = new Map<string, string>();
export function addressKey(ip: string): string {
  let key = addressKeys.get(ip);
  if (key === undefined) {
    key = ipKeyGenerator(ip);
    if (addressKeys.size >= 10_000) addressKeys.clear();
    addressKeys.set(ip, key);
  }
  return key;
}

function refuse(res: Response) {
  res.status(429).set("Cache-Control", "no-store").type("html").send(`<!doctype html><meta charset="utf-8"><title>Too many attempts</title><p>${TRACKING_TOO_MANY}</p>`);
}

/** A tracking page opened: the only requests this limit counts. */
const counted = (method: string, path: string) => (method === "GET" || method === "HEAD") && TRACKING_PATHS.test(path);
