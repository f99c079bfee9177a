import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { customerStore, saveStore, storeJson } from "~/modules/stores/stores.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/store: { store } (null before it is set up; the key is never read back). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const store = await customerStore(context.db, user, idParam(params.id, "Customer id"));
    return { store: store ? storeJson(store) : null };
  });
}

/** PUT /api/customers/{id}/store: sets up or changes the store; { store, api_key? } (the key only when one was made). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    const result = await saveStore(context.db, user, idParam(params.id, "Customer id"), await readBody(request));
    return Response.json(result, { headers: { "Cache-Control": "no-store" } });
  });
}
