import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { deleteConfig, getConfig, saveConfig } from "~/modules/invoices/templates/configs.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/carrier_invoice_configs/{id}: one template with its steps in order. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    return getConfig(context.db, user, idParam(params.id, "Carrier invoice config id"));
  });
}

/** PUT replaces the template and its steps; DELETE removes it (invoice admins). */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const id = idParam(params.id, "Carrier invoice config id");
    if (request.method === "DELETE") return deleteConfig(context.db, user, id);
    return saveConfig(context.db, user, id, await readBody(request));
  });
}
