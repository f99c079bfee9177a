/**
 * Allocation rule records (issue 18 item 5): list by carrier, add, change, soft delete and test
 * against an invoice line. Reads need a finance user, writes an invoice admin (the routes check;
 * the functions check again so no caller can forget).
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { allocationRules, carriers, customers, invoiceDetails, invoices, services, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canAdministerInvoices, canUseFinance, financeScope, FINANCE_ACCESS_MESSAGES, type FinanceScope } from "../invoices/access";
import { mayNameRecord } from "../invoices/scope.server";
import { AppError, forbidden, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { loadCatalogue } from "./catalogue.server";
import { allocateLine, chainOf, evaluateChain, makesLoop, type EngineRule, type LineFields } from "./engine";
import { MESSAGES, ruleInput, testInput, type AllocationModel, type MappingOptions } from "./schemas";

type RuleRow = typeof allocationRules.$inferSelect;

export function assertReader(user: CurrentUser) {
  if (!canUseFinance(user)) throw forbidden();
}
export function assertWriter(user: CurrentUser) {
  if (!canAdministerInvoices(user)) throw forbidden();
}

export async function carrierByCode(db: DbOrTx, code: string) {
  const [c] = await db.select({ id: carriers.id, code: carriers.code, name: carriers.name }).from(carriers).where(eq(carriers.code, code));
  if (!c) throw new AppError("invalid", "No carrier has that code", { carrier_code: ["No carrier has that code"] });
  return c;
}

/** The code a Mapping's to_id names, for the list and the mapping CSV. */
async function codesOf(db: DbOrTx, rows: RuleRow[]) {
  const ids = (model: AllocationModel) => rows.filter((r) => r.type === "Mapping" && r.allocationModel === model).map((r) => Number((r.options as MappingOptions).to_id));
  const [cs, ss, vs] = await Promise.all([
    ids("Customer").length ? db.select({ id: customers.id, code: customers.code }).from(customers).where(inArray(customers.id, ids("Customer"))) : [],
    ids("Site").length ? db.select({ id: sites.id, code: sites.code }).from(sites).where(inArray(sites.id, ids("Site"))) : [],
    ids("CarrierService").length ? db.select({ id: services.id, code: services.code }).from(services).where(inArray(services.id, ids("CarrierService"))) : [],
  ]);
  const by: Record<AllocationModel, Map<number, string>> = {
    Customer: new Map(cs.map((x) => [x.id, x.code])),
    Site: new Map(ss.map((x) => [x.id, x.code])),
    CarrierService: new Map(vs.map((x) => [x.id, x.code])),
  };
  return (r: RuleRow) => (r.type === "Mapping" ? (by[r.allocationModel].get(Number((r.options as MappingOptions).to_id)) ?? null) : null);
}

export function toEngine(r: RuleRow): EngineRule {
  return { id: r.id, customerId: r.customerId, allocationModel: r.allocationModel, type: r.type, options: r.options, nextRuleId: r.nextRuleId };
}

/**
 * The carrier's live rules (all carriers' without a code), in spec shape with each rule's group
 * head; a customer's finance user sees none that names another customer (namedOnlyToScope).
 */
