import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/modules/auth/guard.server";
import { AUTHENTICITY_FIELD, validAuthenticityToken } from "~/modules/auth/authenticity.server";
import { homeButtons } from "~/modules/auth/roles";
import { MYOB_MESSAGES } from "~/modules/accounting/accounting";
import { startAuthentication } from "~/modules/accounting/connection.server";
import { outcomeCookie } from "~/modules/accounting/outcome.server";
import { linkBase, readPageForm } from "~/utils/http.server";

/** GET: nothing starts on a GET; the page with the Authenticate button is /myob. */
export const loader = () => redirect("/myob");

/**
 * POST /users/auth/myob (authenticity_token): starts the OAuth authorisation-code flow, sending the
 * browser to the accounting service's consent page. Admins (not customer service) and super admins.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const signed = await requireStaff(context, request);
  if (!homeButtons.myob(signed.user)) throw redirect("/");
  const form = await readPageForm(request);
  if (!validAuthenticityToken(signed.token, form.get(AUTHENTICITY_FIELD))) {
    return redirect("/myob", { headers: { "Set-Cookie": outcomeCookie({ ok: false, message: MYOB_MESSAGES.badToken }) } });
  }
  return redirect(await startAuthentication(context.db, signed.user, linkBase(request)));
}
