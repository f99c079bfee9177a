import type { ActionFunctionArgs } from "@remix-run/node";
import { testRules } from "~/modules/allocation/rules.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { api, assertMethod, methodNotAllowed, readBody } from "~/utils/http.server";

export const loader = methodNotAllowed("POST");

/** POST /api/allocation_rules/test { invoice_detail_id, rule_id? }: { allocation, message }; writes nothing. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request);
    return testRules(context.db, user, await readBody(request));
  });
}
