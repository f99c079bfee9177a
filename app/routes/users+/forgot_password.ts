import type { ActionFunctionArgs } from "@remix-run/node";
import { clientInfo, requestPasswordReset } from "~/modules/auth/auth.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/** POST /users/forgot_password `{ email }` (or `{ user: { email } }`): always the same message. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const body = await readBody(request);
    const input = body.user && typeof body.user === "object" ? body.user : body;
    // the e-mail goes out after the answer (see requestPasswordReset)
    const { message } = await requestPasswordReset(context.db, context.mailer, input, context.baseUrl, clientInfo(request));
    return { message };
  });
}

export function loader() {
  return Response.json({ errors: { base: ["Use POST to request a password reset."] } }, { status: 405, headers: { Allow: "POST" } });
}
