import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { getConsignment } from "~/modules/consignments/consignments.server";
import { superadminUpdate } from "~/modules/consignments/information.server";
import { saveConsignment } from "~/modules/consignments/save.server";
import { requestDespatch } from "~/modules/despatch/despatch.server";
import { requestRedespatch } from "~/modules/despatch/redespatch.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/consignments/{id}: the consignment object, if it is the user's customer's and at one of the user's sites. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return getConsignment(context.db, user, idParam(params.id, "Consignment id"));
  });
}

/**
 * PUT /api/consignments/{id}: updates it from the version the caller read (a stale version answers
 * 409, error_code stale). With `redespatch: true` it sends its failed manifest again, and with
 * `despatch: true` it despatches it (after saving, when the body also carries the consignment);
 * both answer { job_id }. With `superadmin: true` a super admin corrects its information fields.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    const id = idParam(params.id, "Consignment id");
    const { redespatch, despatch, superadmin, ...body } = await readBody(request);
    if (superadmin === true || superadmin === "true") return superadminUpdate(context.db, user, id, body);
    if (redespatch === true || redespatch === "true") return requestRedespatch(context.db, context.queue, user, id);
    const despatching = despatch === true || despatch === "true";
    if (despatching && body.version == null) return requestDespatch(context.db, context.queue, user, { ids: [id] });
    const { consignment } = await saveConsignment(context.db, user, id, body);
    return despatching ? requestDespatch(context.db, context.queue, user, { ids: [id] }) : consignment;
  });
}
