/**
 * Idempotency-Key on every /api POST (issue 34 item 3, docs/decisions/038): the shared header
 * parameter and its answers, laid onto each POST of the document so that none is left out.
 */
import { IDEMPOTENCY_HEADER, KEY_IN_FLIGHT, KEY_INVALID, KEY_REUSED, MAX_KEY_LENGTH, REPLAYED_HEADER } from "../idempotency/key";

const errorsJson = { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } };

export const idempotencyParameters = {
  IdempotencyKey: {
    name: IDEMPOTENCY_HEADER,
    in: "header",
    required: false,
    description: `Makes a retry safe: the first answer (below 500) to a request with this key is kept for 24 hours, and the same request again with the same key gets that answer again (status and body) with the header ${REPLAYED_HEADER}: true, without running the call a second time. The same key with another request (method, path, query or body) answers 422; while the first request is still running, 409 with Retry-After. An answer of 500 or more is not kept, so a retry runs the call again. Keys belong to the caller (user and working customer): another caller's same key is theirs alone. A multipart upload is compared byte for byte, its boundary aside.`,
    schema: { type: "string", minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: "^[\\x20-\\x7E]+$" },
  },
} as const;

export const idempotencyResponses = {
  IdempotencyKeyInvalid: { description: `'${KEY_INVALID}'`, content: errorsJson },
  IdempotencyKeyInFlight: {
    description: `'${KEY_IN_FLIGHT}'`,
    headers: { "Retry-After": { description: "Seconds to wait before retrying", schema: { type: "integer" } } },
    content: errorsJson,
  },
  IdempotencyKeyReused: { description: `'${KEY_REUSED}'`, content: errorsJson },
} as const;

/** The answers a key adds, by status; a status the call already documents gets the key's case added to its description. */
const ADDED: Record<string, { ref: keyof typeof idempotencyResponses; message: string }> = {
  "400": { ref: "IdempotencyKeyInvalid", message: KEY_INVALID },
  "409": { ref: "IdempotencyKeyInFlight", message: KEY_IN_FLIGHT },
  "422": { ref: "IdempotencyKeyReused", message: KEY_REUSED },
};

type Operation = { security?: ReadonlyArray<Record<string, unknown>>; parameters?: readonly unknown[]; responses?: Record<string, { description?: string }> };

/** A call a user makes (session or token): the keys are a user's; a store's rates call has none. */
const byUser = (op: Operation) => !op.security || op.security.some((s) => "session" in s || "bearer" in s);

/** `paths` with the Idempotency-Key parameter and its answers on every /api POST made by a user. */
export function withIdempotencyKeys<T extends object>(paths: T): T {
  const out: Record<string, unknown> = {};
  for (const [path, operations] of Object.entries(paths as Record<string, Record<string, Operation>>)) {
    const post = operations.post;
    if (!path.startsWith("/api/") || !post || !byUser(post)) {
      out[path] = operations;
      continue;
    }
    const responses: Record<string, unknown> = { ...post.responses };
    for (const [status, { ref, message }] of Object.entries(ADDED)) {
      const documented = post.responses?.[status];
      responses[status] = documented ? { ...documented, description: `${documented.description ?? ""}; or '${message}'` } : { $ref: `#/components/responses/${ref}` };
    }
    const parameters = [{ $ref: "#/components/parameters/IdempotencyKey" }, ...(post.parameters ?? [])];
    out[path] = { ...operations, post: { ...post, parameters, responses } };
  }
  return out as T;
}
