import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { assertMyobUser, myobStatus, saveMapping } from "~/modules/accounting/connection.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/** GET /api/myob: { connected, business_name, connected_at, carriers: [{ id, code, name, myob_uid, supplier_name }] }. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return myobStatus(context.db, user);
  });
}

/** PUT /api/myob { carriers: [{ code, myob_uid }] }: maps carriers to MYOB suppliers (all or none). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT");
    const { user } = await requireApiUser(context, request);
    assertMyobUser(user);
    return saveMapping(context.db, user, await readBody(request));
  });
}
