import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { saveConsignment } from "~/modules/consignments/save.server";
import { apiListConsignments } from "~/modules/consignments/list-api.server";
import { api, assertMethod, readBody, readQuery } from "~/utils/http.server";

/**
 * POST /api/consignments: creates a consignment from the consignment object of spec 1 section 3
 * (nested sender_address, receiver_address and items). It is priced on the server; without a
 * chosen carrier_code and service_code the selection rules choose. Answers the saved consignment.
 */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    const body = await readBody(request);
    // is_quote: true saves a quote (state quote) instead of a consignment
    const { consignment } = await saveConsignment(context.db, user, null, body, { isQuote: body.is_quote === true || body.is_quote === "true" });
    return Response.json(consignment, { status: 201 });
  });
}

/**
 * GET /api/consignments?filter&siteId|site&dateFilter&service_code&returns&auto_printing&sort&dir&after&limit:
 * the consignment list's rows and { meta: date_start, date_end, returns, outbounds, warning, next }.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return apiListConsignments(context.db, user, readQuery(request));
  });
}
