import { randomFillSync } from "node:crypto";
import path from "node:path";
import { createRequestHandler, type AppLoadContext, type ServerBuild } from "@remix-run/node";
import compression from "compression";
import express, { type NextFunction, type Request, type Response } from "express";
import { signInRateLimiter } from "./sign-in-limits";
import helmet from "helmet";
import type { AppServices, ReadinessCheck } from "../app/services.server";
import type { AppEntry } from "./build";
import { bodyLimit } from "./body-limit";
import { PageMemo } from "./page-memo";
import { sendResponse, toFetchRequest } from "./remix-bridge";
import { apiLane } from "./api-lane";
import { answerHealth } from "./health";
import { REFUSED } from "./refuse";
import { jsonBodiesOnly, sameOriginOnly } from "./same-origin";
import { trackingLimiter } from "./tracking-limits";

// the sign-in limits live in sign-in-limits.ts (their tests import them from here too)
export { SIGN_IN_PATHS } from "./sign-in-limits";
export { signInRateLimiter };

/**
 * Google's hosts for the journey map (issue 14 item 4), allowed only with GOOGLE_MAPS_API_KEY:
 * the Maps JavaScript API's scripts and data, its tiles and icons (maps.googleapis.com and
 * maps.gstatic.com; satellite tiles from other googleapis hosts), and the font its controls use.
 */
const GOOGLE_MAPS_SOURCES = {
  script: ["https://maps.googleapis.com", "https://maps.gstatic.com"],
  connect: ["https://maps.googleapis.com", "https://maps.gstatic.com"],
  img: ["https://*.googleapis.com", "https://*.gstatic.com"],
  style: ["https://fonts.googleapis.com"],
  font: ["https://fonts.gstatic.com"],
};
const NO_SOURCES = { script: [], connect: [], img: [], style: [], font: [] };

