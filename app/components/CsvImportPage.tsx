import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import type { ReactNode } from "react";
import { Alerts } from "~/components/Alerts";
import { UploadErrors } from "~/components/UploadErrors";
import { CsvFileInput } from "~/components/CsvFileInput";
import type { CsvImportOutcome } from "~/utils/csv-import.server";

/** A staff CSV import screen: what the file holds, the file, and the report of what happened. */
export function CsvImportPage({ title, children }: { title: string; children: ReactNode }) {
  const outcome = useActionData() as CsvImportOutcome | undefined;
  const navigation = useNavigation();
  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold">{title}</h1>
        <Link to="/zones" className="btn">
          Back to zones
        </Link>
      </div>
      <Alerts alerts={outcome?.alerts ?? []} />
      <UploadErrors lines={outcome?.skipped ?? []} total={outcome?.skippedTotal} />
      <Form method="post" encType="multipart/form-data" className="card space-y-3" aria-label={title}>
        <p className="text-sm text-slate-600">{children}</p>
        <label htmlFor="import-file" className="label">
          File
        </label>
        <CsvFileInput id="import-file" />
        <button type="submit" className="btn-primary" disabled={navigation.state === "submitting"}>
          {navigation.state === "submitting" ? "Importing..." : "Import"}
        </button>
      </Form>
    </div>
  );
}
