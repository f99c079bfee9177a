/**
 * `npm run worker`: processes background jobs in a process of its own. Run the web processes with
 * RUN_WORKER=0 when using it; both read the same queue in the database. Compiled to
 * build/worker.js by `npm run build`; the modules come from the Remix build, as the server's do.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadBuild } from "../server/build";

// build/worker.js when compiled, queues/worker.ts from source
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const { entry } = await loadBuild(root);
const config = entry.env();
if (!config.DATABASE_URL) {
  console.error("The embedded database belongs to one process: run the worker inside the web process (RUN_WORKER=1) or set DATABASE_URL.");
  process.exit(1);
}
const database = await entry.openDatabase({ url: config.DATABASE_URL });
await entry.migrateDatabase(database);
const services = await entry.createServices(database, { baseUrl: config.APP_URL ?? `http://localhost:${config.PORT}`, mailFrom: config.MAIL_FROM, smtpUrl: config.SMTP_URL });
await services.queue.work();
console.log(`FreightDesk worker: processing jobs; PDFs by ${entry.describeBrowser(services.renderer.browser)}`);

async function shutdown() {
  await entry.closeServices(services);
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
