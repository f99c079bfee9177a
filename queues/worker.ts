/**
 * `npm run worker`: processes background jobs in a process of its own. Run the web process with
 * RUN_WORKER=0 when using it; both read the same queue in the database.
 */
import { migrateDatabase, openDatabase } from "../db/client.server";
import { createMailer } from "../app/modules/mail/mailer.server";
import { env } from "../app/utils/env.server";
import { createRenderer } from "../app/modules/printing/renderer.server";
import { describeBrowser } from "../app/modules/printing/browser-path.server";
import { createQueue } from "./queue.server";

const config = env();
const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.PGLITE_DIR });
if (database.kind === "pglite") {
  console.error("The embedded database belongs to one process: run the worker inside the web process (RUN_WORKER=1) or set DATABASE_URL.");
  process.exit(1);
}
await migrateDatabase(database);
const renderer = createRenderer();
console.log(`PDFs by ${describeBrowser(renderer.browser)}`);
const queue = await createQueue({ database, renderer, mailer: createMailer(database.db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }) });
await queue.work();
console.log("FreightDesk worker: processing jobs");

async function shutdown() {
  await queue.stop().catch(() => {});
  await renderer.close();
  await database.close().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown());
process.on("SIGINT", () => void shutdown());
