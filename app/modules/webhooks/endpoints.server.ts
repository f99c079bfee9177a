/**
 * Webhook endpoints (issue 34 item 1, docs/decisions/039): staff manage any customer's, a
 * customer's admins (super despatchers) their own customer's, everyone else is refused. Another
 * customer's endpoint is 404 to a customer's admin, as if it did not exist.
 */
import { and, asc, count, eq, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, webhookEndpoints } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { canManageWebhooks, isAdmin } from "../auth/roles";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { env } from "../../utils/env.server";
import { urlProblem } from "./address";
import { createEndpointSchema, listQuery, MAX_ENDPOINTS, MESSAGES, updateEndpointSchema } from "./schema";
import { newSecret } from "./signing";

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export const endpointJson = (e: EndpointRow) => ({
  id: e.id,
  customer_id: e.customerId,
  url: e.url,
  events: e.events,
  active: e.active,
  paused_reason: e.pausedReason,
  paused_at: e.pausedAt?.toISOString() ?? null,
  created_at: e.createdAt.toISOString(),
  updated_at: e.updatedAt.toISOString(),
});
export type EndpointJson = ReturnType<typeof endpointJson>;

export const assertWebhookManager = (user: CurrentUser) => authorize(user, canManageWebhooks);

/** The rows this user may see: staff every customer's, a customer's admin their own customer's. */
const scope = (user: CurrentUser): SQL | undefined => (isAdmin(user) ? undefined : eq(webhookEndpoints.customerId, user.customer.id));

/**
 * The customer a list or a new endpoint is for: staff name one (else the customer they work in),
 * a customer's admin gets their own; naming another customer is 404 to them.
 */
export async function webhookCustomer(db: DbOrTx, user: CurrentUser, wanted: number | undefined): Promise<{ id: number; name: string }> {
  assertWebhookManager(user);
  const id = wanted ?? user.customer.id;
  if (!isAdmin(user) && id !== user.customer.id) throw notFound("Customer");
  const [row] = await db.select({ id: customers.id, name: customers.name }).from(customers).where(eq(customers.id, id));
  if (!row) throw notFound("Customer");
  return row;
}

export async function listEndpoints(db: DbOrTx, user: CurrentUser, query: unknown) {
  const { customer_id } = parseOrThrow(listQuery, query);
  const customer = await webhookCustomer(db, user, customer_id);
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.customerId, customer.id)).orderBy(asc(webhookEndpoints.id));
  return { customer, webhooks: rows.map(endpointJson) };
}

/** One endpoint of the user's scope, or 404. */
export async function loadEndpoint(db: DbOrTx, user: CurrentUser, id: number, options: { lock?: boolean } = {}): Promise<EndpointRow> {
  assertWebhookManager(user);
  const query = db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), scope(user)));
  const [row] = options.lock ? await query.for("update") : await query;
  if (!row) throw notFound("Webhook endpoint");
  return row;
}

export const getEndpoint = async (db: DbOrTx, user: CurrentUser, id: number) => endpointJson(await loadEndpoint(db, user, id));

function assertUrl(url: string) {
  const problem = urlProblem(url, env().WEBHOOKS_ALLOW_LOCAL === "1");
  if (problem) throw new AppError("invalid", problem, { url: [problem] });
}

/** A new endpoint; its secret is answered this once. */
export async function createEndpoint(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<{ webhook: EndpointJson; secret: string }> {
  assertWebhookManager(user);
  const input = parseOrThrow(createEndpointSchema, raw);
  const customer = await webhookCustomer(db, user, input.customer_id);
  assertUrl(input.url);
  const secret = newSecret();
  return db.transaction(async (tx) => {
    // the customer's row locked: two creates at once cannot both pass the count
    await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customer.id)).for("update");
    const [{ n }] = (await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.customerId, customer.id))) as [{ n: number }];
    if (n >= MAX_ENDPOINTS) throw new AppError("invalid", MESSAGES.tooMany, { base: [MESSAGES.tooMany] });
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ customerId: customer.id, url: input.url, events: input.events, secret, active: input.active ?? true, createdByStaff: isAdmin(user), createdBy: user.id })
      .returning();
    return { webhook: endpointJson(row!), secret };
  });
}

/**
 * Changes an endpoint. Made active again, its pause is cleared and its waiting deliveries go.
 * `rotate_secret` makes a new secret, answered this once; deliveries are signed with it from now.
 */
export async function updateEndpoint(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<{ webhook: EndpointJson; secret?: string }> {
  const existing = await loadEndpoint(db, user, id);
  const input = parseOrThrow(updateEndpointSchema, raw);
  if (input.url !== undefined) assertUrl(input.url);
  const secret = input.rotate_secret ? newSecret() : undefined;
  const reactivated = input.active === true && !existing.active;
  const [row] = await db
    .update(webhookEndpoints)
    .set({
      ...(input.url !== undefined ? { url: input.url } : {}),
      ...(input.events !== undefined ? { events: input.events } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
      ...(reactivated ? { pausedReason: null, pausedAt: null } : {}),
      ...(secret ? { secret } : {}),
      updatedAt: new Date(),
    })
    .where(eq(webhookEndpoints.id, existing.id))
    .returning();
  if (!row) throw notFound("Webhook endpoint");
  return { webhook: endpointJson(row), ...(secret ? { secret } : {}) };
}

/** Deletes an endpoint with its deliveries and their log. */
export async function deleteEndpoint(db: DbOrTx, user: CurrentUser, id: number): Promise<{ message: string }> {
  const existing = await loadEndpoint(db, user, id);
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, existing.id));
  return { message: MESSAGES.deleted };
}
