import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCarrierAdmin } from "~/modules/carriers/access.server";
import { carrierOfValidation, deleteValidation, getValidation, updateValidation } from "~/modules/carriers/validations.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/carrier_account_validations/{id}: one validation (staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    const id = idParam(params.id, "Validation id");
    return getValidation(context.db, user, await carrierOfValidation(context.db, id), id);
  });
}

/** PUT: fields given replace the validation's own, 400 per field; DELETE removes it. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    const id = idParam(params.id, "Validation id");
    const carrierId = await carrierOfValidation(context.db, id);
    if (request.method === "DELETE") return deleteValidation(context.db, user, carrierId, id);
    return updateValidation(context.db, user, carrierId, id, await readBody(request));
  });
}
