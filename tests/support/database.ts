import { randomBytes } from "node:crypto";
import postgres from "postgres";
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
export async function createTestDatabase(): Promise<TestDatabase> {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    const database = await openDatabase({ dataDir: "memory://" });
    await migrateDatabase(database);
    return { database, drop: () => database.close() };
  }
  const name = `fd_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString() });
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
