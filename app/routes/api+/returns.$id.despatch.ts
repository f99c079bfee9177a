import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { despatchReturn } from "~/modules/despatch/despatch.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** POST /api/returns/{id}/despatch { send_email }: despatches a return or third-party pickup in a job; answers { job_id }. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return despatchReturn(context.db, context.queue, user, idParam(params.id, "Return id"), await readBody(request));
  });
}

export const loader = methodNotAllowed("POST");
