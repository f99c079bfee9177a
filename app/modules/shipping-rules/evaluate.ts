/**
 * Shipping rules, evaluated (docs/decisions/040): pure, over the consignment's facts and the rates
 * the rate shop produced. Rules are compiled once per customer (compileRules: postcode ranges,
 * lower-cased lists, predicates) and the compiled list is cached with the rating data, so a rate
 * shop pays only the predicates. The first matching rule in position order wins; a rule whose
 * service (or set) has no price on this lane falls through to the next, the reason recorded.
 */
import { itemVolume, KG_PER_LB, M3_PER_FT3, type Som } from "../rating/measure";
import { globMatches } from "./glob";
import { comparePostcodes, type Actions, type Conditions, type Range } from "./schema";

/** The consignment as rules see it (the receiver, the goods, the sending site). */
export interface RuleFacts {
  siteId: number;
  som: Som;
  receiver: { postcode: string; region?: string | null; country: string; addressType: "business" | "residential" };
  items: Array<{ quantity: number; length: number; width: number; height: number; weight: number; itemTypeId?: number | null; dangerousGoods: boolean }>;
  declaredValue?: number | null;
  reference?: string | null;
}

/** A rate the rate shop produced, as rules compare them. */
export interface RateChoice {
  /** CARRIER:SERVICE */
  key: string;
  /** what the customer pays; null when unpriced (POA) */
  price: number | null;
  estimatedDelivery: string | null;
}

/** A rule as stored (a row of shipping_rules, checked by the schemas). */
export interface StoredRule {
  id: number;
  name: string;
  siteId: number | null;
  active: boolean;
  conditions: Conditions;
  actions: Actions;
}

/** The facts with their totals worked out once per evaluation. */
interface Derived {
  siteId: number;
  postcode: string;
  region: string;
  country: string;
  addressType: string;
  deadWeight: number;
  cubicWeight: number;
  itemCount: number;
  itemTypes: Set<number>;
  dangerousGoods: boolean;
  declaredValue: number | null;
  reference: string;
}

export interface CompiledRule {
  id: number;
  name: string;
  test: (d: Derived) => boolean;
  actions: Actions;
}

export interface FallThrough {
  rule_id: number;
  rule_name: string;
  reason: string;
}

/** What the rules decided; stored in the consignment's rating detail. */
export interface RuleDecision {
  rule_id: number | null;
  rule_name: string | null;
  /** CARRIER:SERVICE the rule chose; null when it chose none (the usual selection among what is left) */
  chosen: string | null;
  reason: string;
  fall_throughs: FallThrough[];
  /** carrier codes the rule removed from the rates */
  exclude_carriers: string[];
  /** the services a checkout may offer: the chosen one, or the rule's set; null: all that are left */
  offered: string[] | null;
  special_instructions: string | null;
  authority_to_leave: boolean;
}

/**
 * Cubic weight for conditions, by the industry's common 250 kg per m3 (15.6 lb per ft3), in the
 * site's unit: a carrier's own factor varies by lane and is not known until a lane is chosen.
 */
const CUBIC_KG_PER_M3 = 250;
const cubicFactor = (som: Som) => (som === "metric" ? CUBIC_KG_PER_M3 : (CUBIC_KG_PER_M3 * M3_PER_FT3) / KG_PER_LB);

const inRange = (r: Range | null | undefined, v: number | null) => !r || (v != null && (r.min == null || v >= r.min) && (r.max == null || v <= r.max));
const lower = (list: string[] | undefined) => (list?.length ? new Set(list.map((s) => s.trim().toLowerCase())) : null);

function compileOne(rule: StoredRule): CompiledRule {
  const c = rule.conditions;
  const tests: Array<(d: Derived) => boolean> = [];
  if (rule.siteId != null) tests.push((d) => d.siteId === rule.siteId);
  if (c.postcodes?.length) {
    const ranges = c.postcodes.map((r) => ({ from: r.from, to: r.to || r.from }));
    tests.push((d) => ranges.some((r) => comparePostcodes(d.postcode, r.from) >= 0 && comparePostcodes(d.postcode, r.to) <= 0));
  }
  const regions = lower(c.regions);
  if (regions) tests.push((d) => regions.has(d.region));
  const countries = lower(c.countries);
  if (countries) tests.push((d) => countries.has(d.country));
  if (c.address_type) tests.push((d) => d.addressType === c.address_type);
  if (c.dead_weight) tests.push((d) => inRange(c.dead_weight, d.deadWeight));
  if (c.cubic_weight) tests.push((d) => inRange(c.cubic_weight, d.cubicWeight));
  if (c.item_count) tests.push((d) => inRange(c.item_count, d.itemCount));
  if (c.declared_value) tests.push((d) => inRange(c.declared_value, d.declaredValue));
  if (c.item_types?.length) {
    const wanted = c.item_types;
    tests.push((d) => wanted.some((id) => d.itemTypes.has(id)));
  }
  if (c.dangerous_goods != null) tests.push((d) => d.dangerousGoods === c.dangerous_goods);
  if (c.reference) {
    const pattern = c.reference;
    tests.push((d) => globMatches(pattern, d.reference));
  }
  return { id: rule.id, name: rule.name, actions: rule.actions, test: (d) => tests.every((t) => t(d)) };
}

