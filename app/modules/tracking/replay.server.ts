/**
 * Tracking replay (issue 14 item 8; spec 2 `/manage_tracking` and
 * POST /api/replay_tracking_events_by_consignment_numbers): admins and super admins ask carriers
 * again for the events of chosen consignments, by number or by carrier and despatch dates, in a
 * job with progress. Recording is idempotent (duplicates are no-ops, states only move forward),
 * so a replay adds only what was missed and moves no consignment a second time. A SIMEX
 * consignment without a journey (despatched before journeys, or whose start failed) gets one.
 */
import { and, asc, between, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignments } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { homeButtons } from "../auth/roles";
import { calendarDate } from "../calendar/dates";
import { resolveDateRange } from "../despatch/manifest-dates";
import { AppError } from "../../utils/errors";
import { FOR_A_PERSON, parseOrThrow } from "../../utils/validation";
import { fetchAndRecord, startTracking } from "./feed.server";
import { OUTCOMES, type Outcome } from "./rules";
import { TRACKED_STATES } from "./states";

/** The most consignments one replay takes: a busy carrier's two months. */
export const MAX_REPLAY = 50_000;
/** consignments asked about per step: progress moves, transactions stay short */
const STEP = 500;
export const NOTHING_TO_REPLAY = "No consignment found";

export const NO_CRITERIA = "Enter consignment numbers, or choose a carrier and the From and To dates";
export const DATES_REVERSED = "The From date is after the To date: swap the dates";

const numbersSchema = z
  .union([z.array(z.string({ error: "Enter consignment numbers as text" })), z.string()], { error: "Enter consignment numbers as text, one a line or separated by commas" })
  .transform((v) => [...new Set((Array.isArray(v) ? v : v.split(/[\s,;]+/)).map((n) => n.trim()).filter(Boolean))])
  .pipe(
    z
      .array(z.string().max(50, "A consignment number is at most 50 characters"))
      .min(1, "Enter at least one consignment number")
      .max(MAX_REPLAY, `At most ${MAX_REPLAY} consignment numbers at once`),
  );

const byNumbers = z.object({ consignmentNumbers: numbersSchema });
const byDates = z.object({
  carrier: z.string({ error: "Choose a carrier" }).trim().min(1, "Choose a carrier").max(50, "Choose a carrier"),
  fromDate: calendarDate("From date"),
  toDate: calendarDate("To date"),
});

/**
 * The request's criteria: numbers, or a carrier with dates; which one is read from the fields the
 * caller sent, so a blank date is told against its field, not as "neither form matched".
 */
export function parseReplay(raw: unknown): z.infer<typeof byNumbers> | z.infer<typeof byDates> {
  const body = typeof raw === "object" && raw !== null && !Array.isArray(raw) ? raw : {};
  if ("consignmentNumbers" in body) return parseOrThrow(byNumbers, body, FOR_A_PERSON);
  if (["carrier", "fromDate", "toDate"].some((k) => k in body)) return parseOrThrow(byDates, body, FOR_A_PERSON);
  throw new AppError("invalid", NO_CRITERIA, { base: [NO_CRITERIA] });
}

/** Which consignments a replay is about, as the request and the screen name them. */
export type ReplayCriteria = ReturnType<typeof parseReplay>;

const tracked = inArray(consignments.state, TRACKED_STATES);

/** The consignments a replay covers (every customer's: replay is the provider's staff's), and the numbers that named none. */
async function resolve(db: DbOrTx, criteria: ReplayCriteria): Promise<{ ids: number[]; notFound: string[] }> {
  if ("consignmentNumbers" in criteria) {
    const rows = await db
      .select({ id: consignments.id, number: consignments.consignmentNumber })
      .from(consignments)
      .where(and(inArray(consignments.consignmentNumber, criteria.consignmentNumbers), eq(consignments.active, true), tracked));
    const found = new Set(rows.map((r) => r.number));
    return { ids: rows.map((r) => r.id).sort((a, b) => a - b), notFound: criteria.consignmentNumbers.filter((n) => !found.has(n)) };
  }
  const [carrier] = await db.select({ id: carriers.id }).from(carriers).where(eq(sql`lower(${carriers.code})`, criteria.carrier.toLowerCase()));
  if (!carrier) throw new AppError("invalid", "No carrier with this code", { carrier: ["No carrier with this code"] });
  const rows = await db
    .select({ id: consignments.id })
    .from(consignments)
    .innerJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
    .where(and(eq(carrierAccounts.carrierId, carrier.id), between(consignments.despatchDate, criteria.fromDate, criteria.toDate), eq(consignments.active, true), tracked))
    .orderBy(asc(consignments.id))
    .limit(MAX_REPLAY + 1);
  if (rows.length > MAX_REPLAY) throw new AppError("invalid", `More than ${MAX_REPLAY} consignments: choose fewer dates`, { toDate: [`More than ${MAX_REPLAY} consignments: choose fewer dates`] });
  return { ids: rows.map((r) => r.id), notFound: [] };
}

