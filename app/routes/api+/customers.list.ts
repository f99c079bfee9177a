import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { listCustomers } from "~/modules/tenancy/customers.server";
import { api } from "~/utils/http.server";

/** GET /api/customers/list: customers a staff user may switch to, with LIVE / TEST / DISABLED status. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { customers: await listCustomers(context.db, user) };
  });
}
