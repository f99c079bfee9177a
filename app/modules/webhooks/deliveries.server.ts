/**
 * An endpoint's delivery log and replays (docs/decisions/039), in the scope of endpoints.server.ts:
 * a delivery of an endpoint the user may not manage is 404.
 */
import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { assertWebhookManager, loadEndpoint } from "./endpoints.server";
import { DELIVERIES_PER_PAGE, deliveriesQuery, MESSAGES } from "./schema";
import { webhookSeams } from "./seams.server";

type DeliveryRow = typeof webhookDeliveries.$inferSelect;
type AttemptRow = typeof webhookAttempts.$inferSelect;

const attemptJson = (a: AttemptRow) => ({ status: a.status, duration_ms: a.durationMs, error: a.error, response: a.response, at: a.at.toISOString() });

const deliveryJson = (d: DeliveryRow, attempts: AttemptRow[]) => ({
  id: d.id,
  endpoint_id: d.endpointId,
  event_id: (d.payload as { id?: string }).id ?? d.eventId,
  type: d.type,
  consignment_id: d.consignmentId,
  state: d.state,
  attempts_count: d.attempts,
  next_attempt_at: d.state === "pending" ? d.nextAttemptAt.toISOString() : null,
  created_at: d.createdAt.toISOString(),
  finished_at: d.finishedAt?.toISOString() ?? null,
  payload: d.payload,
  attempts: attempts.map(attemptJson),
});
export type DeliveryJson = ReturnType<typeof deliveryJson>;

/** The endpoint's deliveries, newest first, with their attempts (newest first); 50 a page. */
export async function listDeliveries(db: DbOrTx, user: CurrentUser, endpointId: number, query: unknown) {
  const endpoint = await loadEndpoint(db, user, endpointId);
  const { page } = parseOrThrow(deliveriesQuery, query);
  const [rows, counted] = await Promise.all([
    db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.id))
      .orderBy(desc(webhookDeliveries.id))
      .limit(DELIVERIES_PER_PAGE)
      .offset((page - 1) * DELIVERIES_PER_PAGE),
    db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id)),
  ]);
  const attempts = rows.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            rows.map((r) => r.id),
          ),
        )
        .orderBy(desc(webhookAttempts.id))
    : [];
  return {
    deliveries: rows.map((d) => deliveryJson(d, attempts.filter((a) => a.deliveryId === d.id))),
    page,
    per_page: DELIVERIES_PER_PAGE,
    total: Number(counted[0]?.n ?? 0),
  };
}

/**
 * Sends a delivery's event again: a new delivery of the same event (the same webhook-id, so a
 * receiver that keeps ids drops a repeat), due now, with a fresh retry window.
 */
export async function replayDelivery(db: DbOrTx, user: CurrentUser, deliveryId: number) {
  assertWebhookManager(user);
  const [found] = await db
    .select({ delivery: webhookDeliveries })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookDeliveries.id, deliveryId), isAdmin(user) ? undefined : eq(webhookEndpoints.customerId, user.customer.id)));
  if (!found) throw notFound("Webhook delivery");
  const d = found.delivery;
  const now = webhookSeams.now();
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ endpointId: d.endpointId, customerId: d.customerId, eventId: d.eventId, type: d.type, payload: d.payload, consignmentId: d.consignmentId, nextAttemptAt: now, createdAt: now })
    .returning();
  return { message: MESSAGES.replayed, delivery: deliveryJson(row!, []) };
}

/** How many deliveries wait (pending or sending) for each of these endpoints, for the list screen. */
export async function waitingCounts(db: DbOrTx, endpointIds: number[]): Promise<Map<number, number>> {
  if (!endpointIds.length) return new Map();
  const rows = await db
    .select({ id: webhookDeliveries.endpointId, n: count() })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.endpointId, endpointIds), sql`${webhookDeliveries.state} in ('pending', 'sending')`))
    .groupBy(webhookDeliveries.endpointId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}