export async function listRules(db: DbOrTx, user: CurrentUser, carrierCode?: string | null) {
  assertReader(user);
  const carrier = carrierCode ? await carrierByCode(db, carrierCode) : null;
  const rows = await db
    .select({ rule: allocationRules, carrierCode: carriers.code })
    .from(allocationRules)
    .innerJoin(carriers, eq(carriers.id, allocationRules.carrierId))
    .where(and(eq(allocationRules.deleted, false), carrier ? eq(allocationRules.carrierId, carrier.id) : undefined))
    .orderBy(asc(allocationRules.id));
  const codeOf = await codesOf(db, rows.map((r) => r.rule));
  const engine = rows.map((r) => toEngine(r.rule));
  const byId = new Map(engine.map((r) => [r.id, r]));
  const pointed = new Set(engine.map((r) => r.nextRuleId));
  const headOf = new Map<number, number>();
  for (const h of engine.filter((r) => !pointed.has(r.id))) for (const r of chainOf(h.id, byId)) headOf.set(r.id, h.id);
  const shown = await namedOnlyToScope(db, financeScope(user), rows);
  return shown.map(({ rule, carrierCode: code }) => ({
    id: rule.id,
    carrier_code: code,
    carrier_id: rule.carrierId,
    customer_id: rule.customerId,
    allocation_model: rule.allocationModel,
    type: rule.type,
    options: rule.options,
    next_rule: rule.nextRuleId,
    deleted: rule.deleted,
    to_code: codeOf(rule),
    /** the first rule of this rule's chain: the group it is tested and shown in */
    group: headOf.get(rule.id) ?? rule.id,
  }));
}

/**
 * The rules a reader may see: all for staff; for a customer's finance user the carrier-wide rules
 * and their own customer's, leaving out any that names another customer or another customer's
 * site (decision 022: rules hold every customer's mappings).
 */
async function namedOnlyToScope<T extends { rule: RuleRow }>(db: DbOrTx, scope: FinanceScope, rows: T[]): Promise<T[]> {
  if (scope.kind === "all") return rows;
  const target = (r: RuleRow) => (r.type === "Mapping" ? Number((r.options as MappingOptions).to_id) : null);
  const siteIds = rows.filter((r) => r.rule.allocationModel === "Site" && target(r.rule) != null).map((r) => target(r.rule)!);
  const own = new Set((siteIds.length ? await db.select({ id: sites.id }).from(sites).where(and(inArray(sites.id, siteIds), eq(sites.customerId, scope.customerId))) : []).map((x) => x.id));
  return rows.filter(({ rule }) => {
    if (rule.customerId != null && rule.customerId !== scope.customerId) return false;
    const to = target(rule);
    if (to == null) return true;
    if (rule.allocationModel === "Customer") return to === scope.customerId;
    return rule.allocationModel === "Site" ? own.has(to) : true;
  });
}

/** A Mapping's to_id must be a record of its model (a site of the rule's customer, a service of its carrier). */
async function checkTarget(db: DbOrTx, model: AllocationModel, toId: number, carrierId: number, customerId: number | null) {
  const table = model === "Customer" ? customers : model === "Site" ? sites : services;
  const [row] = await db.select().from(table).where(eq(table.id, toId));
  const bad = (m: string) => new AppError("invalid", m, { "options.to_id": [m] });
  if (!row) throw bad(`No ${model} has id ${toId}`);
  if (model === "CarrierService" && (row as { carrierId: number }).carrierId !== carrierId) throw bad("That service is not one of the carrier's");
  if (model === "Site" && customerId != null && (row as { customerId: number }).customerId !== customerId) throw bad("That site is not one of the customer's");
}

/**
 * Checks and writes one rule (new when `id` is null). In a transaction that locks the carrier's
 * rules: two saves at once could each pass the loop check and together make a loop.
 */
