import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { csvDownload, exportItemTypes, itemTypeTemplate } from "~/modules/item-types/import-export.server";
import { itemTypeCustomer } from "~/modules/item-types/item-types.server";
import { api, readQuery } from "~/utils/http.server";
import { idParam } from "~/utils/validation";

/** GET /api/customers/{id}/item_types/export: the item types as CSV; `?template=1`: the Import Template. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const customerId = idParam(params.id, "Customer id");
    if (readQuery(request).has("template")) {
      await itemTypeCustomer(context.db, user, customerId);
      return csvDownload(await itemTypeTemplate(), "item_types_template.csv");
    }
    return csvDownload(await exportItemTypes(context.db, user, customerId), `item_types_${customerId}.csv`);
  });
}
