import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { exportRecipientsCsv } from "~/modules/recipients/export.server";
import { recipientsCustomer } from "~/modules/recipients/recipients.server";
import { api } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/export_recipients/{customerId}: the whole address book as a CSV download (the import's columns). */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return exportRecipientsCsv(context.db, await recipientsCustomer(context.db, user, idParam(params.customerId, "Customer id")));
  });
}
