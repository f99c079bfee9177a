/**
 * FILE_STORE's settings (docs/decisions/037): checked when the configuration is read, so a web or
 * worker process with FILE_STORE=s3 and no bucket does not start, rather than failing at the
 * first upload. The processes run from the build (`npm run build` first).
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { settingsFromEnv } from "../../app/modules/files/backend.server";
import { env, resetEnvCache } from "../../app/utils/env.server";

const root = path.resolve(import.meta.dirname, "../..");
const VARIABLES = ["FILE_STORE", "FILE_STORE_S3_BUCKET", "FILE_STORE_S3_ENDPOINT", "FILE_STORE_S3_REGION", "FILE_STORE_S3_ACCESS_KEY_ID", "FILE_STORE_S3_SECRET_ACCESS_KEY"];
const saved = Object.fromEntries(VARIABLES.map((v) => [v, process.env[v]]));

function configure(values: Record<string, string>) {
  for (const v of VARIABLES) delete process.env[v];
  Object.assign(process.env, values);
  resetEnvCache();
  return () => env();
}

afterEach(() => {
  for (const v of VARIABLES) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  resetEnvCache();
});

describe("FILE_STORE settings", () => {
  it("unset: the database, no bucket", () => {
    expect(settingsFromEnv(configure({})())).toEqual({ writeTo: "db", s3: null });
  });

  it("s3 with a bucket, an endpoint and keys; the region defaults for an S3-compatible server", () => {
    const e = configure({ FILE_STORE: "s3", FILE_STORE_S3_BUCKET: "docs", FILE_STORE_S3_ENDPOINT: "http://minio:9000", FILE_STORE_S3_ACCESS_KEY_ID: "k", FILE_STORE_S3_SECRET_ACCESS_KEY: "s" })();
    expect(settingsFromEnv(e)).toEqual({ writeTo: "s3", s3: { bucket: "docs", endpoint: "http://minio:9000", region: "us-east-1", accessKeyId: "k", secretAccessKey: "s" } });
  });

  it("s3 on AWS with a region and the SDK's own credentials", () => {
    const e = configure({ FILE_STORE: "s3", FILE_STORE_S3_BUCKET: "docs", FILE_STORE_S3_REGION: "ap-southeast-2" })();
    expect(settingsFromEnv(e).s3).toEqual({ bucket: "docs", endpoint: undefined, region: "ap-southeast-2", accessKeyId: undefined, secretAccessKey: undefined });
  });

  it("the database with a bucket still set: new files in the database, S3's read from S3", () => {
    const e = configure({ FILE_STORE: "database", FILE_STORE_S3_BUCKET: "docs", FILE_STORE_S3_REGION: "eu-west-1" })();
    expect(settingsFromEnv(e)).toMatchObject({ writeTo: "db", s3: { bucket: "docs" } });
  });

  it.each([
    [{ FILE_STORE: "s3" }, "FILE_STORE=s3 needs the bucket's name in FILE_STORE_S3_BUCKET"],
    [{ FILE_STORE: "s3", FILE_STORE_S3_BUCKET: "docs" }, "an S3 bucket on AWS needs its region in FILE_STORE_S3_REGION"],
    [{ FILE_STORE: "s3", FILE_STORE_S3_BUCKET: "docs", FILE_STORE_S3_REGION: "x", FILE_STORE_S3_ACCESS_KEY_ID: "k" }, "FILE_STORE_S3_ACCESS_KEY_ID and FILE_STORE_S3_SECRET_ACCESS_KEY go together"],
    [{ FILE_STORE: "S3" }, "FILE_STORE"],
  ])("%o is refused: %s", (values, message) => {
    expect(configure(values)).toThrow(message);
  });

  it.each(["build/server.js", "build/worker.js"])("%s does not start with FILE_STORE=s3 and no bucket, and says why", async (entry) => {
    const child = spawn(process.execPath, [path.join(root, entry)], {
      cwd: root,
      env: { ...process.env, FILE_STORE: "s3", FILE_STORE_S3_BUCKET: "", NODE_ENV: "production", PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (out += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code).not.toBe(0);
    expect(out).toContain("FILE_STORE=s3 needs the bucket's name in FILE_STORE_S3_BUCKET");
  }, 60_000);
});
