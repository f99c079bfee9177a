/**
 * Idempotency keys on /api POSTs (issue 34 item 3, docs/decisions/038): the header, how long an
 * answer is kept, and what a caller is told. Shared by the server side and the OpenAPI document.
 */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** On an answer given again from the store rather than by running the call. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** How long a key's first answer is kept and replayed. */
export const KEY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * A claim still in flight after this long belongs to a process that died mid-call (no /api call
 * runs for minutes): a retry takes the key over instead of waiting out the 24 hours.
 */
export const ABANDONED_AFTER_MS = 10 * 60 * 1000;
/** Seconds a caller told 409 waits before asking again. */
export const IN_FLIGHT_RETRY_AFTER_SECONDS = 1;

export const MAX_KEY_LENGTH = 255;
export const KEY_INVALID = `The ${IDEMPOTENCY_HEADER} header must be 1 to ${MAX_KEY_LENGTH} printable ASCII characters.`;
export const KEY_REUSED = `This ${IDEMPOTENCY_HEADER} was used with a different request.`;
export const KEY_IN_FLIGHT = `A request with this ${IDEMPOTENCY_HEADER} is still being processed. Retry once it has finished.`;

/** Printable ASCII, space to tilde: what a header carries safely and a log shows as it is. */
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Whether a header value may be used as a key (1 to 255 printable ASCII characters). */
export function isValidKey(key: string): boolean {
  return key.length >= 1 && key.length <= MAX_KEY_LENGTH && PRINTABLE_ASCII.test(key);
}
