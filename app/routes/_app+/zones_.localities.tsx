import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { UploadErrors } from "~/components/UploadErrors";
import { requireStaff } from "~/modules/auth/guard.server";
import { importLocalitiesCsv } from "~/modules/localities/localities.server";
import { MAX_UPLOAD_BYTES } from "~/utils/csv.server";
import { AppError } from "~/utils/errors";

export const meta: MetaFunction = () => [{ title: "Import localities · FreightDesk" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(context, request);
  return null;
}

type Outcome = { alerts: Alert[]; skipped: Array<{ line: number; errors: string[] }>; skippedTotal: number };

/** Staff extend any country's localities from a CSV file (the same import as POST /api/localities/import). */
export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(context, request);
  if (Number(request.headers.get("content-length") ?? 0) > MAX_UPLOAD_BYTES) {
    return data<Outcome>({ alerts: [{ type: "error", message: "The file is larger than 10 MB." }], skipped: [], skippedTotal: 0 }, { status: 422 });
  }
  const file = (await request.formData()).get("file");
  if (!(file instanceof File) || file.size === 0 || !/\.csv$/i.test(file.name)) {
    return data<Outcome>({ alerts: [{ type: "error", message: "Choose a csv file to import." }], skipped: [], skippedTotal: 0 }, { status: 422 });
  }
  try {
    const report = await importLocalitiesCsv(context.db, await file.text());
    return data<Outcome>({
      alerts: [{ type: report.skipped_total ? "warning" : "success", message: `Localities imported: ${report.created} added, ${report.updated} updated, ${report.skipped_total} skipped.` }],
      skipped: report.skipped,
      skippedTotal: report.skipped_total,
    });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return data<Outcome>({ alerts: [{ type: "error", message: e.message }], skipped: [], skippedTotal: 0 }, { status: e.status });
  }
}

export default function ImportLocalities() {
  const outcome = useActionData<typeof action>() as Outcome | undefined;
  const navigation = useNavigation();
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">Import localities</h1>
        <Link to="/zones" className="btn">
          Back to zones
        </Link>
      </div>
      <Alerts alerts={outcome?.alerts ?? []} />
      <UploadErrors lines={outcome?.skipped ?? []} total={outcome?.skippedTotal} />
      <Form method="post" encType="multipart/form-data" className="card space-y-3" aria-label="Import localities">
        <p className="text-sm text-slate-600">
          A csv file with the columns country (AUSTRALIA, NEW ZEALAND or UNITED STATES OF AMERICA), locality, sublocality, postcode, region, latitude,
          longitude. A place already known (same country, postcode, locality and sublocality) is updated; others are added. Lines with errors are
          skipped and listed.
        </p>
        <label htmlFor="locality-file" className="label">
          File
        </label>
        <input id="locality-file" name="file" type="file" accept=".csv,text/csv" required className="text-sm" />
        <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Importing..." : "Import"}
        </button>
      </Form>
    </div>
  );
}
