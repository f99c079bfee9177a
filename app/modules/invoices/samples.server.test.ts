/** The template editor's test-run samples in the file store (docs/decisions/019, 030). */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db/client.server";
import { files } from "../../../db/schema";
import { storeSample, withSample } from "./files.server";
import { createTestDatabase, type TestDatabase } from "../../../tests/support/database";
import { readFile } from "node:fs/promises";

let t: TestDatabase;
let db: Db;
beforeAll(async () => {
  t = await createTestDatabase();
  db = t.database.db;
});
afterAll(() => t.drop());

describe("the template editor's test-run samples", () => {
  it("keeps a sample under a random token for an hour, found for its own format only, and not once it expired", async () => {
    const token = await storeSample(db, new File(["a,b\n"], "x.csv"), "CSV");
    expect(token).toMatch(/^[0-9a-f-]{36}\.csv$/);
    const [row] = await db.select().from(files).where(eq(files.id, token.slice(0, 36)));
    expect(row?.kind).toBe("invoice_sample");
    expect(Math.abs(row!.expiresAt!.getTime() - Date.now() - 3_600_000)).toBeLessThan(120_000);
    expect(await withSample(db, token, "CSV", (path) => readFile(path, "utf8"))).toBe("a,b\n");
    expect(await withSample(db, token, "XLSX", async () => "read")).toBeNull();
    expect(await withSample(db, "../../etc/passwd", "CSV", async () => "read")).toBeNull();
    expect(await withSample(db, "00000000-0000-0000-0000-000000000000.csv", "CSV", async () => "read")).toBeNull();
    await db.update(files).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(files.id, token.slice(0, 36)));
    expect(await withSample(db, token, "CSV", async () => "read")).toBeNull();
  });
});
