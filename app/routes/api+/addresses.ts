import type { ActionFunctionArgs } from "@remix-run/node";
import { saveRecipient } from "~/modules/addresses/addresses.server";
import { requireApiUser } from "~/modules/auth/guard.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/** POST /api/addresses: adds an address-book entry (recipient); needs can_edit_recipients. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return Response.json(await saveRecipient(context.db, user, null, await readBody(request)), { status: 201 });
  });
}

export function loader() {
  return Response.json({ errors: { base: ["Use GET /api/address_selection to search the address book."] } }, { status: 405, headers: { Allow: "POST" } });
}
