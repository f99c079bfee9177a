import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { listCustomEmails } from "~/modules/custom-emails/custom-emails.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/custom_emails: the return e-mail and the notification frame, customised or not (staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return listCustomEmails(context.db, user, idParam(params.id, "Customer id"));
  });
}
