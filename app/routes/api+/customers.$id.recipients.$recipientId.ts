import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { deleteRecipientOf, getRecipientOf, recipientsCustomer, saveRecipientOf } from "~/modules/recipients/recipients.server";
import { api, assertMethod, readBody } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/recipients/{recipientId}: one entry of the address book. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const customer = await recipientsCustomer(context.db, user, idParam(params.id, "Customer id"));
    return getRecipientOf(context.db, customer.id, idParam(params.recipientId, "Recipient id"));
  });
}

/** PUT: edits it; DELETE: takes it out of the address book. Both need the right to edit. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "PUT", "DELETE");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    const id = idParam(params.recipientId, "Recipient id");
    if (request.method === "DELETE") return deleteRecipientOf(context.db, user, customerId, id);
    return saveRecipientOf(context.db, user, customerId, id, await readBody(request));
  });
}
