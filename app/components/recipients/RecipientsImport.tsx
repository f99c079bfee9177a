import { Form, useNavigation } from "@remix-run/react";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "~/utils/upload-limits";
import { MAX_RECIPIENT_ROWS, MAX_RECIPIENTS_UNPACKED_BYTES, RECIPIENT_COLUMNS, REQUIRED_COLUMNS } from "~/modules/recipients/limits";

const MB = 1024 * 1024;

/** Import from a csv or gz file, and (for customers with global recipients) from the customer's sites. */
export function RecipientsImport({ globalRecipients, fileError }: { globalRecipients: boolean; fileError?: string }) {
  const busy = useNavigation().state === "submitting";
  return (
    <section className="card space-y-3" aria-label="Import recipients">
      <h2 className="font-semibold">Import recipients</h2>
      <Form method="post" encType="multipart/form-data" className="space-y-2" aria-label="Import from a file">
        <p className="text-sm text-slate-600">
          A csv or gz file of at most {MAX_RECIPIENT_ROWS.toLocaleString("en-AU")} recipients (at most {MAX_UPLOAD_BYTES / MB} MB; a gz file may unpack to{" "}
          {MAX_RECIPIENTS_UNPACKED_BYTES / MB} MB) with a header line naming the columns {RECIPIENT_COLUMNS.join(", ")}. Required: {REQUIRED_COLUMNS.join(", ")}. Lines with
          errors are skipped and listed; the others are added. The file is imported in the background: its progress and result show on this page. An export imports back.
        </p>
        <label htmlFor="recipients-file" className="label">
          File
        </label>
        <input
          id="recipients-file"
          name="file"
          type="file"
          accept=".csv,.gz,text/csv,application/gzip"
          required
          className="text-sm"
          aria-invalid={Boolean(fileError)}
          aria-describedby={fileError ? "recipients-file-error" : undefined}
          onChange={(event) => {
            const input = event.currentTarget;
            const file = input.files?.[0];
            input.setCustomValidity(file && file.size > MAX_UPLOAD_BYTES ? FILE_TOO_LARGE : "");
            input.reportValidity();
          }}
        />
        {fileError ? (
          <p id="recipients-file-error" className="field-error">
            {fileError}
          </p>
        ) : null}
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Uploading..." : "Import file"}
        </button>
      </Form>
      {globalRecipients ? (
        <Form method="post" aria-label="Import from sites">
          <input type="hidden" name="intent" value="import_sites" />
          <button type="submit" className="btn" disabled={busy}>
            Import from sites
          </button>
        </Form>
      ) : null}
    </section>
  );
}
