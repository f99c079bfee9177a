import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { createEndpoint, listEndpoints } from "~/modules/webhooks/endpoints.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";

/** GET /api/webhooks?customer_id: the customer's webhook endpoints (staff any customer's, a customer's admin their own). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return listEndpoints(context.db, user, readQueryObject(request));
  });
}

/** POST /api/webhooks { url, events, active?, customer_id? }: a new endpoint, 201, with its secret (shown this once). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return Response.json(await createEndpoint(context.db, user, await readBody(request)), { status: 201 });
  });
}
