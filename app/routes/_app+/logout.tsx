import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { destroySession, clearSessionCookie, readSessionToken } from "~/modules/auth/sessions.server";
import { isSecureRequest } from "~/utils/http.server";

/** Sign-out from the user menu (a POST: a GET never changes state). */
export async function action({ request, context }: ActionFunctionArgs) {
  const token = readSessionToken(request);
  if (token) await destroySession(context.db, token);
  return redirect("/login", { headers: { "Set-Cookie": clearSessionCookie(isSecureRequest(request)) } });
}

export function loader() {
  return redirect("/");
}
