/**
 * The webhooks' public face for the modules that own the events (docs/decisions/039): they call
 * `emitEvent` (or `emitEvents` for a batch) inside the transaction of their change, so a delivery
 * exists exactly when the change commits. This file imports no module that emits: no circle.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";
import type { WebhookEventType } from "./events";
import { webhookSeams } from "./seams.server";

export interface WebhookEvent {
  type: WebhookEventType;
  customerId: number;
  /** deliveries of one consignment reach each endpoint in the order they were emitted */
  consignmentId?: number | null;
  /** the event's data: the JSON /api gives for the object; a function is called only when some endpoint wants the event */
  payload: unknown;
}

type Lazy = Omit<WebhookEvent, "payload"> & { payload: unknown | (() => Promise<unknown>) };

/** rows per insert statement (one JSON parameter) */
const CHUNK = 2000;

/** Which (customer, type) pairs some active endpoint wants, in one read. */
async function wanted(tx: DbOrTx, events: readonly Omit<WebhookEvent, "payload">[]): Promise<Set<string>> {
  const customers = [...new Set(events.map((e) => e.customerId))];
  const rows = rowsOf<{ customer_id: number; events: string[] }>(
    await tx.execute(sql`select customer_id, events from webhook_endpoints where active and customer_id = any(${`{${customers.join(",")}}`}::int[])`),
  );
  const out = new Set<string>();
  for (const r of rows) for (const type of r.events) out.add(`${Number(r.customer_id)} ${type}`);
  return out;
}

/**
 * Queues a delivery of each event to each active endpoint of its customer that wants its type, in
 * the order given (one statement per 2,000 events). Answers how many deliveries were queued.
 */
export async function emitEvents(tx: DbOrTx, events: readonly Lazy[]): Promise<number> {
  if (!events.length) return 0;
  const want = await wanted(tx, events);
  const chosen = events.filter((e) => want.has(`${e.customerId} ${e.type}`));
  if (!chosen.length) return 0;
  const now = webhookSeams.now();
  const rows = [];
  for (const e of chosen) {
    const data = typeof e.payload === "function" ? await (e.payload as () => Promise<unknown>)() : e.payload;
    const id = randomUUID();
    rows.push({ n: rows.length, i: id, t: e.type, c: e.customerId, k: e.consignmentId ?? null, p: { id: `evt_${id.replaceAll("-", "")}`, type: e.type, timestamp: now.toISOString(), data } });
  }
  let queued = 0;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const inserted = rowsOf<{ n: number }>(
      await tx.execute(sql`
        with ins as (
          insert into webhook_deliveries (endpoint_id, customer_id, event_id, type, payload, consignment_id, next_attempt_at, created_at)
          select e.id, x.c, x.i, x.t, x.p, x.k, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(rows.slice(i, i + CHUNK))}::jsonb) as x(n int, i uuid, t text, c int, k int, p jsonb)
          join webhook_endpoints e on e.customer_id = x.c and e.active and x.t = any(e.events)
          -- ids in the order emitted: the dispatcher delivers a consignment's events by id
          order by x.n, e.id
          returning 1
        )
        select count(*)::int as n from ins`),
    );
    queued += Number(inserted[0]?.n ?? 0);
  }
  return queued;
}

/** One event (see emitEvents). */
export const emitEvent = (tx: DbOrTx, event: Lazy) => emitEvents(tx, [event]);
