/**
 * Whether this process can do its work (GET /readyz, docs/decisions/031): the database answers,
 * its migrations are the ones this build expects, and the PDF renderer is up. Where files are kept
 * in an S3 bucket (decision 037) the check says whether the bucket answers, but that does not make
 * the process unready: the bucket is shared by every host, so an outage of it would take every
 * process out of the load balancer, where they can still serve everything but documents. A load balancer
 * sends nothing to a process that is not ready; an orchestrator restarts one that is not alive
 * (GET /healthz, which asks nothing of the database).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "../../../db/client.server";
import { MIGRATIONS_FOLDER } from "../../../db/client.server";
import { fileStoreReachable } from "../files/index.server";
import type { Renderer, RendererState } from "../printing/renderer.server";

/** How long the database may take to answer `select 1` before it counts as unreachable. */
export const DATABASE_CHECK_MS = 2_000;

export interface Readiness {
  ready: boolean;
  database: "ok" | "unreachable";
  migrations: "current" | "behind" | "unknown";
  renderer: RendererState;
  /** reported, not required (see above); "database": files are kept in PostgreSQL, nothing to ask */
  fileStore: "database" | "ok" | "unreachable";
  /** the process received SIGTERM and is draining */
  stopping?: boolean;
}

/** The newest migration this build ships, by its journal's timestamp (drizzle records it as created_at). */
function latestMigration(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8")) as { entries: Array<{ when: number }> };
  return Math.max(...journal.entries.map((e) => e.when));
}

/**
 * The readiness check of one process. Migrations only move forward, so once found current they
 * are not asked again; the database is asked on every check (`select 1`, bounded). When the
 * renderer has never started (PRINT_WARMUP=0, or a worker) the check starts it, and reports
 * "starting" until it is up.
 */
export function createReadiness(services: { database: Database; renderer: Renderer; fileStore?: () => Promise<Readiness["fileStore"]> }) {
  const probeFileStore = services.fileStore ?? fileStoreReachable;
  const expected = latestMigration();
  let migrationsCurrent = false;
  let stopping = false;

  const ask = async <T>(text: string): Promise<T[]> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error("database check timed out")), DATABASE_CHECK_MS)));
    try {
      return (await Promise.race([services.database.executor.executeSql(text), late])).rows as T[];
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    /** from SIGTERM on the process answers "not ready", so a load balancer stops sending to it */
    stopping() {
      stopping = true;
    },
    async check(): Promise<Readiness> {
      let database: Readiness["database"] = "ok";
      let migrations: Readiness["migrations"] = migrationsCurrent ? "current" : "unknown";
      try {
        await ask("select 1");
        if (!migrationsCurrent) {
          const [row] = await ask<{ at: string | number | null }>("select max(created_at) as at from drizzle.__drizzle_migrations");
          migrationsCurrent = Number(row?.at ?? 0) >= expected;
          migrations = migrationsCurrent ? "current" : "behind";
        }
      } catch {
        database = "unreachable";
      }
      if (services.renderer.state() === "idle") void services.renderer.warm();
      const renderer = services.renderer.state();
      const fileStore = await probeFileStore();
      const ready = !stopping && database === "ok" && migrations === "current" && renderer === "ready";
      return { ready, database, migrations, renderer, fileStore, ...(stopping ? { stopping } : {}) };
    },
  };
}

export type ReadinessCheck = ReturnType<typeof createReadiness>;
