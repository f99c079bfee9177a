/** The /bulk_upload screen: what it shows (the kinds the user may upload, an upload's progress and result) and its two forms. */
import type { DbOrTx } from "../../../db/client.server";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { canBulkRedespatch } from "../auth/roles";
import { readCsvUpload } from "../../utils/csv.server";
import { pageId } from "../../utils/ids";
import { assertMayBulkUpload, bulkUploadMappings } from "./mappings.server";
import { mappingsJson } from "./columns";
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
  const kinds = kindsFor(user);
  // the columns and the codes the file may use, read on the screen as tables (not raw JSON)
  const services = kinds.length ? ((await bulkUploadMappings(db, user, { type: "services" })) as { services: ServiceCode[] }).services : [];
  return {
    kinds,
    columns: kinds.length ? mappingsJson().mappings : [],
    services,
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

export interface ServiceCode {
  site_code: string;
  carrier_code: string;
  carrier_name: string;
  service_code: string;
  service_name: string;
  needs: string[];
}

export type ScreenOutcome = { kind: "upload"; started: StartedUpload } | { kind: "redespatch"; report: RedespatchReport };

/** An upload (intent import, with `type`) or a bulk redespatch (intent redespatch). */
export async function bulkUploadAction(db: DbOrTx, queue: JobQueue, user: CurrentUser, request: Request): Promise<ScreenOutcome> {
  assertMayOpen(user);
  const { text, filename, fields } = await readCsvUpload(request);
  if (fields.intent === "redespatch") return { kind: "redespatch", report: await bulkRedespatch(db, queue, user, text, filename) };
  return { kind: "upload", started: await startBulkUpload(db, queue, user, { type: fields.type, text, fileName: filename }) };
}
