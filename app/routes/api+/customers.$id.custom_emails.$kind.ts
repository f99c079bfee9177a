import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { getCustomEmail, kindFromPath, resetCustomEmail, saveCustomEmail } from "~/modules/custom-emails/custom-emails.server";
import { customerForStaff } from "~/modules/tenancy/customers.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/custom_emails/{kind}: kind return or notification (or a row's id) (staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    return getCustomEmail(context.db, user, customerId, await kindFromPath(context.db, user, customerId, params.kind));
  });
}

/** PUT { subject?, header?, body?, footer? } saves the wording (sanitised; tags checked); DELETE resets it to the default. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    // who may ask comes before what they asked
    await customerForStaff(context.db, user, customerId);
    const kind = await kindFromPath(context.db, user, customerId, params.kind);
    if (request.method === "DELETE") return resetCustomEmail(context.db, user, customerId, kind);
    return saveCustomEmail(context.db, user, customerId, kind, await readBody(request));
  });
}
