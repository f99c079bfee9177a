/**
 * `npm run worker`: processes background jobs in a process of its own. Run the web processes with
 * RUN_WORKER=0 when using it; both read the same queue in the database. Compiled to
 * build/worker.js by `npm run build`; the modules come from the Remix build, as the server's do.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadBuild } from "../server/build";
import { listenForHealth } from "../server/health";

// build/worker.js when compiled, queues/worker.ts from source
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { entry } = await loadBuild(root);
const config = entry.env();
if (!config.DATABASE_URL) {
  console.error("The embedded database belongs to one process: run the worker inside the web process (RUN_WORKER=1) or set DATABASE_URL.");
  process.exit(1);
}
// the first process on a new database prepares it, whichever it is (an advisory lock orders them)
const database = await entry.prepareDatabase(config);
const services = await entry.createServices(database, { baseUrl: config.APP_URL ?? `http://localhost:${config.PORT}`, mailFrom: config.MAIL_FROM, smtpUrl: config.SMTP_URL, sweep: entry.sweepOptions(config) });
await services.queue.work();
const readiness = entry.createReadiness(services);
const health = config.WORKER_HEALTH_PORT ? await listenForHealth(readiness, config.WORKER_HEALTH_PORT) : null;
console.log(`FreightDesk worker (pid ${process.pid}): processing jobs; PDFs by ${entry.describeBrowser(services.renderer.browser)}${health ? `; health on port ${config.WORKER_HEALTH_PORT}` : ""}`);

// SIGTERM: pg-boss fetches no more and waits for the jobs in hand (closeServices); one still running
// at its bound is left "working" and another worker's sweeper resumes it (docs/decisions/008, 031)
let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  readiness.stopping();
  await entry.closeServices(services);
  health?.close();
  console.log("FreightDesk worker stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