export async function saveRule(db: DbOrTx, user: CurrentUser, id: number | null, raw: unknown) {
  assertWriter(user);
  const input = parseOrThrow(ruleInput, raw);
  const carrier = await carrierByCode(db, input.carrier_code);
  const customerId = input.customer_id ?? null;
  if (customerId != null) {
    const [c] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId));
    if (!c) throw new AppError("invalid", "No customer has that id", { customer_id: ["No customer has that id"] });
  }
  if (input.type === "Mapping") await checkTarget(db, input.allocation_model, input.options.to_id, carrier.id, customerId);
  const saved = await db.transaction(async (tx) => {
    const rules = await tx.select().from(allocationRules).where(eq(allocationRules.carrierId, carrier.id)).for("update");
    const byId = new Map(rules.filter((r) => !r.deleted).map((r) => [r.id, r]));
    if (id != null && !byId.has(id)) throw notFound("Allocation rule");
    const next = input.next_rule ?? null;
    if (next != null) {
      const n = byId.get(next);
      const bad = (m: string) => new AppError("invalid", m, { next_rule: [m] });
      if (!n) throw bad("The next rule must be a rule of the same carrier");
      if (n.allocationModel !== input.allocation_model) throw bad("The next rule must allocate the same model");
      if (id != null && makesLoop(id, next, byId)) throw bad(MESSAGES.loop);
      // two rules leading to one would join two chains into one group
      if ([...byId.values()].some((r) => r.nextRuleId === next && r.id !== id)) throw bad("Another rule already leads to that rule");
    }
    const values = { carrierId: carrier.id, customerId, allocationModel: input.allocation_model, type: input.type, options: input.options, nextRuleId: next, updatedAt: new Date() };
    if (id == null) return (await tx.insert(allocationRules).values(values).returning())[0]!;
    return (await tx.update(allocationRules).set(values).where(eq(allocationRules.id, id)).returning())[0]!;
  });
  return { message: id == null ? MESSAGES.created : MESSAGES.saved, allocation_rule: (await listRules(db, user, carrier.code)).find((r) => r.id === saved.id)! };
}

/**
 * Soft delete: the rule stays for the record, and the rule that led to it now leads to its next,
 * so the chain it sat in goes on working. One transaction with the carrier's rules locked (a
 * concurrent save could otherwise point at the rule being removed).
 */
export async function deleteRule(db: DbOrTx, user: CurrentUser, id: number) {
  assertWriter(user);
  await db.transaction(async (tx) => {
    const [rule] = await tx.select().from(allocationRules).where(and(eq(allocationRules.id, id), eq(allocationRules.deleted, false)));
    if (!rule) throw notFound("Allocation rule");
    await tx.select({ id: allocationRules.id }).from(allocationRules).where(eq(allocationRules.carrierId, rule.carrierId)).for("update");
    await tx.update(allocationRules).set({ nextRuleId: rule.nextRuleId, updatedAt: new Date() }).where(eq(allocationRules.nextRuleId, id));
    await tx.update(allocationRules).set({ deleted: true, nextRuleId: null, updatedAt: new Date() }).where(eq(allocationRules.id, id));
  });
  return { message: MESSAGES.deleted };
}

type DetailRow = typeof invoiceDetails.$inferSelect;

/** The line as rules read it (spec field names). */
export function lineFields(d: Pick<DetailRow, "accountNumber" | "consignmentNumber" | "totalCost" | "parentAccountNumber" | "payer" | "senderName" | "senderLocality" | "senderPostcode" | "senderRegion" | "senderZone" | "receiverName" | "receiverLocality" | "receiverPostcode" | "receiverRegion" | "receiverZone" | "reference" | "serviceDescription">): LineFields {
  return {
    account_number: d.accountNumber,
    consignment_number: d.consignmentNumber,
    total_cost: d.totalCost,
    parent_account_number: d.parentAccountNumber,
    payer: d.payer,
    sender_name: d.senderName,
    sender_locality: d.senderLocality,
    sender_postcode: d.senderPostcode,
    sender_region: d.senderRegion,
    sender_zone: d.senderZone,
    receiver_name: d.receiverName,
    receiver_locality: d.receiverLocality,
    receiver_postcode: d.receiverPostcode,
    receiver_region: d.receiverRegion,
    receiver_zone: d.receiverZone,
    reference: d.reference,
    service_description: d.serviceDescription,
  };
}

/** The values of a line that Consignment lookups may ask for. */
export function consignmentLookupValues(rules: EngineRule[], line: LineFields): string[] {
  return rules.flatMap((r) => {
    const o = r.options as { from_matcher?: { field?: keyof LineFields }; to_matcher?: { model?: string } };
    return r.type === "Lookup" && o.to_matcher?.model === "Consignment" && o.from_matcher?.field ? [line[o.from_matcher.field] ?? ""] : [];
  });
}

