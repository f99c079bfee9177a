import type { ActionFunctionArgs } from "@remix-run/node";
import { importMapping } from "~/modules/allocation/mapping.server";
import { MESSAGES } from "~/modules/allocation/schemas";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { readCsvUpload } from "~/utils/csv.server";
import { api, assertMethod, methodNotAllowed } from "~/utils/http.server";

export const loader = methodNotAllowed("POST");

/** POST /api/allocation_rules/sapphire_mapping_import (csv, multipart `file` or text/csv): { message, created, updated }. */
export async function action({ request, context }: ActionFunctionArgs) {
  return api(async () => {
    assertMethod(request, "POST");
    // who may import is decided before the body is read
    const { user } = await requireFinanceApi(context, request, { admin: true });
    const { text } = await readCsvUpload(request);
    return { message: MESSAGES.imported, ...(await importMapping(context.db, user, text)) };
  });
}
