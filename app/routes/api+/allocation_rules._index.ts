import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { listRules, saveRule } from "~/modules/allocation/rules.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { api, assertMethod, readBody, readQuery } from "~/utils/http.server";

/** GET /api/allocation_rules?carrier_code: the live rules (finance users). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    return { allocation_rules: await listRules(context.db, user, readQuery(request).get("carrier_code") || null) };
  });
}

/** POST /api/allocation_rules: a new rule (invoice admins), 201; 422 per field. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    return Response.json(await saveRule(context.db, user, null, await readBody(request)), { status: 201 });
  });
}
