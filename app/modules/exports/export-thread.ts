/**
 * The export job's own thread (thread.server.ts starts it): opens its own connections to the
 * database the worker uses, writes the export into the file store exactly as the job did in
 * process, and reports progress and the result to the job that waits for it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { openDatabase } from "../../../db/client.server";
import { runExport, type ExportPayload } from "./run.server";
import type { ThreadMessage } from "./thread.server";

const { url, payload } = workerData as { url: string; payload: ExportPayload };
const post = (m: ThreadMessage) => parentPort!.postMessage(m);
const database = await openDatabase({ url });
try {
  const result = await runExport(database.db, payload, async (pct, message) => post({ t: "progress", pct, message }));
  post({ t: "done", result });
} catch (error) {
  post({ t: "failed", message: error instanceof Error ? error.message : String(error) });
} finally {
  await database.close();
}
