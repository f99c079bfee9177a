import type { ActionFunctionArgs } from "@remix-run/node";
import { authenticator } from "~/modules/auth/auth.server";
import { currentUserJson, loadCurrentUser } from "~/modules/auth/current-user.server";
import { redirectAfterSignIn } from "~/modules/auth/roles";
import { sessionCookie } from "~/modules/auth/sessions.server";
import { api, assertMethod, isSecureRequest, readQuery } from "~/utils/http.server";
import { notFound } from "~/utils/errors";

/**
 * POST /users/sign_in `{ user: { email, password, remember_me } }` (spec 1 section 7): answers the
 * user and the redirect path, and sets the session cookie. Errors: `{ error, errors }` with 401/422.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const response = await api(async () => {
    assertMethod(request, "POST");
    const redirectTo = readQuery(request).get("redirect_to");
    const signed = await authenticator(context.db).authenticate("password", request);
    const user = await loadCurrentUser(context.db, signed.userId);
    if (!user) throw notFound("User");
    return Response.json(
      { user: currentUserJson(user), redirect: redirectAfterSignIn(user, redirectTo) },
      { headers: { "Set-Cookie": sessionCookie(signed.token, { rememberMe: signed.rememberMe, secure: isSecureRequest(request) }) } },
    );
  });
  if (response.ok) return response;
  // the sign-in screen of the spec reads `error`; keep `errors` for the common contract
  const body = (await response.json()) as { errors: Record<string, string[]> };
  const error = Object.values(body.errors)[0]?.[0];
  return Response.json({ ...body, error }, { status: response.status });
}

export function loader() {
  return Response.json({ errors: { base: ["Use POST to sign in."] } }, { status: 405, headers: { Allow: "POST" } });
}
