import type { Request, RequestHandler, Response } from "express";
import { rateLimit } from "express-rate-limit";
import type { DbOrTx } from "../db/client.server";
import type { AppEntry } from "./build";
import { routePath } from "./route-path";

/** The public tracking pages (/track/{token} and its /pod), in any spelling the router takes. */
const TRACKING_PATHS = /^\/track\//i;

/** Tokens that open nothing, per client address and window, before the address must wait. */
export const TRACKING_GUESSES = 30;
export const TRACKING_WINDOW_MS = 15 * 60 * 1000;
export const TRACKING_TOO_MANY = "Too many tracking links that do not exist were opened from this address. Please wait a few minutes and try again.";

/**
 * Public tracking tokens are random UUIDs, but nothing stopped a client trying 3,000 of them
 * (issue 35 finding 10): a link that opens nothing (404) counts against the client's address, and
 * past TRACKING_GUESSES in the window the address is answered 429. A receiver opening their real
 * link again and again is never counted.
 *
 * With `db` the count is kept in the database (TrackingGuessStore, the sign-in limit's store over
 * its own table), so every web process on every host counts toward one allowance; without it (a
 * bare Express app in a unit test) in this process's memory.
 */
export function trackingLimiter(options: { limit?: number; windowMs?: number; db?: DbOrTx; Store?: AppEntry["TrackingGuessStore"] } = {}): RequestHandler {
  const limiter = rateLimit({
    ...(options.db && options.Store ? { store: new options.Store(options.db) } : {}),
    windowMs: options.windowMs ?? TRACKING_WINDOW_MS,
    limit: options.limit ?? TRACKING_GUESSES,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    skip: (req) => !counted(req),
    skipSuccessfulRequests: true,
    requestWasSuccessful: (_req, res) => res.statusCode !== 404,
    handler: (_req: Request, res: Response) => {
      res.status(429).set("Cache-Control", "no-store").type("html").send(`<!doctype html><meta charset="utf-8"><title>Too many attempts</title><p>${TRACKING_TOO_MANY}</p>`);
    },
  });
  // every other request passes at once, not through the limiter's async path (issue 32 profile)
  return (req, res, next) => (counted(req) ? limiter(req, res, next) : next());
}

/** A tracking page opened: the only requests this limit counts. */
const counted = (req: Request) => (req.method === "GET" || req.method === "HEAD") && TRACKING_PATHS.test(routePath(req));
