import { Link } from "@remix-run/react";

/** The list's title and its actions on the selection (the buttons post the list's form without JavaScript). */
export function ListToolbar({
  canBulkUpload,
  printable,
  despatchable,
  paused,
  hydrated,
  printLabels,
  despatch,
  setAutoOpen,
}: {
  canBulkUpload: boolean;
  printable: boolean;
  despatchable: boolean;
  paused: boolean;
  hydrated: boolean;
  printLabels: () => Promise<void>;
  despatch: (printManifest: boolean) => Promise<void>;
  setAutoOpen: (open: boolean) => void;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <h1 className="text-xl font-semibold">Consignments</h1>
      <div role="toolbar" aria-label="Consignment actions" className="flex flex-wrap gap-2">
        <Link to="/" className="btn-primary">
          New
        </Link>
        <button type="submit" form="consignment-list-form" name="intent" value="delete" className="btn">
          Delete
        </button>
        {canBulkUpload ? (
          <Link to="/bulk_upload" className="btn">
            Bulk Uploader
          </Link>
        ) : null}
        <button
          type="submit"
          form="consignment-list-form"
          formAction="/print/labels"
          formMethod="post"
          formTarget="_blank"
          className="btn"
          disabled={!printable}
          title={printable ? undefined : "Labels cannot be printed for consignments that are not ready"}
          aria-keyshortcuts="Alt+L"
          onClick={
            hydrated
              ? (e) => {
                  e.preventDefault();
                  void printLabels();
                }
              : undefined
          }
        >
          Print Labels
        </button>
        <button type="button" className="btn" disabled={!hydrated} onClick={() => setAutoOpen(true)}>
          Auto Labels
        </button>
        {(["despatch", "despatch_manifest"] as const).map((intent) => (
          <button
            key={intent}
            type="submit"
            form="consignment-list-form"
            name="intent"
            value={intent}
            className={intent === "despatch" ? "btn-primary" : "btn"}
            disabled={!despatchable || paused}
            title={despatchable ? undefined : "Consignments in this list cannot be despatched yet"}
            aria-keyshortcuts={intent === "despatch" ? "Alt+D" : "Alt+M"}
            onClick={
              hydrated
                ? (e) => {
                    e.preventDefault();
                    void despatch(intent === "despatch_manifest");
                  }
                : undefined
            }
          >
            {intent === "despatch" ? "Despatch" : "Despatch + Print Manifest"}
          </button>
        ))}
      </div>
    </div>
  );
}
