/**
 * The hot calls answered below Remix (issue 32, decision 046). A route module may export a `lane`
 * ({ GET?, POST? }: the same function its loader or action calls). Such a call is answered here
 * from Express's request: the function reads a plain request (app/utils/http.server's CallRequest)
 * instead of a fetch Request, and Remix's router and request handler are skipped. Its Response is
 * written by the bridge's sendResponse, as Remix's would be. Measured on an authenticated call,
 * that was a fifth of its CPU.
 *
 * Anything this does not take goes on to Remix, which answers it with the same function (or
 * refuses it): another method, a path Remix would match but the lane's pattern does not (another
 * case, a trailing slash, an escaped parameter), a target in absolute form, a Remix data request
 * (`?_data`), and a POST with an Idempotency-Key, which the idempotency keys read as a fetch
 * Request (decision 038).
 */
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { Request as ExpressRequest, RequestHandler } from "express";
import type { CallRequest, LaneCall } from "../app/utils/http.server";
import { buffer } from "node:stream/consumers";
import { requestUrl, sendResponse } from "./remix-bridge";

type Lane = Partial<Record<"GET" | "POST", LaneCall>>;
type Route = ServerBuild["routes"][string];

/** A lane's path as a pattern: its parameters' names, in order, and a regular expression for the URL's path. */
interface LanePath {
  pattern: RegExp;
  names: string[];
  lane: Lane;
}

/**
 * A parameter's value the lane takes: the characters no URL escapes, so that its text is the value
 * Remix would decode. Any other (a %-escape, a dot) goes to Remix.
 */
const PARAM = "([A-Za-z0-9_-]+)";

function fullPath(routes: ServerBuild["routes"], route: Route): string[] {
  const segments: string[] = [];
  for (let r: Route | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) {
    if (r.path) segments.unshift(...r.path.split("/").filter(Boolean));
  }
  return segments;
}

/** Every run of segments a path can match: with and without each optional one. */
function shapesOf(segments: string[]): string[][] {
  let shapes: string[][] = [[]];
  for (const s of segments) {
    shapes = s.endsWith("?") ? shapes.flatMap((shape) => [shape, [...shape, s.slice(0, -1)]]) : shapes.map((shape) => [...shape, s]);
  }
  return shapes;
}

/** A route's rank as @remix-run/router's computeScore gives it: of the routes matching a URL, the highest wins. */
function score(segments: string[], index: boolean): number {
  const splat = segments.includes("*");
  return segments.reduce((n, s) => n + (s === "*" ? 0 : /^:[\w-]+$/.test(s) ? 3 : s === "" ? 1 : 10), segments.length + (splat ? -2 : 0) + (index ? 2 : 0));
}

/** Whether a URL the lane takes could match a route of these segments (Remix matches case-insensitively; a splat also matches nothing). */
function matchesSome(lane: string[], other: string[]): boolean {
  const splat = other.at(-1) === "*";
  const fixed = splat ? other.slice(0, -1) : other;
  if (splat ? fixed.length > lane.length : fixed.length !== lane.length) return false;
  return fixed.every((s, i) => s.startsWith(":") || lane[i]!.startsWith(":") || s.toLowerCase() === lane[i]!.toLowerCase());
}

/** Whether Remix could send a URL the lane takes to this route instead: it matches one, and ranks as high or higher. */
function rivals(lane: string[], other: string[], index: boolean): boolean {
  return shapesOf(other).some((shape) => matchesSome(lane, shape) && score(shape, index) >= score(lane, false));
}

/**
 * The routes whose module exports a lane, from the build's own route list. A lane's route must be
 * where Remix would go for every URL the lane takes: no parameter but plain ones, no index or
 * pathless child, and no other route that matches such a URL and ranks as high.
 */
export function laneCalls(build: ServerBuild): LanePath[] {
  const routes = build.routes;
  const calls: LanePath[] = [];
  for (const route of Object.values(routes)) {
    const lane = (route.module as { lane?: Lane }).lane;
    if (!lane) continue;
    const segments = fullPath(routes, route);
    const refuse = (why: string) => new Error(`${route.id} exports a lane, but ${why}`);
    if (!segments.length || segments.some((s) => s.includes("*") || s.endsWith("?") || (s.startsWith(":") && !/^:\w+$/.test(s)))) throw refuse("its path is not a plain one");
    if (Object.values(routes).some((r) => r.parentId === route.id && (r.index || !r.path))) throw refuse("an index or pathless route below it shares its URL");
    // a route without a path matches no URL of its own unless it is an index
    const rival = Object.values(routes).find((r) => r.id !== route.id && (r.path || r.index) && rivals(segments, fullPath(routes, r), Boolean(r.index)));
    if (rival) throw refuse(`${rival.id} could match the same URL`);
    const names = segments.filter((s) => s.startsWith(":")).map((s) => s.slice(1));
    const source = segments.map((s) => (s.startsWith(":") ? PARAM : s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))).join("/");
    calls.push({ pattern: new RegExp(`^/${source}$`), names, lane });
  }
  return calls;
}

