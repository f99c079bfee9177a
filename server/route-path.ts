import type { Request } from "express";

const CACHE = Symbol("routePath");

/**
 * The path as the app's router matches it, for the guards in front of it (sign-in limits, body
 * limits, JSON-only, tracking limits). Express's `req.path` is the raw request target, while
 * Remix's adapter parses it as a URL (backslashes become slashes, `.` and `..` segments and their
 * `%2e` spellings are resolved) and the router then decodes each segment's percent-escapes and
 * ignores case and trailing slashes: `/users/%73ign_in`, `/USERS/x/../sign_in/` and `/users\sign_in`
 * all reach the sign-in action (issue 35 finding 5). So: the URL's path, each segment decoded
 * (an encoded slash stays one, as the router keeps it), runs of slashes made one and trailing ones
 * dropped. Folding more spellings together than the router does only limits a request that the
 * app would answer 404 or 405 anyway; the guards' patterns ignore case.
 */
export function routePath(req: Request): string {
  const cached = (req as unknown as Record<symbol, string | undefined>)[CACHE];
  if (cached !== undefined) return cached;
  let pathname: string;
  try {
    pathname = new URL(req.originalUrl || req.url, "http://localhost").pathname;
  } catch {
    pathname = req.path;
  }
  const decoded = pathname
    .split("/")
    .map((segment) => {
      try {
        return decodeURIComponent(segment).replace(/\//g, "%2F");
      } catch {
        return segment; // a malformed escape stays as it is (the router's way too)
      }
    })
    .join("/");
  const path = decoded.replace(/\/{2,}/g, "/").replace(/(.)\/+$/, "$1") || "/";
  (req as unknown as Record<symbol, string>)[CACHE] = path;
  return path;
}
