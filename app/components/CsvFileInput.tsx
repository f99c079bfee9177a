import { MAX_UPLOAD_BYTES, FILE_TOO_LARGE } from "~/utils/upload-limits";

/**
 * A CSV file input that refuses a file over the upload limit as soon as it is chosen: the form
 * then will not submit and the browser shows the message at the field. Without JavaScript the
 * server's own check answers instead.
 */
export function CsvFileInput({ id, describedBy }: { id: string; /** the id of the field's error, when it has one */ describedBy?: string }) {
  return (
    <input
      id={id}
      name="file"
      type="file"
      accept=".csv,text/csv"
      required
      aria-describedby={describedBy}
      aria-invalid={describedBy ? true : undefined}
      className="text-sm"
      onChange={(event) => {
        const input = event.currentTarget;
        const file = input.files?.[0];
        input.setCustomValidity(file && file.size > MAX_UPLOAD_BYTES ? FILE_TOO_LARGE : "");
        input.reportValidity();
      }}
    />
  );
}
