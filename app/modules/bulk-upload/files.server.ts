/**
 * Where an uploaded file waits for its job: BULK_UPLOADS_DIR (default <os tmpdir>/freightdesk-bulk-
 * uploads), shared by the web process and the worker as the export files are. Named by customer,
 * kind and content hash, so the same file uploaded twice is one file; removed when its job is done.
 */
import { mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const uploadsDir = () => process.env.BULK_UPLOADS_DIR || join(tmpdir(), "freightdesk-bulk-uploads");

interface Stored {
  customerId: number;
  kind: string;
  fingerprint: string;
}

const pathOf = (u: Stored) => {
  if (!/^[0-9a-f]{64}$/.test(u.fingerprint) || !/^[a-z]+$/.test(u.kind)) throw new Error("Not a stored upload");
  return join(uploadsDir(), `${u.customerId}-${u.kind}-${u.fingerprint}.csv`);
};

export async function storeFile(u: Stored, text: string): Promise<void> {
  await mkdir(uploadsDir(), { recursive: true });
  await writeFile(pathOf(u), text, "utf8");
}

export async function readStoredFile(u: Stored): Promise<string> {
  try {
    return await readFile(pathOf(u), "utf8");
  } catch {
    throw new Error("The uploaded file is no longer available: upload it again.");
  }
}

export async function removeStoredFile(u: Stored): Promise<void> {
  await unlink(pathOf(u)).catch(() => {});
}
