import type { ActionFunctionArgs } from "@remix-run/node";
import { clearSessionCookie, destroySession, readSessionToken } from "~/modules/auth/sessions.server";
import { api, assertMethod, isSecureRequest } from "~/utils/http.server";

/** DELETE /users/custom_sign_out: ends the session of this cookie. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "DELETE");
    const token = readSessionToken(request);
    if (token) await destroySession(context.db, token);
    return Response.json({ signed_out: true, redirect: "/login" }, { headers: { "Set-Cookie": clearSessionCookie(isSecureRequest(request)) } });
  });
}

export function loader() {
  return Response.json({ errors: { base: ["Use DELETE to sign out."] } }, { status: 405, headers: { Allow: "DELETE" } });
}
