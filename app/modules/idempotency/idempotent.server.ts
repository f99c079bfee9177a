import type { AppLoadContext } from "@remix-run/node";
import type { StoredHeaders } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { errorResponse } from "../../utils/http.server";
import { requireApiUser } from "../auth/guard.server";
import { IDEMPOTENCY_HEADER, IN_FLIGHT_RETRY_AFTER_SECONDS, isValidKey, KEY_IN_FLIGHT, KEY_INVALID, KEY_REUSED, REPLAYED_HEADER } from "./key";
import { requestHash } from "./request-hash";
import { claimKey, releaseKey, storeAnswer, type Caller, type StoredAnswer } from "./store.server";

/**
 * The largest answer kept for replays. /api POSTs that create answer a few kB; the larger answers
 * are CSV downloads (zones, rate lanes), reads that may simply run again: such an answer goes out
 * as it is and its key is released.
 */
export const MAX_STORED_ANSWER_BYTES = 1024 * 1024;

const API_PATH = /^\/api\//i;

/**
 * Every /api POST passes here (server/app.ts, around the Remix handler; docs/decisions/038). With
 * an Idempotency-Key header from a signed-in caller, the first answer below 500 is kept 24 hours
 * and a retry with the same key and the same request gets it again, marked Idempotent-Replayed;
 * the same key with another request answers 422, and while the first is still running 409. Without
 * the header, or without a caller (the call answers its own 401), the call runs as ever.
 */
export async function withIdempotency(context: AppLoadContext, request: Request, handle: (request: Request) => Promise<Response>): Promise<Response> {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null || request.method !== "POST") return handle(request);
  const url = new URL(request.url);
  if (!API_PATH.test(url.pathname)) return handle(request);
  const caller = await callerOf(context, request);
  if (!caller) return handle(request);
  if (!isValidKey(key)) return errorResponse(new AppError("bad_request", KEY_INVALID));

  // The whole body, to compare with the first send's before anything runs. The path's own limit
  // bounds it (server/body-limit.ts counts the bytes as they come and fails this read past it),
  // and the calls read their JSON and uploads whole themselves.
  const body = new Uint8Array(await request.arrayBuffer());
  const hash = requestHash({ method: request.method, target: url.pathname + url.search, contentType: request.headers.get("content-type"), body });
  const claim = await claimKey(context.db, caller, key, hash, new Date());
  if (claim.kind === "reused") return errorResponse(new AppError("invalid", KEY_REUSED));
  if (claim.kind === "in_flight") {
    const response = errorResponse(new AppError("conflict", KEY_IN_FLIGHT));
    response.headers.set("Retry-After", String(IN_FLIGHT_RETRY_AFTER_SECONDS));
    return response;
  }
  if (claim.kind === "replay") return replay(claim.answer);

  const release = () => releaseKey(context.db, caller, key, claim.at);
  let response: Response;
  try {
    response = await handle(new Request(request.url, { method: request.method, headers: request.headers, body, signal: request.signal }));
  } catch (error) {
    await release().catch(() => {});
    throw error;
  }
  // a failure on our side is not the answer to keep: a retry runs the call again
  if (response.status >= 500) {
    await release();
    return response;
  }
  const read = await readUpTo(response.body, MAX_STORED_ANSWER_BYTES);
  const again = (bodyOut: BodyInit | null) => new Response(bodyOut, { status: response.status, statusText: response.statusText, headers: response.headers });
  if (!read.complete) {
    await release();
    return again(read.stream);
  }
  try {
    await storeAnswer(context.db, caller, key, claim.at, { status: response.status, headers: keptHeaders(response.headers), body: read.bytes });
  } catch (error) {
    // the call ran and its answer goes out; a retry would find the key in flight until it is abandoned
    console.error("idempotency: the answer could not be stored", error);
    await release().catch(() => {});
  }
  return again(response.body ? new Uint8Array(read.bytes) : null);
}

/** The signed-in user of an /api call (session or token), as the calls themselves find them; null without one. */
async function callerOf(context: AppLoadContext, request: Request): Promise<Caller | null> {
  try {
    const { user } = await requireApiUser(context, request, { allowPasswordReset: true });
    return { userId: user.id, customerId: user.customer.id };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

function keptHeaders(headers: Headers): StoredHeaders {
  const kept: StoredHeaders = {};
  const type = headers.get("content-type");
  const location = headers.get("location");
  if (type) kept["content-type"] = type;
  if (location) kept.location = location;
  return kept;
}

function replay(answer: StoredAnswer): Response {
  const headers = new Headers(answer.headers);
  headers.set(REPLAYED_HEADER, "true");
  // a status without a body (204, 304) takes none
  const empty = answer.status === 204 || answer.status === 304;
  return new Response(empty ? null : new Uint8Array(answer.body), { status: answer.status, headers });
}

type Read = { complete: true; bytes: Buffer } | { complete: false; stream: ReadableStream<Uint8Array> };

/**
 * An answer's body in memory when it is at most `max` bytes; past that, a stream of what was read
 * followed by the rest, so a large answer goes out whole without being held.
 */
async function readUpTo(body: ReadableStream<Uint8Array> | null, max: number): Promise<Read> {
  if (!body) return { complete: true, bytes: Buffer.alloc(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { complete: true, bytes: Buffer.concat(chunks) };
    chunks.push(value);
    size += value.byteLength;
    if (size > max) break;
  }
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return { complete: false, stream };
}
