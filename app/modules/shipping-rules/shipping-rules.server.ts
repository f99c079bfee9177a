/**
 * A customer's shipping rules (issue 34 item 2, docs/decisions/040): list, detail, create, change,
 * delete, order. Every function takes the customer id from the path and checks it here, so the
 * screen and /api/customers/{id}/shipping_rules share one rule: staff work in any customer's rules,
 * a customer's admins (super despatchers) in their own; other users of the customer get 403, and
 * another customer's id reads as one that is not there (404).
 */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, customers, itemTypes, services, shippingRules, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { forbiddenMessage } from "../auth/guard.server";
import { isAdmin, isSuperDespatcherOrAbove } from "../auth/roles";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";
import { MAX_RULES_PER_CUSTOMER, MESSAGES, ruleSchema, sequenceSchema, type Actions, type Conditions, type RuleInput, type RuleJson } from "./schema";

/** Who may read and change a customer's shipping rules: staff, and the customer's super despatchers. */
export const canManageShippingRules = (user: CurrentUser) => isSuperDespatcherOrAbove(user);

/** The customer whose rules are asked for, or 404 (not theirs) / 403 (not an admin of it). */
export async function ruleCustomer(db: DbOrTx, user: CurrentUser, customerId: number) {
  if (!isAdmin(user) && customerId !== user.customer.id) throw notFound("Customer");
  if (!canManageShippingRules(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const [customer] = await db.select({ id: customers.id, name: customers.name }).from(customers).where(eq(customers.id, customerId));
  if (!customer) throw notFound("Customer");
  return customer;
}

type Row = typeof shippingRules.$inferSelect;
const toJson = (r: Row): RuleJson => ({
  id: r.id,
  customer_id: r.customerId,
  site_id: r.siteId,
  position: r.position,
  name: r.name,
  active: r.active,
  conditions: r.conditions as Conditions,
  actions: r.actions as Actions,
});

const ordered = [asc(shippingRules.position), asc(shippingRules.id)];

/** A customer's rules in their order (no access check: for callers that did it). */
export async function rulesOf(db: DbOrTx, customerId: number): Promise<RuleJson[]> {
  return (await db.select().from(shippingRules).where(eq(shippingRules.customerId, customerId)).orderBy(...ordered)).map(toJson);
}

export async function listRules(db: DbOrTx, user: CurrentUser, customerId: number): Promise<RuleJson[]> {
  await ruleCustomer(db, user, customerId);
  return rulesOf(db, customerId);
}

async function findRule(db: DbOrTx, customerId: number, id: number): Promise<RuleJson> {
  const [row] = await db.select().from(shippingRules).where(and(eq(shippingRules.id, id), eq(shippingRules.customerId, customerId)));
  if (!row) throw new AppError("not_found", MESSAGES.notFound);
  return toJson(row);
}

export async function getRule(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<RuleJson> {
  await ruleCustomer(db, user, customerId);
  return findRule(db, customerId, id);
}

/** The services and carriers a rule may name (the form's choices and the check of a rule). */
export async function ruleChoices(db: DbOrTx, customerId: number) {
  const [serviceRows, siteRows, typeRows] = await Promise.all([
    db.select({ carrier: carriers.code, carrierName: carriers.name, service: services.code, serviceName: services.name }).from(services).innerJoin(carriers, eq(carriers.id, services.carrierId)).orderBy(asc(carriers.code), asc(services.code)),
    db.select({ id: sites.id, name: sites.name }).from(sites).where(eq(sites.customerId, customerId)).orderBy(asc(sites.name)),
    db.select({ id: itemTypes.id, description: itemTypes.description }).from(itemTypes).where(eq(itemTypes.customerId, customerId)).orderBy(asc(itemTypes.sequence), asc(itemTypes.id)),
  ]);
  const services_ = serviceRows.map((s) => ({ key: `${s.carrier}:${s.service}`, label: `${s.carrierName} ${s.serviceName} (${s.carrier}:${s.service})` }));
  const carrierList = [...new Map(serviceRows.map((s) => [s.carrier, { code: s.carrier, name: s.carrierName }])).values()];
  return { services: services_, carriers: carrierList, sites: siteRows, itemTypes: typeRows };
}

/** The schema's result, or every field's message at once (422): sites, item types, services and carriers must exist for the customer. */
export async function checkRule(db: DbOrTx, customerId: number, raw: unknown): Promise<RuleInput> {
  const result = ruleSchema.safeParse(raw);
  const errors: FieldErrors = result.success ? {} : fieldErrorsFrom(result.error);
  if (result.success) {
    const v = result.data;
    const choices = await ruleChoices(db, customerId);
    const add = (field: string, message: string) => (errors[field] ??= []).push(message);
    if (v.site_id != null && !choices.sites.some((s) => s.id === v.site_id)) add("site_id", MESSAGES.site);
    const typeIds = new Set(choices.itemTypes.map((t) => t.id));
    if (v.conditions.item_types?.some((id) => !typeIds.has(id))) add("conditions.item_types", MESSAGES.itemType);
    const known = new Set(choices.services.map((s) => s.key.toLowerCase()));
    if (v.actions.use && !known.has(v.actions.use.toLowerCase())) add("actions.use", `${MESSAGES.unknownService} ${v.actions.use}`);
    v.actions.choose?.services.forEach((s, i) => {
      if (!known.has(s.toLowerCase())) add(`actions.choose.services.${i}`, `${MESSAGES.unknownService} ${s}`);
    });
    const carrierCodes = new Set(choices.carriers.map((c) => c.code.toLowerCase()));
    v.actions.exclude_carriers?.forEach((c, i) => {
      if (!carrierCodes.has(c.toLowerCase())) add(`actions.exclude_carriers.${i}`, `${MESSAGES.unknownCarrier} ${c}`);
    });
  }
  const first = Object.values(errors)[0]?.[0];
  if (first || !result.success) throw new AppError("invalid", first ?? "Invalid input", errors);
  return result.data;
}

const toColumns = (v: RuleInput) => ({ name: v.name, siteId: v.site_id ?? null, active: v.active, conditions: v.conditions, actions: v.actions });

/** A body as a rule: an object, or 422. */
const asObject = (raw: unknown): Record<string, unknown> => (raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {});

export async function createRule(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown): Promise<RuleJson> {
  await ruleCustomer(db, user, customerId);
  const input = await checkRule(db, customerId, asObject(raw));
  // one transaction holding the customer's row: two creates at rule 200 cannot both see 199 and
  // make 201, nor take the same last position
  const id = await db.transaction(async (tx) => {
    await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for("update");
    const [{ n, last } = { n: 0, last: 0 }] = await tx
      .select({ n: count(), last: sql<number>`coalesce(max(${shippingRules.position}), 0)::int` })
      .from(shippingRules)
      .where(eq(shippingRules.customerId, customerId));
    if (n >= MAX_RULES_PER_CUSTOMER) throw new AppError("invalid", MESSAGES.tooMany, { base: [MESSAGES.tooMany] });
    const [row] = await tx.insert(shippingRules).values({ customerId, ...toColumns(input), position: last + 1 }).returning({ id: shippingRules.id });
    return row!.id;
  });
  return findRule(db, customerId, id);
}

/** A PUT's fields replace the rule's own (conditions and actions each as a whole). */
export async function updateRule(db: DbOrTx, user: CurrentUser, customerId: number, id: number, raw: unknown): Promise<RuleJson> {
  await ruleCustomer(db, user, customerId);
  const current = await findRule(db, customerId, id);
  const input = await checkRule(db, customerId, { name: current.name, site_id: current.site_id, active: current.active, conditions: current.conditions, actions: current.actions, ...asObject(raw) });
  await db
    .update(shippingRules)
    .set({ ...toColumns(input), updatedAt: new Date() })
    .where(and(eq(shippingRules.id, id), eq(shippingRules.customerId, customerId)));
  return findRule(db, customerId, id);
}

export async function deleteRule(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<{ id: number; deleted: true }> {
  await ruleCustomer(db, user, customerId);
  const gone = await db.delete(shippingRules).where(and(eq(shippingRules.id, id), eq(shippingRules.customerId, customerId))).returning({ id: shippingRules.id });
  if (!gone.length) throw new AppError("not_found", MESSAGES.notFound);
  return { id, deleted: true };
}

/**
 * Drag to sort (or Move up / Move down): `ids` in their new order take positions 1..n; rules not
 * listed keep their order after them. Ids not of this customer: 422, nothing moved.
 */
export async function updateSequenceOrder(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown): Promise<RuleJson[]> {
  await ruleCustomer(db, user, customerId);
  const parsed = sequenceSchema.safeParse(raw);
  if (!parsed.success) throw new AppError("invalid", MESSAGES.ids, { ids: [MESSAGES.ids] });
  const wanted = [...new Set(parsed.data.ids)];
  // one transaction over the customer's locked rules: two reorders at once cannot interleave and
  // leave two rules at one position
  await db.transaction(async (tx) => {
    const current = (await tx.select({ id: shippingRules.id }).from(shippingRules).where(eq(shippingRules.customerId, customerId)).orderBy(...ordered).for("update")).map((r) => r.id);
    const known = new Set(current);
    if (wanted.some((id) => !known.has(id))) throw new AppError("invalid", MESSAGES.ids, { ids: [MESSAGES.ids] });
    const all = [...wanted, ...current.filter((id) => !wanted.includes(id))];
    const cases = sql.join(all.map((id, i) => sql`when ${id}::integer then ${i + 1}::integer`), sql` `);
    await tx.update(shippingRules).set({ position: sql`case ${shippingRules.id} ${cases} end` }).where(inArray(shippingRules.id, all));
  });
  return rulesOf(db, customerId);
}
