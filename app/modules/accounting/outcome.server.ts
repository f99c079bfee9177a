/**
 * The outcome of an authentication, shown once on /myob after the callback's redirect: a cookie
 * for /myob only, read and cleared by that page (a message in the URL could be made up by anyone's link).
 */
import { MYOB_MESSAGES } from "./accounting";

const NAME = "myob_outcome";
type Outcome = { ok: true } | { ok: false; message: string };

export function outcomeCookie(outcome: Outcome): string {
  return `${NAME}=${encodeURIComponent(JSON.stringify(outcome))}; Path=/; Max-Age=120; HttpOnly; SameSite=Lax`;
}

export const clearOutcomeCookie = `${NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax`;

/** The alert the outcome shows ('MYOB Authenticated successfully' or 'Error occurred during authentication: {message}'), or null. */
export function readOutcome(request: Request): { type: "success" | "error"; message: string } | null {
  const raw = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((p) => p.trim())
    .find((p) => p.startsWith(`${NAME}=`))
    ?.slice(NAME.length + 1);
  if (!raw) return null;
  try {
    const outcome = JSON.parse(decodeURIComponent(raw)) as Outcome;
    if (outcome.ok === true) return { type: "success", message: MYOB_MESSAGES.authenticated };
    if (outcome.ok === false && typeof outcome.message === "string") return { type: "error", message: MYOB_MESSAGES.failed(outcome.message.slice(0, 300)) };
  } catch {
    // a cookie this app did not write shows nothing
  }
  return null;
}
