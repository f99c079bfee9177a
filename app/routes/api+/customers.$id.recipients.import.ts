import type { ActionFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { importRecipients } from "~/modules/recipients/import.server";
import { recipientsCustomerToEdit } from "~/modules/recipients/recipients.server";
import { readRecipientsUpload } from "~/modules/recipients/upload.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/**
 * POST /api/customers/{id}/recipients/import: a csv or gz file (multipart `file`, or a text/csv or
 * application/gzip body) added to the address book; answers { created, updated, skipped, skipped_total }.
 */
export async function action({ request, context, params }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    // who may import is settled before the upload is read
    const customer = await recipientsCustomerToEdit(context.db, user, idParam(params.id, "Customer id"));
    return importRecipients(context.db, customer.id, await readRecipientsUpload(request));
  });
}

export const loader = methodNotAllowed("POST");
