import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCarrierAdmin } from "~/modules/carriers/access.server";
import { carrierIdOf, createValidation, listValidations } from "~/modules/carriers/validations.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";

/** GET /api/carrier_account_validations?carrier_id: the carrier's account validations (staff). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    return { carrier_account_validations: await listValidations(context.db, user, carrierIdOf(readQueryObject(request))) };
  });
}

/** POST /api/carrier_account_validations { carrier_id, field, rule, modifier, validation, message }: 201; 400 per field. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    const body = await readBody(request);
    return Response.json(await createValidation(context.db, user, carrierIdOf(body), body), { status: 201 });
  });
}
