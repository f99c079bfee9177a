/**
 * An export runs in a worker thread with a heap of its own (issue 32): the job makes garbage at
 * the rate it reads rows, and an uncapped process let it grow its RSS by about 250 MB before
 * collecting, although the live heap stayed flat (bench/exports.ts). Within the thread's limit
 * V8 collects early, and what it held goes when the thread ends. PGlite is one process's database,
 * so there the export runs in process as before. The thread opens its own connections (up to the
 * pool's 10, used one page at a time) and writes the file as the job did.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker, type ResourceLimits } from "node:worker_threads";
import { PROJECT_ROOT } from "../../../db/paths";
import type { Db } from "../../../db/client.server";
import { runExport, type ExportPayload, type ExportResult } from "./run.server";

export type ThreadMessage = { t: "progress"; pct: number; message: string } | { t: "done"; result: ExportResult } | { t: "failed"; message: string };

/** Pages of 1,000 rows, an XLSX zip and the modules fit well within these (the job ran in 58 MB capped). */
export const EXPORT_THREAD_LIMITS: ResourceLimits = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

export const OUT_OF_MEMORY = "The export needed more memory than it is given.";

/**
 * The thread's file: the bundle beside the build (package.json build:server), which is what runs
 * in production and what the tests run too (the test server is the build as well, so both change
 * together); without a build, the source through tsx. A build without the bundle (`remix build`
 * alone) runs exports in process.
 */
function threadEntry(): { file: string; execArgv: string[] } | null {
  const built = path.join(PROJECT_ROOT, "build/export-thread.js");
  if (existsSync(built)) return { file: built, execArgv: [] };
  const here = fileURLToPath(import.meta.url);
  return here.endsWith(".ts") ? { file: path.join(path.dirname(here), "export-thread.ts"), execArgv: ["--import", "tsx"] } : null;
}

/** The export job: in a thread of its own on PostgreSQL (`url`), in process on PGlite. */
export function runExportJob(db: Db, url: string | undefined, p: ExportPayload, progress: (pct: number, message: string) => Promise<void>, limits = EXPORT_THREAD_LIMITS): Promise<ExportResult> {
  const entry = url ? threadEntry() : null;
  if (!url || !entry) return runExport(db, p, progress);
  const worker = new Worker(entry.file, { workerData: { url, payload: p }, execArgv: entry.execArgv, resourceLimits: limits });
  return new Promise<ExportResult>((resolve, reject) => {
    let settled = false;
    let result: ExportResult | null = null;
    // progress is written in the order it came, and the result given only after the last of it
    let written = Promise.resolve();
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      reject(error);
    };
    worker.on("message", (m: ThreadMessage) => {
      if (m.t === "progress") written = written.then(() => progress(m.pct, m.message)).catch((e: unknown) => fail(e instanceof Error ? e : new Error(String(e))));
      else if (m.t === "done") {
        result = m.result;
        void written.then(() => {
          if (settled) return;
          settled = true;
          resolve(m.result);
        });
      } else fail(new Error(m.message));
    });
    worker.on("error", (error: Error & { code?: string }) => fail(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? new Error(OUT_OF_MEMORY) : error));
    worker.on("exit", (code) => result ?? fail(new Error(`The export's thread ended (${code}) before the export did.`)));
  });
}
