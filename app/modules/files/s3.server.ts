/**
 * The S3 backend (docs/decisions/037): a file's bytes are the object `files/<id>` in the bucket.
 * The AWS SDK is imported on first use, so a process on the database store never loads it.
 * Writes stream through lib-storage's multipart Upload one 5 MB part at a time; reads stream the
 * GetObject body. A server that cannot be reached answers FILE_UNAVAILABLE (409), logged.
 */
import { Readable } from "node:stream";
import { inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { fileObjectsGone, files } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { rowsOf } from "../../utils/sql-rows";
import { fileStoreSettings, FILE_UNAVAILABLE, type ContentBackend, type S3Settings } from "./backend.server";

/** S3's smallest part: one is held while it is sent (queue of one), so a 10 MB file is never whole. */
const PART_BYTES = 5 * 1024 * 1024;
const PREFIX = "files/";

export const objectKey = (id: string) => `${PREFIX}${id}`;

type Sdk = typeof import("@aws-sdk/client-s3");
type Storage = typeof import("@aws-sdk/lib-storage");
interface Connection {
  sdk: Sdk;
  Upload: Storage["Upload"];
  client: InstanceType<Sdk["S3Client"]>;
  bucket: string;
}

const connections = new WeakMap<S3Settings, Promise<Connection>>();

async function open(s: S3Settings): Promise<Connection> {
  const [sdk, storage] = await Promise.all([import("@aws-sdk/client-s3"), import("@aws-sdk/lib-storage")]);
  const client = new sdk.S3Client({
    region: s.region,
    // an S3-compatible server: path-style (no bucket subdomain to resolve), and checksums only where
    // S3 requires them (many such servers refuse the SDK's newer default of a checksum on every request)
    ...(s.endpoint ? { endpoint: s.endpoint, forcePathStyle: true, requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" } : {}),
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
    // a server that does not answer fails the request in seconds instead of holding it open
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 120_000 },
  });
  return { sdk, Upload: storage.Upload, client, bucket: s.bucket };
}

function connect(): Promise<Connection> {
  const s = fileStoreSettings().s3;
  if (!s) {
    console.error("[files] a file is kept in S3 but no bucket is configured (FILE_STORE_S3_BUCKET)");
    throw new AppError("conflict", FILE_UNAVAILABLE);
  }
  let c = connections.get(s);
  if (!c) {
    c = open(s);
    connections.set(s, c);
  }
  return c;
}

/** The object is not there (its bucket answers, the key does not). */
function isMissing(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } };
  return err?.name === "NoSuchKey" || err?.name === "NotFound" || err?.$metadata?.httpStatusCode === 404;
}

function unavailable(what: string, id: string, e: unknown): AppError {
  console.error(`[files] S3 ${what} ${objectKey(id)} failed:`, e instanceof Error ? `${e.name}: ${e.message}` : e);
  return new AppError("conflict", FILE_UNAVAILABLE);
}

export const s3Backend: ContentBackend = {
  async write(_db, file, bytes) {
    const { client, Upload, bucket } = await connect();
    // the source's own refusal (over its limit) is answered as it is, not as an S3 failure
    let refused: unknown;
    async function* watched() {
      try {
        yield* bytes;
      } catch (e) {
        refused = e;
        throw e;
      }
    }
    const upload = new Upload({
      client,
      params: { Bucket: bucket, Key: objectKey(file.id), Body: Readable.from(watched(), { objectMode: false }), ContentType: file.contentType },
      partSize: PART_BYTES,
      queueSize: 1,
      // a failed upload is aborted: S3 keeps no part of it
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (e) {
      if (refused !== undefined) throw refused;
      throw unavailable("upload of", file.id, e);
    }
  },

  async complete(_db, file) {
    const { sdk, client, bucket } = await connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: bucket, Key: objectKey(file.id) }));
      return head.ContentLength === file.size;
    } catch (e) {
      if (isMissing(e)) return false;
      throw unavailable("look-up of", file.id, e);
    }
  },

  async *read(_db, file) {
    const { sdk, client, bucket } = await connect();
    let body: Readable;
    try {
      body = (await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: objectKey(file.id) }))).Body as Readable;
    } catch (e) {
      if (isMissing(e)) return;
      throw unavailable("read of", file.id, e);
    }
    try {
      for await (const piece of body) yield piece as Buffer;
    } catch (e) {
      throw unavailable("read of", file.id, e);
    } finally {
      // a reader that stopped early (a download cancelled) hands the connection back
      body.destroy();
    }
  },
};

