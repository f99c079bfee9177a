import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { getCarrierFactors, setCarrierFactors } from "~/modules/emissions/factors.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/carriers/{id}/emission_factors: the factor in force per mode (staff who keep carriers). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getCarrierFactors(context.db, user, idParam(params.id, "Carrier id"));
  });
}

/** PUT: { road?: { g_per_tkm, source } | null, air?: ..., rail?: ... }; 202 with the recomputation's job_id. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    const saved = await setCarrierFactors(context.db, context.queue, user, idParam(params.id, "Carrier id"), await readBody(request));
    return Response.json(saved, { status: 202 });
  });
}
