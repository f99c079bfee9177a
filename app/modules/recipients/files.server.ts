/**
 * Where a recipients file waits for its import job: the bulk upload's directory (BULK_UPLOADS_DIR,
 * shared by the web process and the worker), as sent (a .gz still packed), under a random name;
 * removed when its job ends. (Uploads are to move into the database's file store: docs/decisions/026.)
 */
import { randomUUID } from "node:crypto";
import { createReadStream, type ReadStream } from "node:fs";
import { mkdir, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { uploadsDir } from "../bulk-upload/files.server";

/** A stored name is ours (prefix, uuid, extension): nothing else is ever opened from the directory. */
function pathOf(name: string): string {
  if (!/^recipients-[0-9a-f-]{36}\.csv(\.gz)?$/.test(name)) throw new Error("Not a stored recipients file");
  return join(uploadsDir(), name);
}

export async function storeRecipientsFile(bytes: Uint8Array, gz: boolean): Promise<string> {
  await mkdir(uploadsDir(), { recursive: true });
  const name = `recipients-${randomUUID()}.csv${gz ? ".gz" : ""}`;
  await writeFile(pathOf(name), bytes);
  return name;
}

/** The stored file as a stream (read as it is consumed). */
export const openRecipientsFile = (name: string): ReadStream => createReadStream(pathOf(name));

export async function removeRecipientsFile(name: string): Promise<void> {
  await unlink(pathOf(name)).catch(() => {});
}
