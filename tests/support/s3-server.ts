/**
 * An S3-compatible server for a test (s3rver, from npm): on a free port of 127.0.0.1, in a
 * temporary directory of its own, silent, with one empty bucket. `received()` counts the bytes it
 * has stored (whole objects and multipart parts), so a test can see how far an upload has come.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";

interface S3rverStore {
  putObject(...args: unknown[]): Promise<{ size: number }>;
  putPart(...args: unknown[]): Promise<{ size: number }>;
  putObjectMultipart(...args: unknown[]): Promise<{ size: number }>;
}
interface S3rver {
  store: S3rverStore;
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: { address: string; port: number; silent: boolean; directory: string; configureBuckets: { name: string }[] }) => S3rver;

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  /** bytes stored so far: objects put whole and parts of multipart uploads (not their assembly) */
  received(): number;
  close(): Promise<void>;
}

export async function startS3Server(bucket = "freightdesk-test"): Promise<S3TestServer> {
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  const directory = mkdtempSync(path.join(os.tmpdir(), "fd-s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] });
  let received = 0;
  const store = server.store;
  const count =
    (put: (...args: unknown[]) => Promise<{ size: number }>) =>
    async (...args: unknown[]) => {
      const r = await put(...args);
      received += r.size;
      return r;
    };
  // a multipart upload's assembly calls putObject too: its bytes were counted as parts
  const assemble = store.putObjectMultipart.bind(store);
  const putObject = store.putObject.bind(store);
  let assembling = 0;
  store.putObject = async (...args) => (assembling ? putObject(...args) : count(putObject)(...args));
  store.putPart = count(store.putPart.bind(store));
  store.putObjectMultipart = async (...args) => {
    assembling += 1;
    try {
      return await assemble(...args);
    } finally {
      assembling -= 1;
    }
  };
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    received: () => received,
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
