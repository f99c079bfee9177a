import type { LoaderFunctionArgs } from "@remix-run/node";
import { exportMapping } from "~/modules/allocation/mapping.server";
import { requireFinanceApi } from "~/modules/invoices/guard.server";
import { csvDownload } from "~/modules/item-types/import-export.server";
import { api, readQuery } from "~/utils/http.server";

/** GET /api/allocation_rules/sapphire_mapping_export?carrier_code: the Mapping rules as a csv download. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireFinanceApi(context, request);
    const code = readQuery(request).get("carrier_code") || null;
    return csvDownload(await exportMapping(context.db, user, code), `allocation_mapping${code ? `_${code}` : ""}.csv`);
  });
}
