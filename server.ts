/**
 * Express entry: opens the database (PostgreSQL when DATABASE_URL is set, else embedded PGlite),
 * migrates it, loads demo data into an empty one, starts the job queue and serves the Remix app.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { migrateDatabase, openDatabase } from "./db/client.server";
import { seedDemoIfEmpty } from "./db/seed/demo";
import { loadLocalities } from "./db/seed/localities";
import { loadDangerousGoods } from "./db/seed/dangerous-goods";
import { createRenderer } from "./app/modules/printing/renderer.server";
import { describeBrowser } from "./app/modules/printing/browser-path.server";
import { createMailer } from "./app/modules/mail/mailer.server";
import { env } from "./app/utils/env.server";
import { createQueue } from "./queues/queue.server";
import { createApp } from "./server/app";

const config = env();
const root = path.dirname(fileURLToPath(import.meta.url));

const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.PGLITE_DIR });
await migrateDatabase(database);
const loaded = await loadLocalities(database.db);
if (Object.keys(loaded).length) console.log(`Loaded localities: ${JSON.stringify(loaded)}`);
const dgLoaded = await loadDangerousGoods(database.db);
if (dgLoaded) console.log(`Loaded ${dgLoaded} dangerous goods entries.`);
if (config.SEED_DEMO === "1" && (await seedDemoIfEmpty(database.db))) console.log("Loaded the demo data.");

const mailer = createMailer(database.db, { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM });
const renderer = createRenderer();
console.log(`PDFs by ${describeBrowser(renderer.browser)}`);
const queue = await createQueue({ database, mailer, renderer });
if (config.RUN_WORKER === "1") await queue.work();

const build = (await import(pathToFileURL(path.join(root, "build/index.js")).href)) as ServerBuild;
const baseUrl = config.APP_URL ?? `http://localhost:${config.PORT}`;
const app = createApp({
  build,
  services: { database, db: database.db, queue, mailer, baseUrl, renderer },
  rateLimit: { limit: config.SIGNIN_RATE_LIMIT, windowMs: config.SIGNIN_RATE_WINDOW_MS },
  production: config.NODE_ENV === "production",
  root,
});

const server = app.listen(config.PORT, () => {
  console.log(`FreightDesk listening on ${baseUrl} (${database.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"})`);
});

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal}: shutting down`);
  server.close();
  await queue.stop().catch(() => {});
  await renderer.close();
  await database.close().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
