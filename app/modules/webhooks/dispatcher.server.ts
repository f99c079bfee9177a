/**
 * Delivering webhooks (docs/decisions/039). The deliveries table is its own job queue: whichever
 * process works the job queue claims due deliveries (a lease, so a sender that died is taken
 * over: at least once), sends them concurrently, and writes the outcomes in batches. A
 * consignment's deliveries to an endpoint go one at a time in id order; each endpoint has at most
 * PER_ENDPOINT in flight, so a slow receiver holds only its own deliveries (each ends at the
 * timeout). Failures are retried with exponential backoff for 24 hours by the seams' clock; then
 * the delivery is given up, its endpoint paused and the endpoint's owners told.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.server";
import type { Mailer } from "../mail/mailer.server";
import { rowsOf } from "../../utils/sql-rows";
import { env } from "../../utils/env.server";
import { RETRY_WINDOW_MS } from "./events";
import { pauseEndpoints } from "./pause.server";
import { webhookSeams } from "./seams.server";
import { attempt, type AttemptResult } from "./send.server";
import { signedHeaders } from "./signing";

/** deliveries in flight to one endpoint, and in all, in this process */
export const PER_ENDPOINT = 16;
export const IN_FLIGHT = 256;
/** the first retry's wait; each next one doubles, up to MAX_BACKOFF_MS */
export const FIRST_BACKOFF_MS = 30_000;
export const MAX_BACKOFF_MS = 3_600_000;

/** When to try again after the `attempts`th try failed at `now`, or null when the window is over (give up). */
export function nextAttemptAt(attempts: number, windowStartedAt: Date, now: Date): Date | null {
  const end = windowStartedAt.getTime() + RETRY_WINDOW_MS;
  if (now.getTime() >= end) return null;
  const wait = Math.min(FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_MS);
  // the last try falls at the window's end
  return new Date(Math.min(now.getTime() + wait, end));
}

interface Claimed {
  id: number;
  endpoint_id: number;
  event_id: string;
  payload: unknown;
  attempts: number;
  window_started_at: string | Date;
  url: string;
  secret: string;
}

interface Outcome {
  delivery: Claimed;
  result: AttemptResult;
  at: Date;
}

/**
 * Claims up to `limit` due deliveries, at most `perEndpoint` of an endpoint and none of `busy`
 * endpoints. Due: pending and its time come, or 'sending' past its lease (its sender died). Of
 * two processes claiming at once, the row lock and the state check let only one take a row; a
 * delivery waits while an earlier one of its consignment and endpoint is unfinished.
 */
export async function claimDue(db: Db, options: { now: Date; limit: number; perEndpoint: number; busy: number[] }): Promise<Claimed[]> {
  const now = options.now.toISOString();
  const lease = new Date(options.now.getTime() + webhookSeams.timeoutMs + 60_000).toISOString();
  return rowsOf<Claimed>(
    await db.execute(sql`
      -- each active endpoint's oldest due deliveries, read from its own end of
      -- webhook_deliveries_endpoint_unfinished_idx: the oldest of all endpoints together let one
      -- endpoint's backlog fill the candidates and starve the others, and made a claim read
      -- hundreds of rows (each with its order check) to take sixteen (bench/webhooks.ts)
      with candidates as (
        select c.id, c.endpoint_id
        from webhook_endpoints e
        cross join lateral (
          select d.id, d.endpoint_id
          from webhook_deliveries d
          where d.endpoint_id = e.id
            and d.state in ('pending', 'sending')
            and ((d.state = 'pending' and d.next_attempt_at <= ${now}::timestamptz) or (d.state = 'sending' and d.locked_until < ${now}::timestamptz))
            and (d.consignment_id is null or not exists (
              select 1 from webhook_deliveries p
              where p.endpoint_id = d.endpoint_id and p.consignment_id = d.consignment_id and p.id < d.id and p.state in ('pending', 'sending')
            ))
          order by d.id
          limit ${options.perEndpoint}
        ) c
        where e.active and e.id <> all(${`{${options.busy.join(",")}}`}::int[])
      ),
      locked as (
        select d.id from webhook_deliveries d join candidates c on c.id = d.id
        order by d.id limit ${options.limit}
        for update of d skip locked
      )
      update webhook_deliveries d
      set state = 'sending', locked_until = ${lease}::timestamptz, attempts = d.attempts + 1, window_started_at = coalesce(d.window_started_at, ${now}::timestamptz)
      from locked, webhook_endpoints e
      -- checked again on the locked row: another process may have claimed it meanwhile
      where d.id = locked.id and e.id = d.endpoint_id and (d.state = 'pending' or d.locked_until < ${now}::timestamptz)
      returning d.id, d.endpoint_id, d.event_id, d.payload, d.attempts, d.window_started_at, e.url, e.secret`),
  ).map((r) => ({ ...r, id: Number(r.id), endpoint_id: Number(r.endpoint_id) }));
}

/** Sends one claimed delivery, signed at `now`. */
export async function send(d: Claimed, now: Date): Promise<AttemptResult> {
  const body = JSON.stringify(d.payload);
  const msgId = `msg_${d.event_id.replaceAll("-", "")}`;
  return attempt(d.url, signedHeaders(d.secret, msgId, Math.floor(now.getTime() / 1000), body), body, { allowLocal: env().WEBHOOKS_ALLOW_LOCAL === "1" });
}

