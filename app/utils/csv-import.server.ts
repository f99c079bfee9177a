import { data } from "@remix-run/node";
import type { Alert } from "~/components/Alerts";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "./upload-limits";
import { AppError } from "./errors";

export type CsvImportOutcome = { alerts: Alert[]; skipped: Array<{ line: number; errors: string[] }>; skippedTotal: number };

/**
 * The action of a staff CSV import screen: the posted file through `importer`, answered with a
 * summary alert and the skipped lines (the same imports as their /api calls).
 */
export async function csvImportAction(
  request: Request,
  noun: string,
  importer: (text: string) => Promise<{ created: number; updated: number; skipped: CsvImportOutcome["skipped"]; skipped_total: number }>,
) {
  const fail = (message: string, status = 422) => data<CsvImportOutcome>({ alerts: [{ type: "error", message }], skipped: [], skippedTotal: 0 }, { status });
  if (Number(request.headers.get("content-length") ?? 0) > MAX_UPLOAD_BYTES) return fail(FILE_TOO_LARGE);
  const form = await request.formData().catch(() => null);
  if (!form) return fail("The upload could not be read; choose the file again.", 400);
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0 || !/\.csv$/i.test(file.name)) return fail("Choose a csv file to import.");
  try {
    const report = await importer(await file.text());
    return data<CsvImportOutcome>({
      alerts: [{ type: report.skipped_total ? "warning" : "success", message: `${noun} imported: ${report.created} added, ${report.updated} updated, ${report.skipped_total} skipped.` }],
      skipped: report.skipped,
      skippedTotal: report.skipped_total,
    });
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return fail(e.message, e.status);
  }
}
