/**
 * Express's request as the fetch `Request` Remix reads, and Remix's `Response` written back (issue
 * 32). They answer exactly as @remix-run/express's createRemixRequest and sendRemixResponse do (the
 * same URL, headers, body, abort signal, status, headers and bytes) with less work per request:
 * the adapter's conversions were a fifth of an authenticated API call's CPU.
 */
import { createReadableStreamFromReadable } from "@remix-run/node";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";

/** The adapter's port: what follows the first colon of X-Forwarded-Host, else of Host (req.hostname carries none). */
function portOf(header: string | undefined): number | undefined {
  const port = Number.parseInt(header?.split(":")[1] ?? "", 10);
  return Number.isSafeInteger(port) ? port : undefined;
}

/**
 * The request's URL as the adapter makes it: the protocol and host as Express reads them ("trust
 * proxy" decides whether X-Forwarded-* count), the port of X-Forwarded-Host or Host, the original URL.
 */
export function requestUrl(req: ExpressRequest): string {
  const port = portOf(req.get("x-forwarded-host")) ?? portOf(req.headers.host);
  return `${req.protocol}://${req.hostname}${port ? `:${port}` : ""}${req.originalUrl}`;
}

/**
 * The fetch Request for Remix, at requestUrl. The headers are handed over once as pairs (a Headers object first meant
 * validating and copying each twice), leaving out empty ones as the adapter does. The signal aborts
 * when the response closes before it finished (the client went away).
 */
export function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const url = requestUrl(req);
  const headers: Array<[string, string]> = [];
  const raw = req.headers;
  for (const key in raw) {
    const value = raw[key];
    if (!value) continue;
    if (typeof value === "string") headers.push([key, value]);
    else for (const each of value) headers.push([key, each]);
  }
  const controller = new AbortController();
  res.once("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = createReadableStreamFromReadable(req);
    init.duplex = "half";
  }
  return new Request(url, init);
}

const WHOLE_BODY = Symbol.for("freightdesk.wholeBody");

/**
 * The string a page rendered whole was made from, while its body is unread (app/utils/whole-response.ts
 * marks it under this global symbol; the server's bundle holds no module of the app's); else undefined.
 */
export function wholeBodyOf(response: Response): string | undefined {
  return response.bodyUsed ? undefined : (response as Response & { [WHOLE_BODY]?: string })[WHOLE_BODY];
}

const WAITING = Symbol("waiting");
/** Resolves once the microtasks queued now have run: a body already complete has closed by then. */
const afterMicrotasks = () => new Promise<typeof WAITING>((resolve) => setImmediate(resolve, WAITING));

/**
 * A body complete at once, written in one `end` framed by its length (compression drops the
 * length when it compresses, and below its threshold of 1 kB no longer spends a gzip stream on a
 * few hundred bytes).
 */
function endWhole(res: ExpressResponse, body: Uint8Array): void {
  if (!res.headersSent && !res.hasHeader("content-length")) res.setHeader("Content-Length", body.byteLength);
  res.end(body);
}

/**
 * Writes Remix's Response to Express's. A body that is complete at once (a JSON answer, a page
 * rendered whole) goes out in one `end` with its Content-Length (the adapter wrote it as a chunk,
 * so compression could not see its size); a body still arriving (a streamed
 * page, a download, an event stream) is written chunk by chunk as it comes, each flushed through
 * compression, as the adapter does.
 */
export async function sendResponse(res: ExpressResponse, response: Response): Promise<void> {
  res.statusMessage = response.statusText;
  res.status(response.status);
  // Express's append: a header the middleware set is kept beside Remix's, and JSON gets its charset
  for (const [key, value] of response.headers) res.append(key, value);
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  // a page rendered whole: encoded once and written at once (its Response may carry no stream)
  const whole = wholeBodyOf(response);
  if (whole !== undefined) return endWhole(res, Buffer.from(whole));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  const flush = (res as ExpressResponse & { flush?: () => void }).flush;
  const write = (chunk: Uint8Array) => {
    res.write(chunk);
    if (typeof flush === "function") flush.call(res);
  };
  try {
    const first = await reader.read();
    if (first.done) return void res.end();
    const pending = reader.read();
    let next = await Promise.race([pending, afterMicrotasks()]);
    if (next !== WAITING && next.done) return endWhole(res, first.value);
    write(first.value);
    if (next === WAITING) next = await pending;
    while (!next.done) {
      write(next.value);
      next = await reader.read();
    }
    res.end();
  } catch (error) {
    res.destroy(error as Error);
    throw error;
  }
}
