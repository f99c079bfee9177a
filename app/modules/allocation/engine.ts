/**
 * Allocation rule chains, evaluated without the database (issue 18 item 5). A group is a head
 * rule and the rules its next_rule chain reaches; the first rule that gives an answer wins, a
 * rule that fails hands over to its next rule, and the first failure's reason is what is shown.
 * Lookups read a Catalogue the caller loaded beforehand, so one catalogue serves 50,000 lines.
 */
import type { AllocationModel, LookupModel, LookupOptions, MappingOptions, MatchableField } from "./schemas";

export interface EngineRule {
  id: number;
  customerId: number | null;
  allocationModel: AllocationModel;
  type: "Mapping" | "Lookup";
  options: Record<string, unknown>;
  nextRuleId: number | null;
}

/** The line as the rules read it: spec field name to its text. */
export type LineFields = Partial<Record<MatchableField, string | null>>;

/** What a lookup found: the ids each allocation model would take from it. */
export interface Found {
  customerId?: number | null;
  siteId?: number | null;
  serviceId?: number | null;
}

/** Model, field and the line's value to what it matches; several matches are ambiguous. */
export type Catalogue = (model: LookupModel, field: string, value: string) => Found[];

export type Outcome = { ok: true; id: number; ruleId: number } | { ok: false; error: string };

export const norm = (v: unknown) => (v == null ? "" : String(v).trim().toLowerCase());

const TAKES: Record<AllocationModel, keyof Found> = { Customer: "customerId", Site: "siteId", CarrierService: "serviceId" };

/** One rule against one line. */
export function evaluateRule(rule: EngineRule, line: LineFields, catalogue: Catalogue): Outcome {
  if (rule.type === "Mapping") {
    const o = rule.options as MappingOptions;
    const value = line[o.from_matcher.field];
    if (norm(value) !== norm(o.from_matcher.text)) return { ok: false, error: `Rule ${rule.id}: ${o.from_matcher.field} is not '${o.from_matcher.text}'` };
    return { ok: true, id: o.to_id, ruleId: rule.id };
  }
  const o = rule.options as LookupOptions;
  const value = norm(line[o.from_matcher.field]);
  const what = `${o.to_matcher.model} ${o.to_matcher.field}`;
  if (!value) return { ok: false, error: `Rule ${rule.id}: the line has no ${o.from_matcher.field}` };
  const key = TAKES[rule.allocationModel];
  const ids = [...new Set(catalogue(o.to_matcher.model, o.to_matcher.field, value).map((f) => f[key]).filter((x): x is number => typeof x === "number"))];
  if (ids.length === 0) return { ok: false, error: `Rule ${rule.id}: no ${what} matches '${line[o.from_matcher.field]}'` };
  if (ids.length > 1) return { ok: false, error: `Rule ${rule.id}: '${line[o.from_matcher.field]}' matches more than one ${what}` };
  return { ok: true, id: ids[0]!, ruleId: rule.id };
}

/** The rules a chain reaches from `head`, in order; stops at a repeat (saves refuse loops, this guards old data). */
export function chainOf(headId: number, byId: Map<number, EngineRule>): EngineRule[] {
  const out: EngineRule[] = [];
  const seen = new Set<number>();
  for (let r = byId.get(headId); r && !seen.has(r.id); r = r.nextRuleId == null ? undefined : byId.get(r.nextRuleId)) {
    seen.add(r.id);
    out.push(r);
  }
  return out;
}

/** A chain: the first rule that answers, else the first rule's reason. */
export function evaluateChain(chain: EngineRule[], line: LineFields, catalogue: Catalogue): Outcome {
  let first: string | null = null;
  for (const rule of chain) {
    const outcome = evaluateRule(rule, line, catalogue);
    if (outcome.ok) return outcome;
    first ??= outcome.error;
  }
  return { ok: false, error: first ?? "No allocation rule" };
}

/** Heads of the groups: rules no other rule leads to. */
export function heads(rules: EngineRule[]): EngineRule[] {
  const pointed = new Set(rules.map((r) => r.nextRuleId).filter((x) => x != null));
  return rules.filter((r) => !pointed.has(r.id));
}

/** Would setting `ruleId`'s next rule to `nextId` make a loop? */
export function makesLoop(ruleId: number, nextId: number | null, byId: Map<number, { id: number; nextRuleId: number | null }>): boolean {
  const seen = new Set<number>([ruleId]);
  for (let cur = nextId; cur != null; cur = byId.get(cur)?.nextRuleId ?? null) {
    if (seen.has(cur)) return true;
    seen.add(cur);
  }
  return false;
}

/**
 * A line through the groups of one allocation model: the groups of the line's customer (when it
 * is known) before the carrier-wide ones, each group in order of its head; the first answer wins.
 */
export function allocateModel(model: AllocationModel, rules: EngineRule[], customerId: number | null, line: LineFields, catalogue: Catalogue): Outcome {
  const byId = new Map(rules.map((r) => [r.id, r]));
  const ofModel = heads(rules).filter((r) => r.allocationModel === model);
  const byAge = (a: EngineRule, b: EngineRule) => a.id - b.id;
  const ordered = [...ofModel.filter((r) => customerId != null && r.customerId === customerId).sort(byAge), ...ofModel.filter((r) => r.customerId == null).sort(byAge)];
  let first: string | null = null;
  for (const head of ordered) {
    const outcome = evaluateChain(chainOf(head.id, byId), line, catalogue);
    if (outcome.ok) return outcome;
    first ??= outcome.error;
  }
  return { ok: false, error: first ?? `No ${model} allocation rule for this carrier` };
}

export interface LineAllocation {
  customerId: number | null;
  siteId: number | null;
  serviceId: number | null;
  /** why the line could not be allocated (no customer); null when it was */
  error: string | null;
}

/**
 * The whole allocation of a line without a consignment: its customer first, then its site and
 * service, whose customer-specific rules need the customer. A site must belong to the customer.
 */
export function allocateLine(rules: EngineRule[], line: LineFields, catalogue: Catalogue, siteCustomer: (siteId: number) => number | null): LineAllocation {
  const customer = allocateModel("Customer", rules, null, line, catalogue);
  if (!customer.ok) return { customerId: null, siteId: null, serviceId: null, error: customer.error };
  const site = allocateModel("Site", rules, customer.id, line, catalogue);
  const siteId = site.ok && siteCustomer(site.id) === customer.id ? site.id : null;
  const service = allocateModel("CarrierService", rules, customer.id, line, catalogue);
  return { customerId: customer.id, siteId, serviceId: service.ok ? service.id : null, error: null };
}
