/**
 * A queue worker in a process of its own, for tests that kill one mid-job (SIGKILL) and watch
 * another recover. Like `npm run worker` over DATABASE_URL, with the sweeper's timing from
 * WORKER_SWEEP_SECONDS and WORKER_STALE_AFTER_SECONDS and its polling from WORKER_POLLING_SECONDS when set. Prints "ready" once it works.
 */
import { openDatabase } from "../../db/client.server";
import { createMailer } from "../../app/modules/mail/mailer.server";
import { createRenderer } from "../../app/modules/printing/renderer.server";
import { createQueue } from "../../queues/queue.server";

const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL is required");
const seconds = (name: string) => (process.env[name] ? Number(process.env[name]) : undefined);

const database = await openDatabase({ url });
const renderer = createRenderer();
const queue = await createQueue(
  { database, renderer, mailer: createMailer(database.db, { from: "test@freightdesk.local" }) },
  { sweepSeconds: seconds("WORKER_SWEEP_SECONDS"), staleAfterSeconds: seconds("WORKER_STALE_AFTER_SECONDS"), pollingSeconds: seconds("WORKER_POLLING_SECONDS") },
);
await queue.work();
console.log("ready");
