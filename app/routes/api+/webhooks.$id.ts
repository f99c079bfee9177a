import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "~/modules/webhooks/endpoints.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/webhooks/{id}: one endpoint (never its secret). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { webhook: await getEndpoint(context.db, user, idParam(params.id, "Webhook id")) };
  });
}

/** PUT /api/webhooks/{id} { url?, events?, active?, rotate_secret? } changes it (a new secret answered once); DELETE removes it and its log. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    const id = idParam(params.id, "Webhook id");
    if (request.method === "DELETE") return deleteEndpoint(context.db, user, id);
    return updateEndpoint(context.db, user, id, await readBody(request));
  });
}
