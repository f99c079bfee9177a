/**
 * The server: opens the database (PostgreSQL when DATABASE_URL is set, else embedded PGlite),
 * migrates it, loads the reference and demo data, then serves the Remix app from WEB_CONCURRENCY
 * web processes sharing PORT, the first of which also works the job queue (RUN_WORKER=1).
 * `npm run build` compiles this file to build/server.js, which `npm start` runs; the app's
 * modules come from the Remix build (build.entry.module), never from a second copy here.
 */
import cluster, { type Worker } from "node:cluster";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./db/client.server";
import { createApp } from "./server/app";
import { loadBuild } from "./server/build";
import { drain } from "./server/drain";
import { keepConnections } from "./server/keep-alive";

// build/server.js when compiled, the project root when run from source (tsx server.ts)
const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.basename(here) === "build" ? path.dirname(here) : here;

const { build, entry } = await loadBuild(root);
const config = entry.env();
const baseUrl = config.APP_URL ?? `http://localhost:${config.PORT}`;
const databaseName = config.DATABASE_URL ? "PostgreSQL" : "embedded PGlite";

/** The cluster primary's name for a web process; it passes it on to the process it forks. */
const SLOT_VARIABLE = "FREIGHTDESK_WEB_PROCESS";

if (cluster.isPrimary) await startPrimary();
else await serve(await entry.openDatabase({ url: config.DATABASE_URL }), Number(process.env[SLOT_VARIABLE]));

async function startPrimary() {
  let processes: number;
  let reason: string;
  try {
    ({ processes, reason } = entry.webConcurrency(config, {
      cores: os.availableParallelism(),
      // the cgroup's limit in a container (Node reports a huge number when there is none)
      memoryBytes: Math.min(os.totalmem(), process.constrainedMemory?.() || Infinity),
    }));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  // once, before any web process exists: no two processes migrate or seed at once
  const database = await entry.prepareDatabase(config);
  const jobs = config.RUN_WORKER === "1" ? (processes > 1 ? "jobs in web process 1" : "jobs in this process") : "jobs in `npm run worker` (RUN_WORKER=0)";
  console.log(`${processes} web process${processes > 1 ? "es" : ""} (${reason}), ${jobs}`);
  // every web process resolves the same browser (browser-path.server.ts) and starts it once it listens
  console.log(`PDFs by ${entry.describeBrowser(entry.chooseBrowser())}`);
  if (processes === 1) return serve(database, 0);
  await database.close();
  supervise(processes);
}

/**
 * Serves the app in this process. `slot` is the web process's number under the cluster primary
 * (1 runs the jobs), or 0 for the only process.
 */
async function serve(database: Database, slot: number) {
  const services = await entry.createServices(database, { baseUrl, mailFrom: config.MAIL_FROM, smtpUrl: config.SMTP_URL, sweep: entry.sweepOptions(config) });
  const runsJobs = config.RUN_WORKER === "1" && slot <= 1;
  if (runsJobs) await services.queue.work();
  const readiness = entry.createReadiness(services);
  const app = createApp({
    readiness,
    build,
    services,
    rateLimit: { limit: config.SIGNIN_RATE_LIMIT, windowMs: config.SIGNIN_RATE_WINDOW_MS },
    production: config.NODE_ENV === "production",
    root,
    appUrl: config.APP_URL,
    trustProxy: config.TRUST_PROXY,
    googleMapsApiKey: config.GOOGLE_MAPS_API_KEY,
    pageMemo: config.PAGE_MEMO === "1",
  });
  // which web process answered, for an operator reading a response (and the cluster's test)
  const server = keepConnections(http.createServer(slot ? (req, res) => (res.setHeader("X-Web-Process", String(slot)), app(req, res)) : app));
  server.listen(config.PORT, () => {
    if (slot) console.log(`web process ${slot} (pid ${process.pid}) listening${runsJobs ? ", working the job queue" : ""}`);
    else console.log(`FreightDesk listening on ${baseUrl} (${databaseName})`);
    // a cold browser takes seconds (tens under load): start it now rather than in the first print
    if (config.PRINT_WARMUP === "1") void services.renderer.warm();
  });

  // SIGTERM (docs/decisions/031): no new connections and /readyz says so; requests in flight are
  // answered (within the bound) while the database is still open; then the queue stops (its jobs
  // in hand finish, or are left for another worker's sweeper), the renderer and the pool close
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!slot) console.log(`${signal}: shutting down`);
    readiness.stopping();
    const requests = await drain(server);
    await entry.closeServices(services);
    const how = requests === "drained" ? "requests in flight answered" : "requests in flight cut off at the bound";
    console.log(slot ? `web process ${slot} stopped` : `stopped (${how})`);
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

/**
 * Runs `count` web processes, each listening on PORT (the primary hands each new connection to
 * the next one in turn). One that dies is replaced; one that dies before it ever listened means
 * the start-up itself fails (a port in use, a database refused), so everything stops instead of
 * restarting it forever. SIGTERM or SIGINT stops every web process, each closing its renderer,
 * queue and database, then the primary.
 */
function supervise(count: number) {
  const slots = new Map<Worker, number>();
  const started = new Set<number>();
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  const stop = (why: string, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    console.log(`${why}: stopping ${slots.size} web processes`);
    if (slots.size === 0) process.exit(exitCode);
    for (const worker of slots.keys()) worker.process.kill("SIGTERM");
    // a process that has not finished its shutdown by then is killed
    setTimeout(() => {
      for (const worker of slots.keys()) worker.process.kill("SIGKILL");
      process.exit(exitCode || 1);
    }, 20_000).unref();
  };

  const fork = (slot: number) => {
    const worker = cluster.fork({ [SLOT_VARIABLE]: String(slot) });
    let listened = false;
    slots.set(worker, slot);
    worker.once("listening", () => {
      listened = true;
      started.add(slot);
      if (started.size === count && !announced) {
        announced = true;
        console.log(`FreightDesk listening on ${baseUrl} (${databaseName}, ${count} web processes)`);
      }
    });
    worker.once("exit", (code, signal) => {
      slots.delete(worker);
      const how = signal ?? `exit code ${code}`;
      if (stopping) {
        if (slots.size === 0) process.exit(exitCode);
      } else if (!listened) {
        console.error(`web process ${slot} failed to start (${how})`);
        stop("start-up failed", 1);
      } else {
        console.error(`web process ${slot} (pid ${worker.process.pid}) ended (${how}): starting another`);
        fork(slot);
      }
    });
  };

  for (let slot = 1; slot <= count; slot++) fork(slot);
  process.on("SIGTERM", () => stop("SIGTERM", 0));
  process.on("SIGINT", () => stop("SIGINT", 0));
}
