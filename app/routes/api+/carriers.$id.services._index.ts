import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertCarrierAdmin } from "~/modules/carriers/access.server";
import { createService, listServices } from "~/modules/carriers/services.server";
import { api, assertMethod, readBody, readQuery } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/carriers/{id}/services?filter: the carrier's services by code (staff). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { services: await listServices(context.db, user, idParam(params.id, "Carrier id"), readQuery(request).get("filter") ?? "") };
  });
}

/** POST /api/carriers/{id}/services { code, name, type, ... }: a new service, 201; 400 per field. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    assertCarrierAdmin(user);
    return Response.json(await createService(context.db, user, idParam(params.id, "Carrier id"), await readBody(request)), { status: 201 });
  });
}
