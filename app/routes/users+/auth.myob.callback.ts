import { redirect, type LoaderFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guard.server";
import { homeButtons } from "~/modules/auth/roles";
import { AuthenticationFailed, completeAuthentication } from "~/modules/accounting/connection.server";
import { outcomeCookie } from "~/modules/accounting/outcome.server";
import { linkBase } from "~/utils/http.server";

/**
 * GET /users/auth/myob/callback?code&state (or ?error&state): where the consent page sends the
 * browser back. A GET that changes state, as OAuth defines it; the state (single use, ten minutes,
 * made by this app's POST) is what stops another site from completing a connection. The outcome
 * is shown once on /myob.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireStaff(context, request);
  if (!homeButtons.myob(user)) throw redirect("/");
  try {
    await completeAuthentication(context.db, user, new URL(request.url).searchParams, linkBase(request));
    return redirect("/myob", { headers: { "Set-Cookie": outcomeCookie({ ok: true }) } });
  } catch (e) {
    if (!(e instanceof AuthenticationFailed)) throw e;
    return redirect("/myob", { headers: { "Set-Cookie": outcomeCookie({ ok: false, message: e.message }) } });
  }
}
