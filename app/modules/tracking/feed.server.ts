/**
 * Events fetched from carriers' adapters (issue 14 item 2): after a despatch each carrier takes
 * its consignments into its tracking and says when it will have news; a `tracking.fetch` job is
 * queued (pg-boss, delayed) for each of those moments, so the journey goes on across restarts.
 * Fetching asks the adapter for everything it has so far and records it like posted events, so a
 * fetch run twice, late or again (replay) only adds what is new.
 */
import { inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignments } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import { adapterFor } from "../carriers/adapters.server";
import { incomingOf, recordTrackingEvents, type IncomingEvent } from "./record.server";
import { OUTCOMES, type Outcome } from "./rules";
import { isTracked } from "./states";
import { loadSubjects, type LoadedSubject } from "./subjects.server";

/** The most consignments one fetch job asks about (a despatch's worth). */
export const MAX_FETCH = 5000;
/** events recorded in one transaction: a fetch of many consignments commits as it goes */
const RECORD_BATCH = 1000;

/** Subjects grouped by carrier and customer (the job's owner). */
function groups(loaded: LoadedSubject[]) {
  const out = new Map<string, LoadedSubject[]>();
  for (const l of loaded) {
    const key = `${l.carrier.code}|${l.customerId}`;
    out.set(key, [...(out.get(key) ?? []), l]);
  }
  return [...out.values()];
}

/**
 * Takes despatched consignments into their carriers' tracking and queues a fetch for each moment
 * an event falls due, in the transaction that records the carrier's plan: a plan exists only
 * with its fetches. Consignments already tracked are left as they are. `onlyFuture`: the caller
 * fetches what is due now itself (replay), so only later moments are queued.
 */
export async function startTracking(db: DbOrTx, queue: JobQueue, ids: number[], options: { now?: Date; onlyFuture?: boolean } = {}): Promise<{ queued: number }> {
  const now = options.now ?? new Date();
  const tracked = await db.select({ id: consignments.id, state: consignments.state }).from(consignments).where(inArray(consignments.id, ids));
  const live = tracked.filter((c) => isTracked(c.state)).map((c) => c.id);
  let queued = 0;
  for (const group of groups(await loadSubjects(db, live, { places: true }))) {
    await db.transaction(async (tx) => {
      const due = await adapterFor(group[0]!.carrier).startTracking({ db: tx, now }, group.map((g) => g.subject));
      const byTime = new Map<number, Set<number>>();
      for (const d of due) {
        const at = d.at.getTime();
        if (options.onlyFuture && at <= now.getTime()) continue;
        if (!byTime.has(at)) byTime.set(at, new Set());
        byTime.get(at)!.add(d.consignmentId);
      }
      for (const [at, set] of [...byTime].sort((a, b) => a[0] - b[0])) {
        const consignmentIds = [...set];
        for (let i = 0; i < consignmentIds.length; i += MAX_FETCH) {
          await queue.enqueue("tracking.fetch", { consignmentIds: consignmentIds.slice(i, i + MAX_FETCH) }, { tx, customerId: group[0]!.customerId, startAfter: new Date(at) });
          queued++;
        }
      }
    });
  }
  return { queued };
}

/** After a despatch job: its despatched consignments' tracking. A failure here is logged, not the despatch's (replay starts it again). */
export async function startTrackingAfterDespatch(db: DbOrTx, queue: JobQueue | null, ids: number[]): Promise<void> {
  if (!queue || !ids.length) return;
  await startTracking(db, queue, ids).catch((e: unknown) => console.error("[tracking] could not start tracking after despatch", e instanceof Error ? e.message : e));
}

export interface FetchResult {
  consignments: number;
  fetched: number;
  counts: Record<Outcome, number>;
}

export const fetchMessage = (r: FetchResult) =>
  `Fetched ${r.fetched} tracking event(s) for ${r.consignments} consignment(s): ${r.counts.applied} applied, ${r.counts.duplicate} already received, ${r.counts.older_than_current_state} older than the state.`;

/**
 * Asks each consignment's carrier for its events until `now` and records them (source carrier),
 * committing every RECORD_BATCH events or so. `progress` hears the share of consignments done.
 */
export async function fetchAndRecord(
  db: DbOrTx,
  ids: number[],
  options: { now?: Date; progress?: (done: number, total: number) => Promise<void>; notify?: JobQueue | null } = {},
): Promise<FetchResult> {
  const now = options.now ?? new Date();
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  const loaded = await loadSubjects(db, ids, { places: false });
  let fetched = 0;
  let done = 0;
  for (const group of groups(loaded)) {
    const events = (await adapterFor(group[0]!.carrier).fetchTrackingEvents({ db, now }, group.map((g) => g.subject))).map(incomingOf);
    fetched += events.length;
    for (const batch of batchesByConsignment(events)) {
      const recorded = await recordTrackingEvents(db, batch, { source: "carrier", userId: null, notify: options.notify });
      for (const o of recorded.outcomes) counts[o]++;
    }
    done += group.length;
    await options.progress?.(done, loaded.length);
  }
  return { consignments: loaded.length, fetched, counts };
}

/** Events cut into batches of about RECORD_BATCH, never splitting a consignment's. */
function batchesByConsignment(events: IncomingEvent[]): IncomingEvent[][] {
  const byConsignment = new Map<number, IncomingEvent[]>();
  for (const e of events) byConsignment.set(e.consignmentId, [...(byConsignment.get(e.consignmentId) ?? []), e]);
  const batches: IncomingEvent[][] = [[]];
  for (const list of byConsignment.values()) {
    if (batches.at(-1)!.length + list.length > RECORD_BATCH && batches.at(-1)!.length) batches.push([]);
    batches.at(-1)!.push(...list);
  }
  return batches.filter((b) => b.length);
}