/**
 * Writes outcomes: each attempt logged, each delivery succeeded, due again or given up, in one
 * statement whatever their number; then pauses the endpoints whose deliveries were given up.
 */
export async function recordOutcomes(db: Db, mailer: Mailer, outcomes: Outcome[]): Promise<{ givenUp: number[] }> {
  if (!outcomes.length) return { givenUp: [] };
  const givenUp: number[] = [];
  const rows = outcomes.map(({ delivery: d, result: r, at }) => {
    const next = r.ok ? null : nextAttemptAt(d.attempts, new Date(d.window_started_at), at);
    if (!r.ok && !next) givenUp.push(d.endpoint_id);
    return {
      id: d.id,
      s: r.ok ? "succeeded" : next ? "pending" : "failed",
      n: next?.toISOString() ?? at.toISOString(),
      f: r.ok || !next ? at.toISOString() : null,
      st: r.status,
      ms: r.durationMs,
      e: r.error,
      b: r.response,
      at: at.toISOString(),
    };
  });
  // one statement, so one round trip and one commit a batch (it was a transaction of two, and a
  // round of the dispatcher waits for it): the attempts' insert reads the deliveries as the
  // statement began, which the update does not remove
  await db.execute(sql`
    with x as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(id bigint, s text, n timestamptz, f timestamptz, st int, ms int, e text, b text, at timestamptz)
    ),
    -- only a claim still held is ended: a delivery replayed or deleted meanwhile is left as it is
    ended as (
      update webhook_deliveries d set state = x.s, next_attempt_at = x.n, finished_at = x.f, locked_until = null
      from x where d.id = x.id and d.state = 'sending'
    )
    insert into webhook_attempts (delivery_id, status, duration_ms, error, response, at)
    select x.id, x.st, x.ms, x.e, x.b, x.at from x
    where exists (select 1 from webhook_deliveries d where d.id = x.id)`);
  if (givenUp.length) await pauseEndpoints(db, mailer, [...new Set(givenUp)]);
  return { givenUp };
}

/**
 * Delivers everything due now, once, and waits for it: for tests and the bench, which drive the
 * clock (`webhookSeams.now`) themselves. Answers how many attempts were made.
 */
export async function deliverDue(db: Db, mailer: Mailer, options: { limit?: number } = {}): Promise<number> {
  const now = webhookSeams.now();
  const claimed = await claimDue(db, { now, limit: options.limit ?? IN_FLIGHT, perEndpoint: PER_ENDPOINT, busy: [] });
  const outcomes = await Promise.all(claimed.map(async (delivery) => ({ delivery, result: await send(delivery, now), at: webhookSeams.now() })));
  await recordOutcomes(db, mailer, outcomes);
  return claimed.length;
}

export interface Dispatcher {
  /** look for due deliveries soon (after an emit in this process, say) */
  nudge(): void;
  /** stops claiming and waits for the deliveries in flight to be recorded */
  stop(): Promise<void>;
}

/**
 * The long-running dispatcher of a process that works the queue. Claims only what fits its free
 * capacity (per endpoint and in all), so an endpoint whose receiver hangs fills its own slots and
 * no others; each finished send is recorded within a moment, in batches.
 */
export function startDispatcher(db: Db, mailer: Mailer): Dispatcher {
  const inFlight = new Map<number, number>();
  let total = 0;
  let outcomes: Outcome[] = [];
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  const sends = new Set<Promise<void>>();

  const round = async () => {
    // the outcomes first: a consignment's next delivery is due only once its previous one is recorded
    const batch = outcomes;
    outcomes = [];
    await recordOutcomes(db, mailer, batch);
    if (stopped) return;
    const free = IN_FLIGHT - total;
    if (free <= 0) return;
    const busy = [...inFlight].filter(([, n]) => n >= PER_ENDPOINT).map(([id]) => id);
    const now = webhookSeams.now();
    const claimed = await claimDue(db, { now, limit: free, perEndpoint: PER_ENDPOINT, busy });
    for (const delivery of claimed) {
      inFlight.set(delivery.endpoint_id, (inFlight.get(delivery.endpoint_id) ?? 0) + 1);
      total++;
      const p: Promise<void> = send(delivery, now).then((result) => {
        outcomes.push({ delivery, result, at: webhookSeams.now() });
        inFlight.set(delivery.endpoint_id, inFlight.get(delivery.endpoint_id)! - 1);
        total--;
        sends.delete(p);
        nudge();
      });
      sends.add(p);
    }
    // a full claim may have left more due
    if (claimed.length === free) again = true;
  };

  const nudge = () => {
    if (running) {
      again = true;
      return;
    }
    again = false;
    running = round()
      .catch((e: unknown) => console.error("[webhooks] dispatch failed", e instanceof Error ? e.message : e))
      .finally(() => {
        running = null;
        if (again && !stopped) nudge();
      });
  };

  const timer = setInterval(nudge, webhookSeams.pollMs);
  timer.unref();
  nudge();
  return {
    nudge,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await Promise.all([...sends]);
      // what finished is written; a delivery whose record failed is sent again after its lease
      await recordOutcomes(db, mailer, outcomes).catch(() => {});
      outcomes = [];
    },
  };
}
