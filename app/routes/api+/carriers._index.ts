import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCarrierAdmin } from "~/modules/carriers/access.server";
import { createCarrier, listCarriers } from "~/modules/carriers/admin.server";
import { api, assertMethod, readBody, readQuery } from "~/utils/http.server";

/** GET /api/carriers?filter: every carrier by name, or those whose name or code holds the filter (staff). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { carriers: await listCarriers(context.db, user, readQuery(request).get("filter") ?? "") };
  });
}

/** POST /api/carriers { name, code (or rates_service_key), ... }: a new carrier, 201; 400 per field. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    // who may ask comes before what they asked
    assertCarrierAdmin(user);
    return Response.json(await createCarrier(context.db, user, await readBody(request)), { status: 201 });
  });
}
