import { createHash } from "node:crypto";

export interface HashedRequest {
  method: string;
  /** the path and query string: /api/bulk_upload/import?type=consignment */
  target: string;
  contentType: string | null;
  body: Uint8Array;
}

/**
 * What makes two requests "the same request" for a key: the method, path and query, the body's
 * media type and its raw bytes. A multipart body is hashed raw too, with its boundary written as
 * one fixed token: clients choose a fresh random boundary for every send (curl, fetch's FormData,
 * Python's requests), so a retry of the same upload would otherwise never match its first send.
 */
export function requestHash(request: HashedRequest): string {
  const [mediaType = "", ...params] = (request.contentType ?? "").split(";").map((s) => s.trim());
  const hash = createHash("sha256");
  // NUL cannot occur in a method, a URL or a media type: the parts cannot run into each other
  hash.update(`${request.method.toUpperCase()}\0${request.target}\0${mediaType.toLowerCase()}\0`);
  const boundary = mediaType.toLowerCase().startsWith("multipart/") ? boundaryOf(params) : null;
  if (boundary) hashReplacing(hash, request.body, Buffer.from(`--${boundary}`, "latin1"), Buffer.from("--\0boundary\0", "latin1"));
  else hash.update(request.body);
  return hash.digest("hex");
}

function boundaryOf(params: string[]): string | null {
  for (const param of params) {
    const match = /^boundary=(?:"([^"]+)"|(\S+))$/i.exec(param);
    if (match) return match[1] ?? match[2] ?? null;
  }
  return null;
}

/** Feeds `body` to the hash with every occurrence of `find` replaced by `by`, without a copy of the body. */
function hashReplacing(hash: ReturnType<typeof createHash>, body: Uint8Array, find: Buffer, by: Buffer) {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  let from = 0;
  for (let at = bytes.indexOf(find, from); at >= 0; at = bytes.indexOf(find, from)) {
    hash.update(bytes.subarray(from, at));
    hash.update(by);
    from = at + find.length;
  }
  hash.update(bytes.subarray(from));
}
