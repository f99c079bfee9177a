import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { CsvImportPage } from "~/components/CsvImportPage";
import { requireStaff } from "~/modules/auth/guard.server";
import { importDangerousGoodsCsv } from "~/modules/dangerous-goods/dangerous-goods.server";
import { csvImportAction } from "~/utils/csv-import.server";

export const meta: MetaFunction = () => [{ title: "Import dangerous goods · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(context, request);
  return null;
}

/** Staff extend the dangerous goods list from a CSV file (the same import as POST /api/dangerous_goods_types/import). */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(context, request);
  return csvImportAction(request, "Dangerous goods entries", (text) => importDangerousGoodsCsv(context.db, text));
}

export default function ImportDangerousGoods() {
  return (
    <CsvImportPage title="Import dangerous goods">
      A csv file with the columns un_number (4 digits, UN prefix allowed), proper_shipping_name, hazard_class, sub_risk, packing_group (I, II or III) and nos
      (true for not-otherwise-specified entries, which then need a technical name on a consignment). An entry already known (same UN number and proper
      shipping name) is updated; others are added. Lines with errors are skipped and listed.
    </CsvImportPage>
  );
}