/**
 * POST /api/replay_tracking_events_by_consignment_numbers and the /manage_tracking form: checks
 * the criteria, finds the consignments and queues the job. 422 when none is found.
 */
export async function requestReplay(db: DbOrTx, queue: JobQueue, user: CurrentUser, raw: unknown): Promise<{ job_id: string; consignments: number; not_found: string[] }> {
  authorize(user, homeButtons.manageTracking);
  const criteria = parseReplay(raw);
  if ("fromDate" in criteria) {
    // dates the wrong way round are told, not moved: moved, they name one day and find nothing
    if (criteria.fromDate > criteria.toDate) throw new AppError("invalid", DATES_REVERSED, { fromDate: [DATES_REVERSED] });
    // the manifests' rule: more than 2 months apart is refused
    const range = resolveDateRange({ from: criteria.fromDate, to: criteria.toDate }, criteria.fromDate, { from: "fromDate", to: "toDate" });
    if (Object.keys(range.errors).length) throw new AppError("invalid", Object.values(range.errors)[0]![0]!, range.errors);
    criteria.toDate = range.to;
  }
  const { ids, notFound } = await resolve(db, criteria);
  if (!ids.length) throw new AppError("invalid", NOTHING_TO_REPLAY, { [("consignmentNumbers" in criteria ? "consignmentNumbers" : "carrier")]: [NOTHING_TO_REPLAY] });
  const { jobId } = await queue.enqueue("tracking.replay", { consignmentIds: ids, notFound }, { userId: user.id, customerId: user.customer.id });
  return { job_id: jobId, consignments: ids.length, not_found: notFound };
}

export const replayPayload = z.object({
  consignmentIds: z.array(z.number().int().positive()).min(1).max(MAX_REPLAY),
  notFound: z.array(z.string()).default([]),
});

export interface ReplayResult {
  consignments: number;
  fetched: number;
  counts: Record<Outcome, number>;
  not_found: string[];
}

export const replayMessage = (r: ReplayResult) =>
  `Replayed the tracking of ${r.consignments} consignment(s): ${r.fetched} event(s) fetched, ${r.counts.applied} applied, ${r.counts.duplicate} already received.` +
  (r.not_found.length ? ` Not found: ${r.not_found.slice(0, 20).join(", ")}${r.not_found.length > 20 ? ", ..." : ""}.` : "");

/** The job: a step of STEP consignments at a time, journeys started where missing, then everything fetched recorded. */
export async function runReplay(db: Db, queue: JobQueue | null, payload: z.infer<typeof replayPayload>, progress: (pct: number, message: string) => Promise<void>): Promise<ReplayResult> {
  const ids = payload.consignmentIds;
  const counts = Object.fromEntries(OUTCOMES.map((o) => [o, 0])) as Record<Outcome, number>;
  let fetched = 0;
  for (let i = 0; i < ids.length; i += STEP) {
    const step = ids.slice(i, i + STEP);
    // what is due already is fetched just below; only the rest of a new journey waits in the queue
    if (queue) await startTracking(db, queue, step, { onlyFuture: true });
    const got = await fetchAndRecord(db, step, { notify: queue });
    fetched += got.fetched;
    for (const o of OUTCOMES) counts[o] += got.counts[o];
    const done = Math.min(ids.length, i + STEP);
    await progress((done / ids.length) * 100, `Replayed ${done} of ${ids.length} consignments`);
  }
  return { consignments: ids.length, fetched, counts, not_found: payload.notFound };
}

/** The carriers a replay by dates may name, for the screen's choice. */
export const replayCarriers = (db: DbOrTx) => db.select({ code: carriers.code, name: carriers.name }).from(carriers).orderBy(asc(carriers.name));
