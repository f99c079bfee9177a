import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { listPrinters, saveConfiguration } from "~/modules/printing/printers.server";
import { api, assertMethod, readBody } from "~/utils/http.server";

/** GET /api/printers: the customer's printers and the user's configuration. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    return listPrinters(context.db, user);
  });
}

/** POST /api/printers { label_printer_id, manifest_printer_id, connote_printer_id }: saves the user's configuration. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    const { user } = await requireApiUser(context, request);
    return saveConfiguration(context.db, user, await readBody(request));
  });
}
