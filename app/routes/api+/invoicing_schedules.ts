import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { createSchedule, listSchedules } from "~/modules/invoicing/schedules.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/** GET /api/invoicing_schedules: the schedules the user may see (finance users). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    return { invoicing_schedules: await listSchedules(context.db, user) };
  });
}

/** POST /api/invoicing_schedules { period, options: { invoice_detail_ids, invoicing_options } } (invoice admins). */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireFinanceApi(context, request, { admin: true });
    return { invoicing_schedule: await createSchedule(context.db, user, await readBody(request)) };
  });
}
