/**
 * The hot /api calls answered below Remix (issue 32, decision 046). A route module may export a
 * `lane` ({ GET?, POST? }: the same function its loader or action calls). Such a call is answered
 * here from Express's request: the function reads a plain request (app/utils/http.server's
 * CallRequest) instead of a fetch Request, and Remix's router and request handler are skipped. Its
 * Response is written by the bridge's sendResponse, as Remix's would be. Measured on an
 * authenticated call, that was a fifth of its CPU.
 *
 * Anything this does not take goes on to Remix, which answers it with the same function: another
 * method, a path that is not the route's exact path (Remix's matching is wider), and a POST with
 * an Idempotency-Key, which the idempotency keys read as a fetch Request (decision 038).
 */
import type { AppLoadContext, ServerBuild } from "@remix-run/node";
import type { Request as ExpressRequest, RequestHandler } from "express";
import type { CallRequest, LaneCall } from "../app/utils/http.server";
import { requestUrl, sendResponse } from "./remix-bridge";

type Lane = Partial<Record<"GET" | "POST", LaneCall>>;

/** The exact path of each route whose module exports a lane, from the build's own route list. */
export function laneCalls(build: ServerBuild): Map<string, Lane> {
  const calls = new Map<string, Lane>();
  for (const route of Object.values(build.routes)) {
    const lane = (route.module as { lane?: Lane }).lane;
    if (!lane) continue;
    // a path of its own, under no layout and with no parameter: its exact path is its only match
    if (route.parentId !== "root" || !route.path || /[:*?]/.test(route.path)) {
      throw new Error(`${route.id} exports a lane, but only a route with a fixed path of its own may`);
    }
    calls.set(`/${route.path}`, lane);
  }
  return calls;
}

const decoder = new TextDecoder();

/** The whole body as it arrives (server/body-limit.ts counts it, and fails this read past the limit). */
function readAll(req: ExpressRequest): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.once("end", () => resolve(Buffer.concat(chunks)));
    req.once("error", reject);
    req.once("close", () => {
      if (!req.complete) reject(new Error("The request body was cut off."));
    });
  });
}

/**
 * A fetch Request's reads over Express's request: its URL as the adapter makes it, a header as
 * `Headers.get` answers it (empty ones left out, as the bridge does), and the body read once when
 * asked for and decoded as fetch decodes it.
 */
export class PlainCall implements CallRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Pick<Headers, "get">;
  private body: Promise<Buffer> | null = null;

  constructor(private readonly req: ExpressRequest) {
    this.method = req.method;
    this.url = requestUrl(req);
    const raw = req.headers;
    this.headers = {
      get(name: string): string | null {
        const value = raw[name.toLowerCase()];
        if (Array.isArray(value)) return value.filter(Boolean).join(", ") || null;
        return value || null;
      },
    };
  }

  private bytes(): Promise<Buffer> {
    this.body ??= this.method === "GET" || this.method === "HEAD" ? Promise.resolve(Buffer.alloc(0)) : readAll(this.req);
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

/** Express middleware answering the lane calls; `context` makes the call's load context, as the Remix handler's is made. */
export function apiLane(build: ServerBuild, context: (res: Parameters<RequestHandler>[1]) => AppLoadContext): RequestHandler {
  const calls = laneCalls(build);
  return (req, res, next) => {
    const call = calls.get(req.path)?.[req.method as "GET" | "POST"];
    if (!call || req.headers["idempotency-key"] !== undefined) return next();
    call(new PlainCall(req), context(res))
      .then((response) => sendResponse(res, response))
      .catch(next);
  };
}
