import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { CsvImportPage } from "~/components/CsvImportPage";
import { requireStaff } from "~/modules/auth/guard.server";
import { importLocalitiesCsv } from "~/modules/localities/localities.server";
import { csvImportAction } from "~/utils/csv-import.server";

export const meta: MetaFunction = () => [{ title: "Import localities · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(context, request);
  return null;
}

/** Staff extend any country's localities from a CSV file (the same import as POST /api/localities/import). */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(context, request);
  return csvImportAction(request, "Localities", (text) => importLocalitiesCsv(context.db, text));
}

export default function ImportLocalities() {
  return (
    <CsvImportPage title="Import localities">
      A csv file with the columns country (AUSTRALIA, NEW ZEALAND or UNITED STATES OF AMERICA), locality, sublocality, postcode, region, latitude, longitude. A
      place already known (same country, postcode, locality and sublocality) is updated; others are added. Lines with errors are skipped and listed.
    </CsvImportPage>
  );
}
