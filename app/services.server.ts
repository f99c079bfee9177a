/**
 * The load context's services and how they are made. app/entry.server.tsx re-exports this
 * module, so the server (server.ts), the job worker (queues/worker.ts), the test server and the
 * bench take the modules from the Remix build and each module exists once in a process: an error
 * a service throws is an instance of the very class the routes compare it with.
 */
import { migrateDatabase, openDatabase, whilePreparing, type Database, type Db } from "../db/client.server";
import { seedDemoIfEmpty } from "../db/seed/demo";
import { loadDangerousGoods } from "../db/seed/dangerous-goods";
import { loadLocalities } from "../db/seed/localities";
import { createQueue, type SweepOptions } from "../queues/queue.server";
import type { JobQueue } from "./modules/jobs/queue";
import { upgradeLegacyFiles } from "./modules/files/upgrade.server";
import { createMailer, type Mailer } from "./modules/mail/mailer.server";
import { createRenderer, type Renderer } from "./modules/printing/renderer.server";
import type { Env } from "./utils/env.server";

// resetEnvCache: for tests that change a setting of the running app (its copy of the module, not theirs)
export { env, resetEnvCache } from "./utils/env.server";
export { migrateDatabase, openDatabase } from "../db/client.server";
// what the services throw, for code outside the build that checks an error's class
export { AppError } from "./utils/errors";
export { RendererUnavailable } from "./modules/printing/renderer.server";
// what the Express layer (server/app.ts) takes from here rather than importing a second copy
export { SignInAttemptStore, TrackingGuessStore } from "./modules/auth/sign-in-counts.server";
export { SIGN_IN_LIMITED_HEADER, TOO_MANY_ATTEMPTS } from "./modules/auth/limits";
export { SESSION_COOKIE } from "./modules/auth/sessions.server";
export { FILE_TOO_LARGE, IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, MAX_UPLOAD_BYTES } from "./utils/upload-limits";
export { MAX_DECLARATION_BYTES, MESSAGES as DECLARATION_MESSAGES } from "./modules/declarations/declarations";
// around the Remix handler: every /api POST with an Idempotency-Key (docs/decisions/038)
export { withIdempotency } from "./modules/idempotency/idempotent.server";
// webhooks' clock, name lookup and timeout, and one pass of deliveries, for tests and the bench (docs/decisions/039)
export { webhookSeams, resetWebhookSeams } from "./modules/webhooks/seams.server";
export { deliverDue } from "./modules/webhooks/dispatcher.server";
// GET /readyz's check, for the web server and the worker's health port
export { createReadiness, type Readiness, type ReadinessCheck } from "./modules/health/readiness.server";
// the browser PDFs print with, logged at start-up
export { chooseBrowser, describeBrowser } from "./modules/printing/browser-path.server";

/** What every loader, action and /api route receives as its load context. */
export interface AppServices {
  database: Database;
  db: Db;
  queue: JobQueue;
  mailer: Mailer;
  /** headless Chromium for PDFs, started on first use */
  renderer: Renderer;
  /** e.g. http://localhost:3000, for links in e-mails */
  baseUrl: string;
  /** the CSP nonce of this response */
  cspNonce?: string;
  /**
   * Set by a server that writes a page's marked string itself (server/remix-bridge.ts): the page's
   * Response then carries no byte stream of its own (app/utils/whole-response.ts)
   */
  writesWholePages?: boolean;
  /**
   * Pages already rendered, by their URL, status and data (server/page-memo.ts, decision 048), set
   * by the web server; without it every page view is rendered
   */
  pageMemo?: { get(key: string): string[] | undefined; set(key: string, parts: string[]): void };
}

declare module "@remix-run/node" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppServices {}
}
declare module "@remix-run/server-runtime" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends AppServices {}
}

/**
 * Opens the database and brings it up to date: migrations, the localities and dangerous goods
 * lists, the demo data into an empty database, and the job queues. Once per start, in one process (with several
 * web processes, the primary before it forks them); processes on several hosts (`npm run web`,
 * `npm run worker`) take turns under an advisory lock, so no two migrate at once.
 */
