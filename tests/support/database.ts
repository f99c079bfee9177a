import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { inject } from "vitest";
import { migrateDatabase, openDatabase, type Database } from "../../db/client.server";

export interface TestDatabase {
  database: Database;
  /** closes the connection and drops the database (PostgreSQL) */
  drop(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: with DATABASE_URL, a uniquely named database on
 * that server (dropped afterwards); otherwise an in-memory PGlite. Nothing depends on earlier runs.
 */
/** Outside vitest (the benches start test servers too) there is no run's copy: migrate from nothing. */
function migratedTemplate() {
  try {
    return inject("migratedTemplate");
  } catch {
    return undefined;
  }
}

/**
 * `open` is whose openDatabase makes the handle: the app's build's (startTestServer), so the app
 * finds the handle's change feed and keeps what production keeps, or this copy's (a file without a
 * server). A handle is known to the copy of db/client.server that made it.
 */
export async function createTestDatabase(open: typeof openDatabase = openDatabase): Promise<TestDatabase> {
  const baseUrl = process.env.DATABASE_URL;
  // the run's migrated copy (tests/support/global-setup.ts); migrating again below is then a no-op
  const template = migratedTemplate();
  if (!baseUrl) {
    const loadDataDir = template?.kind === "pglite" ? new Blob([readFileSync(template.file)]) : undefined;
    const database = await open({ dataDir: "memory://", loadDataDir });
    await migrateDatabase(database);
    return { database, drop: () => database.close() };
  }
  const name = `fd_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(template?.kind === "postgres" ? `CREATE DATABASE ${name} TEMPLATE ${template.name}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await open({ url: url.toString() });
  await migrateDatabase(database);
  return {
    database,
    async drop() {
      await database.close();
      const again = postgres(baseUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}
