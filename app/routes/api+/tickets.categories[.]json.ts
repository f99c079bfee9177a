import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { categoriesFor } from "~/modules/enquiries/categories.server";
import { api } from "~/utils/http.server";

/** GET /api/tickets/categories.json: the enquiry types of the user's (working) customer, in order. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return { categories: await categoriesFor(context.db, user) };
  });
}
