import type { Request, RequestHandler } from "express";
import { DECLARATION_UPLOAD_PATHS, IMAGE_UPLOAD_PATHS, UPLOAD_PATHS, hasBody } from "./body-limit";
import { refuse } from "./refuse";
import { routePath } from "./route-path";

export const CROSS_SITE_REFUSED = "This request came from another site and has been refused.";
export const JSON_ONLY = "Send the request body as JSON (Content-Type: application/json).";

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** The origin the app is served at: APP_URL's (`appOrigin`) when set, else the request's host (X-Forwarded-* only from a trusted proxy). */
export function ownOrigin(req: Request, appOrigin?: string): string | null {
  if (appOrigin) return appOrigin;
  const trusted = (req.app.get("trust proxy fn") as (addr: string | undefined, i: number) => boolean)(req.socket.remoteAddress, 0);
  const host = (trusted && req.get("x-forwarded-host")?.split(",")[0]?.trim()) || req.get("host");
  return host ? originOf(`${req.protocol}://${host}`) : null;
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === "null" ? null : origin;
  } catch {
    return null;
  }
}

/** APP_URL's origin; one that is no URL stops the start, as TRUST_PROXY's does. */
function appOriginOf(appUrl: string): string {
  try {
    return new URL(appUrl).origin;
  } catch {
    throw new Error(`Invalid configuration: APP_URL: ${JSON.stringify(appUrl)} is not a URL`);
  }
}

function hasSessionCookie(req: Request, sessionCookie: string): boolean {
  return (req.get("cookie") ?? "").split(";").some((pair) => pair.trim().startsWith(`${sessionCookie}=`));
}

/**
 * Cross-site request forgery: a state-changing request whose Origin (or, without one, Referer) is
 * another site's, or `null`, is refused with 403, signed in or not (a forged sign-in is refused
 * too). Browsers send Origin with every POST, PUT, PATCH and DELETE, so a request with neither
 * header is not a browser's and carries no ambient credentials a page could borrow: it passes
 * (scripts and API clients). Bearer-token callers without the session cookie pass: a page on
 * another site cannot add an Authorization header without a CORS preflight, which this app never
 * grants.
 */
export function sameOriginOnly(options: { appUrl?: string; sessionCookie: string }): RequestHandler {
  const { appUrl, sessionCookie } = options;
  // once, at start: a request's own origin is the only part that depends on the request
  const appOrigin = appUrl ? appOriginOf(appUrl) : undefined;
  return (req, res, next) => {
    if (!MUTATING.has(req.method)) return next();
    if (/^Bearer\s/i.test(req.get("authorization") ?? "") && !hasSessionCookie(req, sessionCookie)) return next();
    const claimed = req.get("origin") ?? req.get("referer");
    if (claimed === undefined) return next();
    const own = ownOrigin(req, appOrigin);
    if (own && originOf(claimed) === own) return next();
    refuse(req, res, 403, CROSS_SITE_REFUSED);
  };
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/**
 * The /api calls take JSON bodies only (a page on another site can send text/plain or a form
 * without a preflight, never JSON). An empty body passes (ids in the query string); the CSV
 * import calls keep their multipart and text/csv bodies, the template image and declaration uploads their multipart.
 */
export function jsonBodiesOnly(): RequestHandler {
  return (req, res, next) => {
    if (!MUTATING.has(req.method) || !hasBody(req)) return next();
    const path = routePath(req);
    if (!/^\/api\//i.test(path) || UPLOAD_PATHS.test(path) || IMAGE_UPLOAD_PATHS.test(path) || DECLARATION_UPLOAD_PATHS.test(path)) return next();
    if (JSON_TYPE.test(req.get("content-type") ?? "")) return next();
    refuse(req, res, 415, JSON_ONLY);
  };
}
