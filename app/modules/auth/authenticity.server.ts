/**
 * An authenticity token for forms that start something outside the app (POST /users/auth/myob):
 * derived from the session token, which only the signed-in browser holds (HttpOnly cookie), so a
 * page on another site cannot know it. It backs up the server's same-origin check (server/same-origin.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";

export { AUTHENTICITY_FIELD } from "./authenticity";

export function authenticityToken(sessionToken: string): string {
  return createHash("sha256").update(`authenticity:${sessionToken}`).digest("base64url");
}

export function validAuthenticityToken(sessionToken: string | undefined, given: FormDataEntryValue | null): boolean {
  if (!sessionToken || typeof given !== "string") return false;
  const expected = Buffer.from(authenticityToken(sessionToken));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
