/**
 * Where a recipients file waits for its import job: the file store (docs/decisions/030), as sent
 * (a .gz still packed), named by the job's payload; any host's worker reads it as a stream. It
 * expires as the bulk upload's files do, and is removed when its job ends.
 */
import type { Readable } from "node:stream";
import type { DbOrTx } from "../../../db/client.server";
import { deleteFile, openFile } from "../files/index.server";
import { requireUpload, storeUpload, UPLOAD_GONE } from "../bulk-upload/files.server";

/** Stores the file for `customerId`'s import job; answers its id. */
export async function storeRecipientsFile(db: DbOrTx, customerId: number, upload: { bytes: Uint8Array; fileName: string }): Promise<string> {
  const file = await storeUpload(db, { kind: "recipients_upload", name: upload.fileName, customerId }, upload.bytes);
  return file.id;
}

/** The stored file of `customerId`'s import as a stream (read a chunk at a time as it is consumed); gone, UPLOAD_GONE. */
export async function openRecipientsFile(db: DbOrTx, id: string, customerId: number): Promise<Readable> {
  const file = await requireUpload(db, id, "recipients import");
  if (file.kind !== "recipients_upload" || file.customerId !== customerId) throw new Error(UPLOAD_GONE);
  return openFile(db, file);
}

export const removeRecipientsFile = (db: DbOrTx, id: string): Promise<void> => deleteFile(db, id);
