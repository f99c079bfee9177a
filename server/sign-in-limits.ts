import type { NextFunction, Request, Response } from "express";
import { rateLimit } from "express-rate-limit";
import type { DbOrTx } from "../db/client.server";
import type { AppEntry } from "./build";
import { routePath } from "./route-path";

/** What the limiter takes from the build (app/modules/auth), so the server bundles none of the app's modules. */
export type SignInLimitParts = Pick<AppEntry, "SIGN_IN_LIMITED_HEADER" | "TOO_MANY_ATTEMPTS" | "SignInAttemptStore">;

/** Sign-in and password routes (and their single-fetch `.data` twins) share one rate limit per client. */
export const SIGN_IN_PATHS = /^\/(login|forgot_password|reset_password|users\/(sign_in|forgot_password|edit))(\.data)?\/?$/i;

/** The sign-in routes proper: an attempt there that succeeds (a status under 400) is not counted. */
const SIGN_IN_ATTEMPT = /^\/(login(\.data)?|users\/sign_in)\/?$/i;

/** Pages whose actions show the limit message in the page themselves (with and without JavaScript). */
const MESSAGE_PAGES = /^\/(login|forgot_password|reset_password)(\.data)?\/?$/i;

/** Whether a request is one the sign-in limit counts: a POST (or other write) to a sign-in or password route. */
const limited = (req: Request) => req.method !== "GET" && req.method !== "HEAD" && SIGN_IN_PATHS.test(routePath(req));

/**
 * The per-address limit: `limit` FAILED sign-ins (and password requests, which cannot be told apart
 * by outcome) per client address in `windowMs`. A successful sign-in never counts, so an office
 * behind one address can sign everyone in; a run of wrong passwords is stopped. The per-account
 * lock is the sign-in module's (app/modules/auth/limits.ts).
 *
 * Over the limit, the JSON routes (/users/*) answer 429 `{ errors: { base: [message] } }`; the
 * sign-in pages are let through marked (SIGN_IN_LIMITED_HEADER) and their actions refuse with the
 * message in the page (a plain 429 body there broke the page's single-fetch decoding).
 *
 * With `db` the counts are kept in the database, shared by every web process; without it (a unit
 * test's bare Express app) in this process's memory.
 */
export function signInRateLimiter(options: { limit: number; windowMs: number; parts: SignInLimitParts; db?: DbOrTx }) {
  const { SIGN_IN_LIMITED_HEADER, TOO_MANY_ATTEMPTS, SignInAttemptStore } = options.parts;
  const limiter = rateLimit({
    ...(options.db ? { store: new SignInAttemptStore(options.db) } : {}),
    windowMs: options.windowMs,
    limit: options.limit,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    skip: (req) => !limited(req),
    skipSuccessfulRequests: true,
    requestWasSuccessful: (req, res) => SIGN_IN_ATTEMPT.test(routePath(req)) && res.statusCode < 400,
    handler: (req: Request, res: Response, next: NextFunction) => {
      if (MESSAGE_PAGES.test(routePath(req))) {
        req.headers[SIGN_IN_LIMITED_HEADER] = "1";
        return next();
      }
      res.status(429);
      if (routePath(req).toLowerCase().startsWith("/users/") || req.get("accept")?.includes("application/json")) {
        res.json({ errors: { base: [TOO_MANY_ATTEMPTS] } });
      } else {
        res.type("html").send(`<!doctype html><title>Too many attempts</title><p>${TOO_MANY_ATTEMPTS}</p><p><a href="/login">Back to sign in</a></p>`);
      }
    },
  });
  return (req: Request, res: Response, next: NextFunction) => {
    // only this limiter may mark a request
    delete req.headers[SIGN_IN_LIMITED_HEADER];
    // every other request passes at once: the limiter's own skip runs in its async path, a cost
    // every page and call paid (issue 32 profile)
    if (!limited(req)) return next();
    return limiter(req, res, next);
  };
}
