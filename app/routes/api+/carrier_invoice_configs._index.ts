import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { listConfigs, saveConfig } from "~/modules/invoices/templates/configs.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";

/** GET /api/carrier_invoice_configs: the templates (finance users), filtered by name, carrier_id and format. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    const q = readQueryObject(request);
    return listConfigs(context.db, user, { name: q.name, carrier_id: Number(q.carrier_id) || undefined, format: q.format });
  });
}

/** POST /api/carrier_invoice_configs: a new template (invoice admins). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    return saveConfig(context.db, user, null, await readBody(request));
  });
}