/**
 * POST /api/allocation_rules/test: what the rules would allocate the line to, written nowhere.
 * With rule_id only that group (for its model); otherwise the whole allocation. A failure is a
 * 422 whose first error is the first failing rule's reason (the screen shows it on the rule).
 */
export async function testRules(db: DbOrTx, user: CurrentUser, raw: unknown) {
  assertReader(user);
  const input = parseOrThrow(testInput, raw);
  const [row] = await db
    .select({ detail: invoiceDetails, carrierId: invoices.carrierId })
    .from(invoiceDetails)
    .innerJoin(invoices, eq(invoices.id, invoiceDetails.invoiceId))
    .where(eq(invoiceDetails.id, input.invoice_detail_id));
  const scope = financeScope(user);
  if (!row || (scope.kind === "customer" && row.detail.customerId !== scope.customerId)) {
    throw new AppError("invalid", "No invoice line has that id", { invoice_detail_id: ["No invoice line has that id"] });
  }
  const carrierId = row.carrierId ?? row.detail.carrierId;
  const rules = carrierId ? (await db.select().from(allocationRules).where(and(eq(allocationRules.carrierId, carrierId), eq(allocationRules.deleted, false)))).map(toEngine) : [];
  const line = lineFields(row.detail);
  const catalogue = carrierId ? await loadCatalogue(db, carrierId, consignmentLookupValues(rules, line)) : null;
  if (!catalogue) throw new AppError("invalid", "The line has no carrier", { base: ["The line has no carrier"] });
  const describe = await describer(db);
  if (input.rule_id != null) {
    const byId = new Map(rules.map((r) => [r.id, r]));
    const head = byId.get(input.rule_id);
    if (!head) throw new AppError("invalid", "No allocation rule has that id", { rule_id: ["No allocation rule has that id"] });
    const outcome = evaluateChain(chainOf(head.id, byId), line, catalogue.lookup);
    if (!outcome.ok) throw new AppError("invalid", outcome.error, { base: [outcome.error] });
    if (!(await mayNameRecord(db, scope, head.allocationModel, outcome.id))) throw otherCustomer();
    const allocation = await describe(head.allocationModel, outcome.id);
    return { allocation, message: MESSAGES.allocated(allocation), rule_id: outcome.ruleId };
  }
  const result = allocateLine(rules, line, catalogue.lookup, catalogue.siteCustomer);
  if (result.error) throw new AppError("invalid", result.error, { base: [result.error] });
  // a customer's finance user learns whether the rules give the line to them, never to whom else
  if (!(await mayNameRecord(db, scope, "Customer", result.customerId!)) || (result.siteId && !(await mayNameRecord(db, scope, "Site", result.siteId)))) throw otherCustomer();
  const parts = [await describe("Customer", result.customerId!)];
  if (result.siteId) parts.push(await describe("Site", result.siteId));
  if (result.serviceId) parts.push(await describe("CarrierService", result.serviceId));
  const allocation = parts.join(", ");
  return { allocation, message: MESSAGES.allocated(allocation), customer_id: result.customerId, site_id: result.siteId, service_id: result.serviceId };
}

const otherCustomer = () => new AppError("invalid", FINANCE_ACCESS_MESSAGES.otherCustomer, { base: [FINANCE_ACCESS_MESSAGES.otherCustomer] });

/** 'Customer ACME Pty Ltd (ACME)' for the test message. */
function describer(db: DbOrTx) {
  return async (model: AllocationModel, id: number) => {
    const table = model === "Customer" ? customers : model === "Site" ? sites : services;
    const [row] = await db.select({ name: table.name, code: table.code }).from(table).where(eq(table.id, id));
    return row ? `${model} ${row.name} (${row.code})` : `${model} ${id}`;
  };
}