/** A customer's active rules, in their order, ready to evaluate (done once per change, then cached). */
export function compileRules(rules: StoredRule[]): CompiledRule[] {
  return rules.filter((r) => r.active).map(compileOne);
}

function derive(f: RuleFacts): Derived {
  let dead = 0;
  let volume = 0;
  let count = 0;
  const types = new Set<number>();
  for (const i of f.items) {
    dead += i.weight;
    volume += itemVolume(i, f.som) ?? 0;
    count += i.quantity;
    if (i.itemTypeId != null) types.add(i.itemTypeId);
  }
  return {
    siteId: f.siteId,
    postcode: f.receiver.postcode,
    region: (f.receiver.region ?? "").trim().toLowerCase(),
    country: f.receiver.country.toLowerCase(),
    addressType: f.receiver.addressType,
    deadWeight: dead,
    cubicWeight: volume * cubicFactor(f.som),
    itemCount: count,
    itemTypes: types,
    dangerousGoods: f.items.some((i) => i.dangerousGoods),
    declaredValue: f.declaredValue ?? null,
    reference: f.reference ?? "",
  };
}

const byPrice = (a: RateChoice, b: RateChoice) => a.price! - b.price!;
const byDelivery = (a: RateChoice, b: RateChoice) => (a.estimatedDelivery ?? "9999") .localeCompare(b.estimatedDelivery ?? "9999") || byPrice(a, b);

/** The service the rule's action picks among the rates, or why it cannot. */
function pick(actions: Actions, rates: Map<string, RateChoice>): { chosen: string | null; reason: string } | { fallThrough: string } {
  if (actions.use) {
    const r = rates.get(actions.use.toLowerCase());
    if (!r) return { fallThrough: `${actions.use} is not offered for this lane` };
    if (r.price == null) return { fallThrough: `${actions.use} has no price for this lane` };
    return { chosen: r.key, reason: `Uses ${r.key}` };
  }
  if (actions.choose) {
    const set = actions.choose.services.map((s) => rates.get(s.toLowerCase())).filter((r): r is RateChoice => r != null && r.price != null);
    if (!set.length) return { fallThrough: `None of ${actions.choose.services.join(", ")} is offered with a price for this lane` };
    const best = [...set].sort(actions.choose.by === "fastest" ? byDelivery : byPrice)[0]!;
    return { chosen: best.key, reason: `The ${actions.choose.by} of ${actions.choose.services.join(", ")}: ${best.key}` };
  }
  return { chosen: null, reason: "Matched" };
}

/**
 * The first matching rule's decision, with the rules that matched but fell through before it; null
 * when no rule matched at all (and none fell through).
 */
export function evaluateRules(rules: CompiledRule[], facts: RuleFacts, rates: RateChoice[]): RuleDecision | null {
  if (!rules.length) return null;
  const d = derive(facts);
  const fallThroughs: FallThrough[] = [];
  for (const rule of rules) {
    if (!rule.test(d)) continue;
    const excluded = new Set((rule.actions.exclude_carriers ?? []).map((c) => c.toLowerCase()));
    const left = new Map(rates.filter((r) => !excluded.has(r.key.split(":")[0]!.toLowerCase())).map((r) => [r.key.toLowerCase(), r]));
    const picked = pick(rule.actions, left);
    if ("fallThrough" in picked) {
      fallThroughs.push({ rule_id: rule.id, rule_name: rule.name, reason: picked.fallThrough });
      continue;
    }
    const a = rule.actions;
    return {
      rule_id: rule.id,
      rule_name: rule.name,
      chosen: picked.chosen,
      reason: picked.reason,
      fall_throughs: fallThroughs,
      exclude_carriers: a.exclude_carriers ?? [],
      offered: a.use ? [picked.chosen!] : a.choose ? a.choose.services.filter((s) => left.has(s.toLowerCase())) : null,
      special_instructions: a.special_instructions || null,
      authority_to_leave: Boolean(a.authority_to_leave),
    };
  }
  if (!fallThroughs.length) return null;
  return { rule_id: null, rule_name: null, chosen: null, reason: "No rule could be applied", fall_throughs: fallThroughs, exclude_carriers: [], offered: null, special_instructions: null, authority_to_leave: false };
}
