/**
 * A public tracking link that opens nothing is a guess, counted against the client's address
 * before the 404 goes out (issue 35 finding 10). The server's limiter (server/tracking-limits.ts)
 * reads the count before the page and refuses at the limit; it passes the key to count under in
 * its header, and drops any a client sent.
 */
import type { DbOrTx } from "../../../db/client.server";
import { TrackingGuessStore } from "../auth/sign-in-counts.server";
import type { CallRequest } from "../../utils/http.server";

/** The limiter's header (server/tracking-limits.ts GUESS_KEY_HEADER). */
const GUESS_KEY_HEADER = "x-tracking-guess-key";

/** Counts this request's link as a guess, in the store's 15-minute window (the limiter's). */
export async function countTrackingGuess(db: DbOrTx, request: Pick<CallRequest, "headers">): Promise<void> {
  const key = request.headers.get(GUESS_KEY_HEADER);
  if (key) await new TrackingGuessStore(db).increment(key);
}
