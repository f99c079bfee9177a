import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { printerFor } from "~/modules/printing/printers.server";
import { api, readQueryObject } from "~/utils/http.server";

/** GET /api/printers/type/{type}?printable_type&printable_id: the user's printer of that kind and the document address for it. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return printerFor(context.db, user, { ...readQueryObject(request), type: params.type });
  });
}
