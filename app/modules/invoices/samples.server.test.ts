import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { samplePath, storeSample } from "./files.server";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "tpl-samples-"));
  process.env.INVOICE_FILES_DIR = dir;
});
afterAll(async () => {
  delete process.env.INVOICE_FILES_DIR;
  await rm(dir, { recursive: true, force: true });
});

describe("the template editor's test-run samples", () => {
  it("keeps a sample under a random name, finds it by token for its own format only, and removes samples older than an hour", async () => {
    const first = await storeSample(new File(["a,b\n"], "x.csv"), "CSV");
    expect(first).toMatch(/^[0-9a-f-]{36}\.csv$/);
    expect(await samplePath(first, "CSV")).toBe(join(dir, "samples", first));
    expect(await samplePath(first, "XLSX")).toBeNull();
    expect(await samplePath("../../etc/passwd", "CSV")).toBeNull();
    expect(await samplePath("00000000-0000-0000-0000-000000000000.csv", "CSV")).toBeNull();

    const old = "11111111-1111-1111-1111-111111111111.csv";
    await writeFile(join(dir, "samples", old), "old");
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    await utimes(join(dir, "samples", old), twoHoursAgo, twoHoursAgo);
    const second = await storeSample(new File(["c,d\n"], "y.csv"), "CSV");
    expect((await readdir(join(dir, "samples"))).sort()).toEqual([first, second].sort());
  });
});
