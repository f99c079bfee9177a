import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { saveConsignment } from "~/modules/consignments/consignments.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

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

export function loader() {
  return Response.json({ errors: { base: ["Use POST to create a consignment, or GET /api/consignments/{id}."] } }, { status: 405, headers: { Allow: "POST" } });
}
