import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { SQL } from "drizzle-orm";
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { createChangeFeed, type ChangeFeed } from "./changes.server";
import { PROJECT_ROOT } from "./paths";
import * as schema from "./schema";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle; services accept either so callers can compose them in one transaction. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/** Raw SQL runner in the shape pg-boss expects for a caller-supplied connection. */
export type SqlExecutor = { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };

export interface Database {
  kind: "postgres" | "pglite";
  db: Db;
  /** postgres connection string (pg-boss opens its own pool with it); absent for PGlite */
  url?: string;
  /** for PGlite pg-boss runs through this single embedded connection */
  executor: SqlExecutor;
  close(): Promise<void>;
}

// each PostgreSQL handle's change feed, for caches that reach the database only through `db`;
// a transaction's handle has none, so nothing is kept or served inside one
const feeds = new WeakMap<object, ChangeFeed>();

/** The change feed of the database `db` belongs to (db/kept.server.ts), or undefined (PGlite, a transaction). */
export function changeFeedOf(db: DbOrTx): ChangeFeed | undefined {
  return feeds.get(db);
}

// each PostgreSQL handle's own client, for the hand-written statements run prepared
const clients = new WeakMap<object, postgres.Sql>();
const dialect = new PgDialect();

/**
 * A hand-written statement's rows, the statement prepared once per connection on PostgreSQL.
 * drizzle's `execute` sends raw SQL unnamed, so PostgreSQL plans it again at every call: the public
 * tracking page's join of seven tables took 5 ms to plan and under 0.3 ms to run (issue 32).
 * Elsewhere (PGlite, a transaction's handle) as `execute` runs it.
 */
export async function executePrepared<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const client = clients.get(db);
  if (!client) {
    const raw = (await db.execute(query)) as unknown as { rows?: T[] } | T[];
    return Array.isArray(raw) ? raw : (raw.rows ?? []);
  }
  const { sql: text, params } = dialect.sqlToQuery(query);
  return [...(await client.unsafe(text, params as never[], { prepare: true }))] as T[];
}

export const MIGRATIONS_FOLDER = path.join(PROJECT_ROOT, "db/migrations");

/**
 * Opens PostgreSQL through postgres.js when a URL is given, else the embedded PGlite
 * (persisted in dataDir, or in memory when dataDir is "memory://").
 */
export async function openDatabase(options: { url?: string; dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database> {
  if (options.url) {
    const client = postgres(options.url, { max: 10, onnotice: () => {} });
    const db = drizzlePostgres(client, { schema }) as unknown as Db;
    // connects at its first sync, so a process that never serves a page never listens
    const changes = createChangeFeed(options.url);
    feeds.set(db, changes);
    clients.set(db, client);
    return {
      kind: "postgres",
      db,
      url: options.url,
      executor: {
        async executeSql(text, values = []) {
          const rows = await client.unsafe(text, values as never[]);
          return { rows: [...rows] };
        },
      },
      close: async () => {
        await changes.close();
        await client.end({ timeout: 5 });
      },
    };
  }
  const dataDir = options.dataDir ?? path.join(PROJECT_ROOT, "data/pglite");
  if (!dataDir.startsWith("memory://")) mkdirSync(dataDir, { recursive: true });
  // loadDataDir: start from a dumped data folder (tests start from a migrated one) instead of initdb
  // pg_trgm: the recipient typeahead's trigram index (migration 0027), as on PostgreSQL
  const extensions = { pg_trgm };
  const pglite = await PGlite.create(dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir, extensions } : { extensions });
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return {
    kind: "pglite",
    db,
    executor: {
      async executeSql(text, values = []) {
        // The simple protocol (exec) accepts several statements, which pg-boss sends
        // when it creates its schema; parameterised calls are always one statement.
        if (values.length === 0) {
          const results = await pglite.exec(text);
          return { rows: results.at(-1)?.rows ?? [] };
        }
        const result = await pglite.query(text, values);
        return { rows: result.rows };
      },
    },
    close: () => pglite.close(),
  };
}

/**
 * Runs `work` holding a PostgreSQL advisory lock of the whole server, so that processes starting
 * together on several hosts (web processes, workers) do not migrate or seed the same database at
 * once: drizzle's migrator takes no lock, and two would both apply a migration. The lock is a
 * session's, held on a connection of its own for the while. PGlite belongs to one process: no lock.
 */
export async function whilePreparing<T>(database: Database, work: () => Promise<T>): Promise<T> {
  if (database.kind !== "postgres") return work();
  const session = postgres(database.url!, { max: 1, onnotice: () => {} });
  try {
    await session`select pg_advisory_lock(hashtext('freightdesk:prepare'))`;
    return await work();
  } finally {
    // ending the session releases the lock, whether or not the work succeeded
    await session.end({ timeout: 5 });
  }
}

export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === "postgres") {
    await migratePostgres(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } else {
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  }
}
