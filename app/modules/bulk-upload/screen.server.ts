/** The /bulk_upload screen: what it shows (the kinds the user may upload, an upload's progress and result) and its two forms. */
import type { DbOrTx } from "../../../db/client.server";
import type { JobQueue } from "../../../queues/queue.server";
import type { CurrentUser } from "../auth/current-user.server";
import { canBulkRedespatch } from "../auth/roles";
import { readCsvUpload } from "../../utils/csv.server";
import { pageId } from "../../utils/ids";
import { assertMayBulkUpload } from "./mappings.server";
import { kindsFor } from "./kinds";
import type { ImportResult } from "./import.server";
import { bulkRedespatch, type RedespatchReport } from "./redespatch.server";
import { bulkUploadFor, startBulkUpload, type StartedUpload } from "./upload.server";

/** Flag holders upload; admins, super admins and devs may open the screen for its redespatch form alone. */
function assertMayOpen(user: CurrentUser) {
  if (!canBulkRedespatch(user)) assertMayBulkUpload(user);
}

export async function bulkUploadScreen(db: DbOrTx, user: CurrentUser, url: URL) {
  assertMayOpen(user);
  const id = url.searchParams.get("upload");
  const shown = id ? await bulkUploadFor(db, user, pageId(id)) : null;
  return {
    kinds: kindsFor(user),
    canRedespatch: canBulkRedespatch(user),
    upload: shown
      ? {
          id: shown.upload.id,
          kind: shown.upload.kind,
          fileName: shown.upload.fileName,
          duplicate: url.searchParams.has("again"),
          job: { ...shown.job, id: shown.upload.jobId! },
          result: shown.job.status === "complete" ? (shown.job.info as unknown as ImportResult) : null,
        }
      : null,
  };
}

export type ScreenOutcome = { kind: "upload"; started: StartedUpload } | { kind: "redespatch"; report: RedespatchReport };

/** An upload (intent import, with `type`) or a bulk redespatch (intent redespatch). */
export async function bulkUploadAction(db: DbOrTx, queue: JobQueue, user: CurrentUser, request: Request): Promise<ScreenOutcome> {
  assertMayOpen(user);
  const { text, filename, fields } = await readCsvUpload(request);
  if (fields.intent === "redespatch") return { kind: "redespatch", report: await bulkRedespatch(db, queue, user, text, filename) };
  return { kind: "upload", started: await startBulkUpload(db, queue, user, { type: fields.type, text, fileName: filename }) };
}
