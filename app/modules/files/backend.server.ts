/**
 * What holds a stored file's bytes (docs/decisions/037). The `files` row, in PostgreSQL always,
 * holds the metadata and names its backend (`storage`); the bytes are in `file_chunks` ('db') or
 * in an S3 bucket ('s3'). FILE_STORE chooses where new files go; each file is read from the
 * backend its row names, so files written before a switch stay readable.
 */
import type { DbOrTx } from "../../../db/client.server";
import type { FileStorage } from "../../../db/schema";
import { env, type Env } from "../../utils/env.server";

/** Whether `id` is a file id (a UUID) at all: one that is not names no file, and is never put in SQL. */
export const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

export const FILE_MISSING = "The file is no longer available.";
export const FILE_DAMAGED = "The stored file is damaged and cannot be read.";
export const FILE_UNAVAILABLE = "The file store cannot be reached just now. Please try again later.";

/** What a backend needs to know of a file. */
export interface FileBytes {
  id: string;
  size: number;
  contentType: string;
}

export interface ContentBackend {
  /**
   * Stores file `id`'s bytes as they come, never all at once. `bytes` throws to refuse the file
   * (over its limit); the backend then keeps nothing of it and throws that error on.
   */
  write(db: DbOrTx, file: FileBytes, bytes: AsyncIterable<Buffer>): Promise<void>;
  /** Whether all `file.size` bytes are there, judged by length alone (no byte is read). */
  complete(db: DbOrTx, file: FileBytes): Promise<boolean>;
  /** The bytes in order as they are read; ends short when some are missing (the caller checks). */
  read(db: DbOrTx, file: FileBytes): AsyncIterable<Buffer>;
}

export interface S3Settings {
  bucket: string;
  /** an S3-compatible server's address; addressed path-style (http://host/bucket/key) */
  endpoint?: string;
  region: string;
  /** both or neither; neither: the SDK's default chain (environment, profile, instance role) */
  accessKeyId?: string;
  secretAccessKey?: string;
}

export interface FileStoreSettings {
  /** where new files go */
  writeTo: FileStorage;
  /** the bucket, when one is configured (to write to, or to read files written there before) */
  s3: S3Settings | null;
}

/** FILE_STORE and FILE_STORE_S3_*, already validated by env() (a bucket without FILE_STORE=s3 is read from still). */
export function settingsFromEnv(e: Pick<Env, "FILE_STORE" | "FILE_STORE_S3_BUCKET" | "FILE_STORE_S3_ENDPOINT" | "FILE_STORE_S3_REGION" | "FILE_STORE_S3_ACCESS_KEY_ID" | "FILE_STORE_S3_SECRET_ACCESS_KEY">): FileStoreSettings {
  const s3 = e.FILE_STORE_S3_BUCKET
    ? {
        bucket: e.FILE_STORE_S3_BUCKET,
        endpoint: e.FILE_STORE_S3_ENDPOINT,
        // an S3-compatible server mostly ignores the region, but the request signature names one
        region: e.FILE_STORE_S3_REGION ?? "us-east-1",
        accessKeyId: e.FILE_STORE_S3_ACCESS_KEY_ID,
        secretAccessKey: e.FILE_STORE_S3_SECRET_ACCESS_KEY,
      }
    : null;
  return { writeTo: e.FILE_STORE === "s3" ? "s3" : "db", s3 };
}

let settings: FileStoreSettings | undefined;

export function fileStoreSettings(): FileStoreSettings {
  return (settings ??= settingsFromEnv(env()));
}

/** For tests and the bench: choose the store in this process; null reads the environment again. */
export function chooseFileStore(next: FileStoreSettings | null): void {
  settings = next ?? undefined;
}
