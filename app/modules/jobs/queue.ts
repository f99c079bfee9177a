/**
 * The job queue as the modules see it: what they may enqueue and how. It lives below the modules
 * so they depend on it without depending on the queue (queues/queue.server.ts implements it, and
 * its job table, queues/definitions.ts, imports the modules): the import graph has no circle
 * (issue 30 item 7; tests/unit/import-cycles.test.ts).
 */
import type { DbOrTx } from "../../../db/client.server";

/**
 * Each job's payload by job name. Empty here and filled in by queues/definitions.ts from its zod
 * schemas (a declaration merge), so a module's enqueue call is checked against the very schema
 * the queue parses with, while this file imports none of the modules that define them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface JobPayloads {}

export type JobName = keyof JobPayloads;
export type JobPayload<N extends JobName> = JobPayloads[N];

export interface EnqueueOptions {
  /** run the insert inside this transaction, so the job exists only if the change commits */
  tx?: DbOrTx;
  userId?: number | null;
  customerId?: number | null;
  /** a key for "at most one such job queued at a time" */
  singletonKey?: string;
  /** the sites the job's subject belongs to: only users who see all of them read its status */
  siteIds?: number[];
  /** run it no sooner than this (a carrier's next tracking news); pg-boss keeps it across restarts */
  startAfter?: Date;
}

export interface JobQueue {
  enqueue<N extends JobName>(name: N, payload: JobPayload<N>, options?: EnqueueOptions): Promise<{ jobId: string }>;
  /** begins processing jobs in this process (the web process by default, or `npm run worker`) */
  work(): Promise<void>;
  stop(): Promise<void>;
}