/** How long the bucket may take to answer a readiness check before it counts as unreachable. */
export const BUCKET_CHECK_MS = 2_000;

/**
 * For GET /readyz: "database" when no bucket is configured (nothing to ask), else whether the
 * bucket answers a HEAD within BUCKET_CHECK_MS. A process that cannot reach the bucket it writes
 * to or reads from cannot serve a document, so it is not ready.
 */
export async function fileStoreReachable(): Promise<"database" | "ok" | "unreachable"> {
  if (!fileStoreSettings().s3) return "database";
  try {
    const { sdk, client, bucket } = await connect();
    await client.send(new sdk.HeadBucketCommand({ Bucket: bucket }), { abortSignal: AbortSignal.timeout(BUCKET_CHECK_MS) });
    return "ok";
  } catch (e) {
    console.error("[files] readiness: the S3 bucket does not answer:", e instanceof Error ? `${e.name}: ${e.message}` : e);
    return "unreachable";
  }
}

/**
 * Deletes the objects of S3 files whose rows are gone (listed by the trigger of migration 0031),
 * then their entries; answers how many. Only for committed deletions: called on the database, never
 * in a transaction (a rollback there would bring back a row whose object was already deleted).
 * An unreachable store leaves the list for the next sweep.
 */
export async function deleteGoneObjects(db: DbOrTx, only?: string[]): Promise<number> {
  let deleted = 0;
  for (;;) {
    const gone = await db
      .select({ id: fileObjectsGone.fileId })
      .from(fileObjectsGone)
      .where(only ? inArray(fileObjectsGone.fileId, only) : undefined)
      .limit(1000);
    if (!gone.length) return deleted;
    let failed: Set<string>;
    try {
      failed = await deleteObjects(gone.map((g) => g.id));
    } catch (e) {
      console.error(`[files] deleting ${gone.length} S3 object(s) of deleted files failed; left for the next sweep:`, e instanceof Error ? `${e.name}: ${e.message}` : e);
      return deleted;
    }
    const done = gone.map((g) => g.id).filter((id) => !failed.has(id));
    if (done.length) await db.delete(fileObjectsGone).where(inArray(fileObjectsGone.fileId, done));
    deleted += done.length;
    // the rest failed one by one (logged): stop rather than ask again for the same ones
    if (done.length < gone.length || only) return deleted;
  }
}

/** Deletes the objects of these files (a missing one counts as deleted); answers the ids that failed. */
async function deleteObjects(ids: string[]): Promise<Set<string>> {
  const { sdk, client, bucket } = await connect();
  const out = await client.send(new sdk.DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: ids.map((id) => ({ Key: objectKey(id) })), Quiet: true } }));
  const failed = new Set<string>();
  for (const err of out.Errors ?? []) {
    console.error(`[files] S3 delete of ${err.Key} failed: ${err.Code} ${err.Message}`);
    if (err.Key?.startsWith(PREFIX)) failed.add(err.Key.slice(PREFIX.length));
  }
  return failed;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Deletes objects older than `before` that no row names: written by a transaction that then rolled
 * back (the object is written before its row commits). `before` lies further back than any
 * transaction runs, so an object whose row is not committed yet is never taken. Only keys of this
 * store's shape (files/<uuid>) are considered. Answers how many went.
 */
export async function removeOrphanObjects(db: DbOrTx, before: Date): Promise<number> {
  const { sdk, client, bucket } = await connect();
  let removed = 0;
  let token: string | undefined;
  do {
    const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: bucket, Prefix: PREFIX, ContinuationToken: token }));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
    const old = (page.Contents ?? [])
      .filter((o) => o.Key && o.LastModified && o.LastModified < before && UUID.test(o.Key.slice(PREFIX.length)))
      .map((o) => o.Key!.slice(PREFIX.length));
    if (!old.length) continue;
    const ids = sql.join(old.map((id) => sql`${id}::uuid`), sql`, `);
    const known = new Set(rowsOf<{ id: string }>(await db.execute(sql`select id::text as id from ${files} where id in (${ids})`)).map((r) => r.id));
    const orphans = old.filter((id) => !known.has(id));
    if (!orphans.length) continue;
    const failed = await deleteObjects(orphans);
    removed += orphans.length - failed.size;
  } while (token);
  return removed;
}
