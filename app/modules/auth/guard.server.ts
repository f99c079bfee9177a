import { redirect, type AppLoadContext } from "@remix-run/node";
import { changeFeedOf } from "../../../db/client.server";
import type { FeedMark } from "../../../db/changes.server";
import { AppError } from "../../utils/errors";
import type { CallRequest } from "../../utils/http.server";
import type { CurrentUser } from "./current-user.server";
import { canAccessPath, isAdmin, type AccessSubject } from "./roles";
import { sessionCacheOf } from "./session-cache.server";
import { readSessionToken, resolveSession } from "./sessions.server";
import { userOfToken } from "./token-cache.server";

export interface Signed {
  user: CurrentUser;
  /** the session token, absent for Bearer-token callers */
  token?: string;
  /**
   * The change feed's mark taken before the user was authenticated (none without a feed): a read
   * later in the request passes it on, and needs no sync of its own when authenticating synced.
   */
  since?: FeedMark;
}

/**
 * One user load per page view: the layout's loader and the page's share the load context of a
 * GET. Not for other methods: an action may change who is signed in before its page's loaders run.
 */
const perRequest = new WeakMap<AppLoadContext, Promise<Signed | null>>();

/** The signed-in user of a browser request (session cookie), or null. */
export function optionalUser(context: AppLoadContext, request: CallRequest): Promise<Signed | null> {
  if (request.method !== "GET") return loadSigned(context, request);
  let signed = perRequest.get(context);
  if (!signed) {
    signed = loadSigned(context, request);
    perRequest.set(context, signed);
  }
  return signed;
}

async function loadSigned(context: AppLoadContext, request: CallRequest): Promise<Signed | null> {
  const token = readSessionToken(request);
  if (!token) return null;
  const since = changeFeedOf(context.db)?.mark();
  const user = await resolveSession(context.db, token, new Date(), sessionCacheOf(context.db));
  return user ? { user, token, since } : null;
}

/**
 * For every UI loader and action. No session: to /login, remembering the wanted path.
 * A forced password change: to /users/edit. A path this user may not open: to /.
 */
export async function requireUser(context: AppLoadContext, request: Request): Promise<Signed> {
  const url = new URL(request.url);
  const signed = await optionalUser(context, request);
  if (!signed) {
    const wanted = url.pathname + url.search;
    throw redirect(wanted === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(wanted)}`);
  }
  if (signed.user.passwordResetRequired && url.pathname !== "/users/edit") throw redirect("/users/edit");
  if (!canAccessPath(signed.user, url.pathname)) throw redirect("/");
  return signed;
}

/**
 * For staff screens (restricted areas): the route access rule already sends others to "/", and
 * this says so again in the route itself, so a screen never depends on the path check alone.
 */
export async function requireStaff(context: AppLoadContext, request: Request): Promise<Signed> {
  const signed = await requireUser(context, request);
  if (!isAdmin(signed.user)) throw redirect("/");
  return signed;
}

/**
 * The message a 403 shows: customer_service, admin and super_admin get a personal one (spec 3
 * section 6, "first role"); other roles get the normal error.
 */
export function forbiddenMessage(user: AccessSubject & { firstName: string }): string {
  return user.role === "customer_service" || user.role === "admin" || user.role === "super_admin"
    ? `Sorry ${user.firstName}, You are not authorised to do that. Please contact tech support if you think you should have access.`
    : "You are not authorised to do that.";
}

/** Throws a 403 unless the rule allows this user. */
export function authorize(user: CurrentUser, allowed: boolean | ((u: CurrentUser) => boolean)): void {
  const ok = typeof allowed === "function" ? allowed(user) : allowed;
  if (!ok) throw new AppError("forbidden", forbiddenMessage(user));
}

async function userFromBearer(context: AppLoadContext, request: CallRequest): Promise<CurrentUser | null> {
  const header = request.headers.get("authorization");
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) return null;
  return userOfToken(context.db, match[1]!);
}

/**
 * For every /api route: a session cookie or `Authorization: Bearer <authentication_token>`.
 * Never redirects: 401 JSON without a user, 403 JSON with password_reset_required.
 */
export async function requireApiUser(
  context: AppLoadContext,
  request: CallRequest,
  options: { allowPasswordReset?: boolean } = {},
): Promise<Signed> {
  const since = changeFeedOf(context.db)?.mark();
  const bearer = await userFromBearer(context, request);
  const signed = bearer ? { user: bearer, since } : await optionalUser(context, request);
  if (!signed) throw new AppError("unauthenticated", "You need to sign in or sign up before continuing.");
  if (signed.user.passwordResetRequired && !options.allowPasswordReset) {
    throw new AppError("password_reset_required", "You must change your password before continuing.");
  }
  return signed;
}
