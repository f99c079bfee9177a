/** Lines an import skipped (spec 2 section 8: "Upload Errors", the first 100 shown). */
export function UploadErrors({ lines, total }: { lines: Array<{ line: number | string; errors: string[] }>; total?: number }) {
  if (!lines.length) return null;
  return (
    <section className="card" aria-label="Upload Errors">
      <h2 className="font-semibold">Upload Errors</h2>
      <p className="text-sm text-slate-600">
        The following lines were skipped due to errors{total && total > lines.length ? ` (the first ${lines.length} of ${total} are shown)` : ""}
      </p>
      <ul className="mt-2 text-sm">
        {lines.slice(0, 100).map((l) => (
          <li key={l.line}>
            {typeof l.line === "number" ? `line ${l.line}` : l.line}: {l.errors.join("; ")}
          </li>
        ))}
      </ul>
    </section>
  );
}