export async function prepareDatabase(config: Pick<Env, "DATABASE_URL" | "PGLITE_DIR" | "SEED_DEMO">, log: (line: string) => void = console.log): Promise<Database> {
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.PGLITE_DIR });
  try {
    await whilePreparing(database, () => prepare(database, config, log));
  } catch (error) {
    await database.close().catch(() => {});
    throw error;
  }
  return database;
}

async function prepare(database: Database, config: Pick<Env, "SEED_DEMO">, log: (line: string) => void) {
  await migrateDatabase(database);
  // documents kept on disk before the file store move into it, linked to their rows (decision 030)
  await upgradeLegacyFiles(database.db, { log });
  const loaded = await loadLocalities(database.db);
  if (Object.keys(loaded).length) log(`Loaded localities: ${JSON.stringify(loaded)}`);
  const dgLoaded = await loadDangerousGoods(database.db);
  if (dgLoaded) log(`Loaded ${dgLoaded} dangerous goods entries.`);
  if (config.SEED_DEMO === "1" && (await seedDemoIfEmpty(database.db))) log("Loaded the demo data.");
  if (database.kind === "postgres") {
    // pg-boss's schema and a table for each queue, made here once: web processes starting
    // together on a new database deadlocked creating them (pgboss.create_queue)
    const renderer = createRenderer();
    const queue = await createQueue({ database, mailer: createMailer(database.db, { from: "" }), renderer });
    await queue.stop();
    await renderer.close();
  }
}

/** The services of the load context over an open database; the queue is created, not working. */
export async function createServices(database: Database, options: { baseUrl: string; mailFrom: string; smtpUrl?: string; sweep?: SweepOptions }): Promise<Omit<AppServices, "cspNonce">> {
  const mailer = createMailer(database.db, { smtpUrl: options.smtpUrl, from: options.mailFrom });
  // every web process has its own renderer, started at its first print (docs/decisions/010)
  const renderer = createRenderer();
  const queue = await createQueue({ database, mailer, renderer }, options.sweep);
  return { database, db: database.db, queue, mailer, renderer, baseUrl: options.baseUrl };
}

/** The sweeper's timing from JOB_STALE_AFTER_SECONDS and JOB_SWEEP_SECONDS, for createServices. */
export const sweepOptions = (config: Pick<Env, "JOB_STALE_AFTER_SECONDS" | "JOB_SWEEP_SECONDS">): SweepOptions => ({
  staleAfterSeconds: config.JOB_STALE_AFTER_SECONDS,
  sweepSeconds: config.JOB_SWEEP_SECONDS,
});

/** Stops the queue (jobs in hand finish), then closes the renderer and the database. */
export async function closeServices(services: Pick<AppServices, "queue" | "renderer" | "database">): Promise<void> {
  await services.queue.stop().catch(() => {});
  await services.renderer.close();
  await services.database.close().catch(() => {});
}

/** A web process holds Node (~150 MB) and, once it has printed, a Chromium (~900 MB at peak). */
const MEMORY_PER_WEB_PROCESS = 1024 ** 3;

/**
 * How many web processes to run. The embedded PGlite database belongs to the one process that
 * opened it, so with it there is one (asking for more is refused). With PostgreSQL the default is
 * one per core, fewer if the memory would not hold a renderer in each.
 */
export function webConcurrency(
  config: Pick<Env, "WEB_CONCURRENCY" | "DATABASE_URL">,
  host: { cores: number; memoryBytes: number },
): { processes: number; reason: string } {
  if (!config.DATABASE_URL) {
    if ((config.WEB_CONCURRENCY ?? 1) > 1) {
      throw new Error(`WEB_CONCURRENCY=${config.WEB_CONCURRENCY} needs PostgreSQL (DATABASE_URL): the embedded PGlite database belongs to one process.`);
    }
    return { processes: 1, reason: "embedded PGlite belongs to one process" };
  }
  if (config.WEB_CONCURRENCY) return { processes: config.WEB_CONCURRENCY, reason: "WEB_CONCURRENCY" };
  const byMemory = Math.max(1, Math.floor(host.memoryBytes / MEMORY_PER_WEB_PROCESS));
  const processes = Math.max(1, Math.min(host.cores, byMemory));
  return { processes, reason: processes < host.cores ? `${host.cores} cores, memory for ${byMemory}` : `one per core (${host.cores})` };
}