/** The lane call for this method and path, with its parameters; none when Remix should answer. */
function laneFor(calls: LanePath[], method: string, path: string): { call: LaneCall; params: Record<string, string> } | null {
  for (const { pattern, names, lane } of calls) {
    const call = lane[method as "GET" | "POST"];
    if (!call) continue;
    const match = pattern.exec(path);
    if (match) return { call, params: Object.fromEntries(names.map((name, i) => [name, match[i + 1]!])) };
  }
  return null;
}

const decoder = new TextDecoder();

/**
 * A fetch Request's reads over Express's request: its URL as the adapter makes it, a header as
 * `Headers.get` answers it (empty ones left out, as the bridge does), and the body read once when
 * asked for and decoded as fetch decodes it.
 */
export class PlainCall implements CallRequest {
  readonly method: string;
  readonly headers: Pick<Headers, "get">;
  private body: Promise<Buffer> | null = null;
  private href: string | null = null;

  constructor(private readonly req: ExpressRequest) {
    this.method = req.method;
    const raw = req.headers;
    this.headers = {
      get(name: string): string | null {
        const value = raw[name.toLowerCase()];
        if (Array.isArray(value)) return value.filter(Boolean).join(", ") || null;
        return value || null;
      },
    };
  }

  /** Made when first read (trust proxy is consulted for it): none of the lanes' calls reads it today. */
  get url(): string {
    this.href ??= requestUrl(this.req);
    return this.href;
  }

  private bytes(): Promise<Buffer> {
    // the whole body (server/body-limit.ts counts it, and fails this read past the limit); a
    // request its client dropped (before the read began too) fails it
    this.body ??= this.method === "GET" || this.method === "HEAD" ? Promise.resolve(Buffer.alloc(0)) : buffer(this.req);
    return this.body;
  }

  /** As fetch's json(): UTF-8 with a byte order mark dropped, then JSON.parse (a SyntaxError for bad JSON). */
  async json(): Promise<unknown> {
    return JSON.parse(decoder.decode(await this.bytes()));
  }

  /** fetch's own form reader, over the same bytes and content type. */
  async formData(): Promise<FormData> {
    const type = this.headers.get("content-type");
    return new Response(new Uint8Array(await this.bytes()), { headers: type ? { "content-type": type } : {} }).formData();
  }
}

/**
 * Express middleware answering the lane calls; `context` makes the call's load context, as the
 * Remix handler's is made. A GET whose call throws goes on to Remix, which runs it again and
 * answers the failure as it answers any loader's (a GET changes nothing, so running it twice is
 * safe); any other call's failure goes to Express's error handling (the JSON calls answer every
 * failure themselves: `api()`).
 */
export function apiLane(build: ServerBuild, context: (res: Parameters<RequestHandler>[1]) => AppLoadContext): RequestHandler {
  const calls = laneCalls(build);
  return (req, res, next) => {
    if (req.headers["idempotency-key"] !== undefined) return next();
    // a target in absolute form (`GET http://host/path`) Remix reads as another path
    if (req.url[0] !== "/") return next();
    const found = laneFor(calls, req.method, req.path);
    if (!found) return next();
    // `_data` makes it a Remix data request, which Remix answers (or refuses) itself
    const query = req.url.indexOf("?");
    if (query >= 0 && new URLSearchParams(req.url.slice(query)).has("_data")) return next();
    found.call(new PlainCall(req), context(res), found.params).then(
      (response) => sendResponse(res, response),
      (error: unknown) => {
        if (req.method !== "GET" || res.headersSent) return next(error);
        // said, or a fault of the lane's own would hide behind Remix's second run
        console.warn(`the lane's ${req.method} ${req.path} failed; Remix answers it:`, error);
        next();
      },
    ).catch(next);
  };
}
