import { randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import type { TestProject } from "vitest/node";
import { migrateDatabase, openDatabase } from "../../db/client.server";

declare module "vitest" {
  export interface ProvidedContext {
    /** a migrated database to copy: a template database's name (PostgreSQL) or a dumped PGlite folder's file */
    migratedTemplate: { kind: "postgres"; name: string } | { kind: "pglite"; file: string };
  }
}

/**
 * Once per test run: migrate one database, which each test file then copies instead of running
 * every migration again (CREATE DATABASE ... TEMPLATE on PostgreSQL; a dumped data folder on
 * PGlite, which also skips initdb). Made fresh each run and removed at its end, so no run depends
 * on what an earlier one left.
 */
export default async function setup(project: TestProject) {
  const suffix = `${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const baseUrl = process.env.DATABASE_URL;
  if (baseUrl) {
    const name = `fd_tpl_${suffix}`;
    const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    const url = new URL(baseUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString() });
    await migrateDatabase(database);
    await database.close();
    project.provide("migratedTemplate", { kind: "postgres", name });
    return async () => {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  const database = await openDatabase({ dataDir: "memory://" });
  await migrateDatabase(database);
  const pglite = (database.db as unknown as { $client: { dumpDataDir(c: "none"): Promise<Blob> } }).$client;
  const file = path.join(os.tmpdir(), `fd_tpl_${suffix}.tar`);
  writeFileSync(file, Buffer.from(await (await pglite.dumpDataDir("none")).arrayBuffer()));
  await database.close();
  project.provide("migratedTemplate", { kind: "pglite", file });
  return () => rmSync(file, { force: true });
}
