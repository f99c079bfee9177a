/**
 * A queued job wakes the workers at once instead of waiting for their next poll (issue 32): the
 * export's user waited up to the polling interval (1 s, on average half of it) before the job
 * started, longer than a small export takes. The enqueuer notifies a channel with the job's
 * name, in its own transaction, so the notification is heard only once the job can be fetched;
 * each working process listens and asks its pg-boss worker for that queue to fetch now.
 * Polling stays: a notification sent while a listener reconnects is not heard, and then the
 * next poll finds the job as before.
 */
import { sql } from "drizzle-orm";
import postgres from "postgres";
import type { DbOrTx } from "../db/client.server";

export const JOBS_CHANNEL = "freightdesk_jobs";
/** The listening connection's name in pg_stat_activity. */
export const JOBS_APPLICATION_NAME = "freightdesk jobs";

/** Tells the working processes a job named `name` is queued; heard when `db`'s transaction commits. */
export async function announceJob(db: DbOrTx, name: string): Promise<void> {
  await db.execute(sql`select pg_notify(${JOBS_CHANNEL}, ${name})`);
}

/** Calls `wake` with each announced job's name until the returned stop is called. */
export async function listenForJobs(url: string, wake: (name: string) => void): Promise<() => Promise<void>> {
  const client = postgres(url, {
    max: 1,
    idle_timeout: 0,
    max_lifetime: null,
    fetch_types: false,
    onnotice: () => {},
    connection: { application_name: JOBS_APPLICATION_NAME },
  });
  // postgres.js listens again by itself when the connection is replaced
  await client.listen(JOBS_CHANNEL, wake);
  return () => client.end({ timeout: 5 });
}
