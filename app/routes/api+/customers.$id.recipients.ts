import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { requestDeleteAll } from "~/modules/recipients/delete-all.server";
import { recipientListQuery } from "~/modules/recipients/query";
import { listRecipients, recipientsCustomer, saveRecipientOf } from "~/modules/recipients/recipients.server";
import { api, assertMethod, readBody, readQueryObject } from "~/utils/http.server";
import { idParam, parseOrThrow } from "~/utils/validation";

/** GET /api/customers/{id}/recipients?limit=40&offset=0&q=: a page of the address book by name. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const customer = await recipientsCustomer(context.db, user, idParam(params.id, "Customer id"));
    return listRecipients(context.db, customer.id, parseOrThrow(recipientListQuery, readQueryObject(request)));
  });
}

/** POST: a new recipient (201); DELETE: the whole address book, as a job ({ job_id }). Both need the right to edit. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST", "DELETE");
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    if (request.method === "DELETE") return Response.json(await requestDeleteAll(context.db, context.queue, user, customerId), { status: 202 });
    return Response.json(await saveRecipientOf(context.db, user, customerId, null, await readBody(request)), { status: 201 });
  });
}
