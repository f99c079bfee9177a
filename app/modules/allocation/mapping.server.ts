/**
 * The mapping CSV (sapphire_mapping_import / _export): Mapping rules as rows of carrier_code,
 * customer_code (blank: every customer), allocation_model, field, text and to_code (the code of
 * the customer, of the customer's site, or of the carrier's service). An import is taken whole or
 * not at all: a row naming what does not exist refuses the file with every bad line listed.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { allocationRules, carriers, customers, services, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { parseCsv, toCsv } from "../../utils/csv.server";
import { AppError } from "../../utils/errors";
import { norm } from "./engine";
import { listRules, assertWriter } from "./rules.server";
import { ALLOCATION_MODELS, MAPPING_COLUMNS, MATCHABLE_FIELDS, type AllocationModel } from "./schemas";

export const MAX_MAPPING_ROWS = 20_000;

/** Export: every live Mapping rule (of one carrier when given), formulas neutralised. */
export async function exportMapping(db: DbOrTx, user: CurrentUser, carrierCode?: string | null): Promise<string> {
  const rules = (await listRules(db, user, carrierCode)).filter((r) => r.type === "Mapping");
  const customerIds = [...new Set(rules.map((r) => r.customer_id).filter((x): x is number => x != null))];
  const codes = new Map((customerIds.length ? await db.select({ id: customers.id, code: customers.code }).from(customers).where(inArray(customers.id, customerIds)) : []).map((c) => [c.id, c.code]));
  return toCsv(
    [...MAPPING_COLUMNS],
    rules.map((r) => {
      const o = r.options as { from_matcher: { field: string; text: string } };
      return { carrier_code: r.carrier_code, customer_code: r.customer_id ? codes.get(r.customer_id) : "", allocation_model: r.allocation_model, field: o.from_matcher.field, text: o.from_matcher.text, to_code: r.to_code };
    }),
  );
}

type Row = { line: number; carrierId: number; customerId: number | null; model: AllocationModel; field: string; text: string; toId: number };

/**
 * Import: each row becomes a Mapping rule; a row matching a live rule's carrier, customer, model,
 * field and text changes that rule's target instead (so importing the same file twice adds
 * nothing). New rules of one carrier, customer and model are chained in file order as one group.
 */
export async function importMapping(db: DbOrTx, user: CurrentUser, text: string) {
  assertWriter(user);
  const { headers, rows } = await parseCsv(text);
  const missing = MAPPING_COLUMNS.filter((c) => c !== "customer_code" && !headers.includes(c));
  const refuse = (errors: string[]) => {
    throw new AppError("invalid", errors[0]!, { file: errors });
  };
  if (missing.length) refuse([`The file needs the columns ${MAPPING_COLUMNS.join(", ")} (missing: ${missing.join(", ")})`]);
  if (!rows.length) refuse(["The file has no rows."]);
  if (rows.length > MAX_MAPPING_ROWS) refuse([`The file has more than ${MAX_MAPPING_ROWS} rows; split it.`]);
  const [allCarriers, allCustomers, allSites] = await Promise.all([
    db.select({ id: carriers.id, code: carriers.code }).from(carriers),
    db.select({ id: customers.id, code: customers.code }).from(customers),
    db.select({ id: sites.id, code: sites.code, customerId: sites.customerId }).from(sites),
  ]);
  const carrierIds = new Map(allCarriers.map((c) => [norm(c.code), c.id]));
  const customerIds = new Map(allCustomers.map((c) => [norm(c.code), c.id]));
  const siteIds = new Map(allSites.map((s) => [`${s.customerId}/${norm(s.code)}`, s.id]));
  const serviceRows = await db.select({ id: services.id, code: services.code, carrierId: services.carrierId }).from(services);
  const serviceIds = new Map(serviceRows.map((s) => [`${s.carrierId}/${norm(s.code)}`, s.id]));
  const errors: string[] = [];
  const good: Row[] = [];
  for (const { line, values: v } of rows) {
    const bad: string[] = [];
    const carrierId = carrierIds.get(norm(v.carrier_code));
    if (!carrierId) bad.push(`no carrier has code '${v.carrier_code ?? ""}'`);
    const customerId = norm(v.customer_code) ? (customerIds.get(norm(v.customer_code)) ?? null) : null;
    if (norm(v.customer_code) && customerId == null) bad.push(`no customer has code '${v.customer_code}'`);
    const model = ALLOCATION_MODELS.find((m) => norm(m) === norm(v.allocation_model));
    if (!model) bad.push("allocation_model must be Customer, Site or CarrierService");
    const field = MATCHABLE_FIELDS.find((f) => f === norm(v.field));
    if (!field) bad.push(`field must be one of ${MATCHABLE_FIELDS.join(", ")}`);
    if (!v.text?.trim()) bad.push("text is required");
    let toId: number | undefined;
    if (model === "Customer") toId = customerIds.get(norm(v.to_code));
    if (model === "Site") toId = customerId == null ? undefined : siteIds.get(`${customerId}/${norm(v.to_code)}`);
    if (model === "CarrierService" && carrierId) toId = serviceIds.get(`${carrierId}/${norm(v.to_code)}`);
    if (model && toId == null) bad.push(model === "Site" && customerId == null ? "a Site mapping needs the customer_code of the site" : `no ${model} has code '${v.to_code ?? ""}'`);
    if (bad.length) errors.push(`Line ${line}: ${bad.join("; ")}`);
    else good.push({ line, carrierId: carrierId!, customerId, model: model!, field: field!, text: v.text!.trim(), toId: toId! });
  }
  if (errors.length) refuse(errors);
  // one transaction, the touched carriers' rules locked: the file is taken whole, and a rule
  // saved meanwhile cannot join a chain this import is building
  return db.transaction(async (tx) => {
    const carrierSet = [...new Set(good.map((g) => g.carrierId))];
    const live = await tx.select().from(allocationRules).where(and(inArray(allocationRules.carrierId, carrierSet), eq(allocationRules.deleted, false))).for("update");
    const key = (carrierId: number, customerId: number | null, model: string, field: string, text: string) => `${carrierId}|${customerId ?? ""}|${model}|${field}|${norm(text)}`;
    const existing = new Map(
      live.filter((r) => r.type === "Mapping").map((r) => {
        const o = r.options as { from_matcher: { field: string; text: string } };
        return [key(r.carrierId, r.customerId, r.allocationModel, o.from_matcher.field, o.from_matcher.text), r.id];
      }),
    );
    let created = 0;
    let updated = 0;
    const tails = new Map<string, number>();
    for (const g of good) {
      const options = { from_matcher: { field: g.field, text: g.text }, to_id: g.toId };
      const same = existing.get(key(g.carrierId, g.customerId, g.model, g.field, g.text));
      if (same != null) {
        await tx.update(allocationRules).set({ options, updatedAt: new Date() }).where(eq(allocationRules.id, same));
        updated += 1;
        continue;
      }
      const [row] = await tx.insert(allocationRules).values({ carrierId: g.carrierId, customerId: g.customerId, allocationModel: g.model, type: "Mapping", options }).returning({ id: allocationRules.id });
      existing.set(key(g.carrierId, g.customerId, g.model, g.field, g.text), row!.id);
      const group = `${g.carrierId}|${g.customerId ?? ""}|${g.model}`;
      const tail = tails.get(group);
      if (tail != null) await tx.update(allocationRules).set({ nextRuleId: row!.id }).where(eq(allocationRules.id, tail));
      tails.set(group, row!.id);
      created += 1;
    }
    return { created, updated };
  });
}