/** The Content-Security-Policy; `googleMaps` (a Google Maps key is configured) adds Google's map hosts. */
export function contentSecurityPolicy(options: { googleMaps?: boolean } = {}) {
  const extra = options.googleMaps ? GOOGLE_MAPS_SOURCES : NO_SOURCES;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // scripts only from this origin or carrying this response's nonce (Remix's inline scripts)
        scriptSrc: ["'self'", (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`, ...extra.script],
        styleSrc: ["'self'", "'unsafe-inline'", ...extra.style],
        imgSrc: ["'self'", "data:", "blob:", ...extra.img],
        fontSrc: ["'self'", "data:", ...extra.font],
        connectSrc: ["'self'", ...extra.connect],
        frameSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // not helmet's "no-referrer": with it Chromium sends `Origin: null` on form posts, which
    // Remix's CSRF check (rightly) refuses; "same-origin" still tells other sites nothing
    referrerPolicy: { policy: "same-origin" },
  });
}

// a response's CSP nonce: 16 bytes from the system's CSPRNG, drawn 4 KB at a time (a call to it
// for each response was 4% of an API call's CPU on this VM); no byte is handed out twice
const NONCE_BYTES = 16;
const pool = Buffer.alloc(4096);
let taken = pool.length;
export function cspNonce(): string {
  if (taken + NONCE_BYTES > pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const nonce = pool.toString("base64", taken, taken + NONCE_BYTES);
  taken += NONCE_BYTES;
  return nonce;
}

export interface AppOptions {
  build: ServerBuild;
  services: Omit<AppServices, "cspNonce">;
  rateLimit: { limit: number; windowMs: number };
  production: boolean;
  root: string;
  /** APP_URL: when set, the only origin state-changing requests may come from */
  appUrl?: string;
  /** TRUST_PROXY, as Express's "trust proxy" takes it; unset trusts no proxy */
  trustProxy?: string;
  /** GOOGLE_MAPS_API_KEY: when set, the CSP lets the browser load Google's map */
  googleMapsApiKey?: string;
  /** when given, GET /healthz and /readyz are answered (server/health.ts) */
  readiness?: ReadinessCheck;
  /** false: every call goes through Remix, the lane's calls too (the test comparing the two doors) */
  lane?: boolean;
  /** pages kept by URL, status and data (PageMemo, decision 048): true (the default) with the default limits; false: every view rendered */
  pageMemo?: boolean | PageMemo;
}

/** TRUST_PROXY's text as Express's "trust proxy" value: unset or "false" none, "true" all, digits a hop count, else addresses. */
export function trustProxySetting(raw: string | undefined): boolean | number | string {
  const value = raw?.trim() ?? "";
  if (value === "" || value === "false") return false;
  if (value === "true") return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

export function createApp(options: AppOptions) {
  const app = express();
  app.disable("x-powered-by");
  // first: a probe passes no limiter, session, compression or log
  const { readiness } = options;
  if (readiness) app.use((req, res, next) => void (answerHealth(readiness, req, res) || next()));
  try {
    app.set("trust proxy", trustProxySetting(options.trustProxy));
  } catch (e) {
    throw new Error(`Invalid configuration: TRUST_PROXY: ${(e as Error).message}`);
  }
  app.use((_req, res, next) => {
    res.locals.cspNonce = cspNonce();
    next();
  });
  // the app's modules come from the build, never imported here: each exists once in the process
  const entry = options.build.entry.module as unknown as AppEntry;
  // before anything can answer or read: every body is counted from its first byte
  app.use(
    bodyLimit(
      { maxBytes: entry.MAX_UPLOAD_BYTES, tooLarge: entry.FILE_TOO_LARGE },
      { maxBytes: entry.MAX_IMAGE_BYTES, tooLarge: entry.IMAGE_TOO_LARGE },
      { maxBytes: entry.MAX_DECLARATION_BYTES, tooLarge: entry.DECLARATION_MESSAGES.tooLarge },
    ),
  );
  app.use(contentSecurityPolicy({ googleMaps: Boolean(options.googleMapsApiKey) }));
  // images in notification e-mails: webmail pages on other sites show them (helmet says same-origin)
  app.use((req, res, next) => {
    if (/^\/api\/notifications_media\//i.test(req.path)) res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
    next();
  });
  app.use(compression());
  // The client address, as the app sees it (sign-in audit); a client's own header is overwritten.
  app.use((req, _res, next) => {
    req.headers["x-client-ip"] = req.ip ?? "";
    next();
  });
  // before the sign-in limiter: a forged cross-site sign-in is refused, never counted against the
  // victim's address
  app.use(sameOriginOnly({ appUrl: options.appUrl, sessionCookie: entry.SESSION_COOKIE }));
  app.use(jsonBodiesOnly());
  app.use(signInRateLimiter({ ...options.rateLimit, parts: entry, db: options.services.db }));
  app.use(trackingLimiter({ db: options.services.db, Store: entry.TrackingGuessStore }));
  app.use("/build", express.static(path.join(options.root, "public/build"), { immutable: true, maxAge: "1y" }));
  // public/ holds only the favicon besides build/: serving it by name spares every other request a
  // file-system stat (measured at 8% of the server's time under load)
  app.get("/favicon.svg", (_req, res) => res.sendFile(path.join(options.root, "public/favicon.svg"), { maxAge: "1h" }));
  // one per web process (decision 048)
  const pageMemo = options.pageMemo === false ? undefined : options.pageMemo instanceof PageMemo ? options.pageMemo : new PageMemo();
  // writesWholePages: the bridge writes a page rendered whole from its marked string (sendResponse)
  const loadContext = (res: Response): AppLoadContext => ({ ...options.services, cspNonce: res.locals.cspNonce as string, writesWholePages: true, pageMemo });
  // the hot calls, answered by the same functions without Remix's conversions (decision 046)
  if (options.lane !== false) app.use(apiLane(options.build, loadContext));
  // Remix's Express adapter (server/remix-bridge.ts), opened up so that every /api POST passes the idempotency keys
  // (docs/decisions/038): a retry with the same Idempotency-Key gets the first answer again
  const handleRequest = createRequestHandler(options.build, options.production ? "production" : "development");
  app.all("*", async (req, res, next) => {
    try {
      const request = toFetchRequest(req, res);
      // the adapter leaves out empty headers: an empty key is a key refused (400), not no key
      if (req.headers["idempotency-key"] === "") request.headers.set("Idempotency-Key", "");
      const context = loadContext(res);
      const response = await entry.withIdempotency(context, request, (r) => handleRequest(r, context));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  });
  // the app's answer to a body cut off at the limit fails (the 413 went first): nothing to report
  app.use((error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (res.locals[REFUSED]) return;
    next(error);
  });
  return app;
}
