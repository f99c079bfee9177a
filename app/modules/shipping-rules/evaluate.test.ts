import { describe, expect, it } from "vitest";
import { applyDecision, ruleEffects } from "./apply";
import { compileRules, evaluateRules, type RateChoice, type RuleFacts, type StoredRule } from "./evaluate";
import { globMatches } from "./glob";
import { actionsSchema, conditionsSchema } from "./schema";

const facts = (over: Partial<RuleFacts> = {}): RuleFacts => ({
  siteId: 1,
  som: "metric",
  receiver: { postcode: "2000", region: "NSW", country: "AUSTRALIA", addressType: "business" },
  items: [{ quantity: 2, length: 50, width: 40, height: 30, weight: 10, itemTypeId: 7, dangerousGoods: false }],
  declaredValue: 150,
  reference: "PO-12345",
  ...over,
});
const rates: RateChoice[] = [
  { key: "CHEAP:ROAD", price: 10, estimatedDelivery: "2026-12-05" },
  { key: "FAST:AIR", price: 30, estimatedDelivery: "2026-12-01" },
  { key: "MID:EXP", price: 20, estimatedDelivery: "2026-12-02" },
  { key: "POA:FREIGHT", price: null, estimatedDelivery: null },
];
let nextId = 1;
const rule = (conditions: StoredRule["conditions"], actions: StoredRule["actions"], over: Partial<StoredRule> = {}): StoredRule => ({ id: nextId++, name: `rule ${nextId}`, siteId: null, active: true, conditions, actions, ...over });
const decide = (list: StoredRule[], f = facts()) => evaluateRules(compileRules(list), f, rates);

describe("shipping rule conditions", () => {
  // each row: conditions, whether the default consignment (2000 NSW, 10 kg, 2 items of type 7, 150 declared, PO-12345) matches
  const table: Array<[string, StoredRule["conditions"], boolean]> = [
    ["postcode in range", { postcodes: [{ from: "2000", to: "2999" }] }, true],
    ["postcode out of range", { postcodes: [{ from: "3000", to: "3999" }] }, false],
    ["single postcode", { postcodes: [{ from: "2000" }] }, true],
    ["numeric compare (0800..2500)", { postcodes: [{ from: "0800", to: "2500" }] }, true],
    ["region any case", { regions: ["nsw"] }, true],
    ["other region", { regions: ["VIC"] }, false],
    ["country", { countries: ["AUSTRALIA"] }, true],
    ["other country", { countries: ["NEW ZEALAND"] }, false],
    ["address type", { address_type: "residential" }, false],
    ["dead weight range", { dead_weight: { min: 5, max: 10 } }, true],
    ["dead weight above", { dead_weight: { min: 10.5 } }, false],
    // 2 x 0.06 m3 at 250 kg/m3 = 30 kg
    ["cubic weight", { cubic_weight: { min: 29.9, max: 30.1 } }, true],
    ["cubic weight below", { cubic_weight: { max: 29 } }, false],
    ["item count", { item_count: { min: 2, max: 2 } }, true],
    ["item types", { item_types: [9, 7] }, true],
    ["other item type", { item_types: [9] }, false],
    ["no dangerous goods", { dangerous_goods: false }, true],
    ["dangerous goods", { dangerous_goods: true }, false],
    ["declared value", { declared_value: { min: 100, max: 200 } }, true],
    ["declared value above", { declared_value: { min: 200 } }, false],
    ["reference glob", { reference: "po-*" }, true],
    ["reference glob ?", { reference: "PO-1234?" }, true],
    ["reference anchored", { reference: "12345" }, false],
    ["all at once", { postcodes: [{ from: "2000", to: "2999" }], regions: ["NSW"], dead_weight: { max: 20 }, reference: "*345" }, true],
    ["one of many fails", { postcodes: [{ from: "2000", to: "2999" }], regions: ["VIC"] }, false],
  ];
  it.each(table)("%s", (_name, conditions, matches) => {
    const d = decide([rule(conditions, { use: "MID:EXP" })]);
    expect(d?.chosen ?? null).toBe(matches ? "MID:EXP" : null);
  });

  it("a declared value range never matches a consignment without one", () => {
    expect(decide([rule({ declared_value: { max: 1000 } }, { use: "MID:EXP" })], facts({ declaredValue: null }))).toBeNull();
  });

  it("a site rule applies only to its site; inactive rules never", () => {
    expect(decide([rule({}, { use: "FAST:AIR" }, { siteId: 2 }), rule({}, { use: "MID:EXP" })])?.chosen).toBe("MID:EXP");
    expect(decide([rule({}, { use: "FAST:AIR" }, { siteId: 1 }), rule({}, { use: "MID:EXP" })])?.chosen).toBe("FAST:AIR");
    expect(decide([rule({}, { use: "FAST:AIR" }, { active: false })])).toBeNull();
  });
});

describe("shipping rule actions", () => {
  it("the first matching rule by position wins, named in the decision", () => {
    const first = rule({ regions: ["NSW"] }, { use: "FAST:AIR" }, { name: "NSW by air" });
    const d = decide([rule({ regions: ["VIC"] }, { use: "MID:EXP" }), first, rule({}, { use: "CHEAP:ROAD" })]);
    expect(d).toMatchObject({ rule_id: first.id, rule_name: "NSW by air", chosen: "FAST:AIR", fall_throughs: [], offered: ["FAST:AIR"] });
  });

  it("cheapest and fastest of a set", () => {
    expect(decide([rule({}, { choose: { by: "cheapest", services: ["FAST:AIR", "MID:EXP"] } })])?.chosen).toBe("MID:EXP");
    expect(decide([rule({}, { choose: { by: "fastest", services: ["CHEAP:ROAD", "MID:EXP", "FAST:AIR"] } })])?.chosen).toBe("FAST:AIR");
  });

  it("a service not offered or unpriced on the lane falls through to the next rule with the reason", () => {
    const missing = rule({}, { use: "GONE:SVC" }, { name: "missing" });
    const poa = rule({}, { use: "POA:FREIGHT" }, { name: "poa" });
    const none = rule({}, { choose: { by: "cheapest", services: ["GONE:SVC"] } }, { name: "none" });
    const d = decide([missing, poa, none, rule({}, { use: "CHEAP:ROAD" }, { name: "road" })]);
    expect(d?.rule_name).toBe("road");
    expect(d?.fall_throughs).toEqual([
      { rule_id: missing.id, rule_name: "missing", reason: "GONE:SVC is not offered for this lane" },
      { rule_id: poa.id, rule_name: "poa", reason: "POA:FREIGHT has no price for this lane" },
      { rule_id: none.id, rule_name: "none", reason: "None of GONE:SVC is offered with a price for this lane" },
    ]);
    // nothing left to apply: the fall-throughs are still reported
    expect(decide([missing])).toMatchObject({ rule_id: null, chosen: null, fall_throughs: [{ rule_name: "missing" }] });
  });

  it("excluding carriers, instructions and authority to leave", () => {
    const d = decide([rule({}, { exclude_carriers: ["cheap"], special_instructions: "Leave at door", authority_to_leave: true })]);
    expect(d).toMatchObject({ chosen: null, exclude_carriers: ["cheap"], special_instructions: "Leave at door", authority_to_leave: true, offered: null });
  });
});

describe("applyDecision", () => {
  const rate = (code: string, service: string, total: number | null) => ({ code, service_code: service, total, is_poa: total == null, name: code, service, site_service_id: 1, service_type: "road", total_exclusive: total, is_na: false, timeslots: { pickup: false, deliver_by: false, deliver_at: false }, estimated_delivery_date: null, rule_based_selection_index: 0, rule_applied: "cheapest", rating_detail: null });
  const response = () => ({ carriers: [rate("CHEAP", "ROAD", 10), rate("MID", "EXP", 20), rate("FAST", "AIR", 30)], selected_index: 0, rule_applied: "cheapest" as const });
  const base = { rule_id: 1, rule_name: "R", reason: "x", fall_throughs: [], exclude_carriers: [], offered: null, special_instructions: null, authority_to_leave: false };

  it("the rule's service is selected and named; excluded carriers leave the list", () => {
    const out = applyDecision(response(), { ...base, chosen: "FAST:AIR", exclude_carriers: ["CHEAP"] });
    expect(out.carriers.map((c) => c.code)).toEqual(["MID", "FAST"]);
    expect(out).toMatchObject({ selected_index: 1, rule_applied: "shipping_rule" });
    expect(out.carriers.map((c) => c.chosen_by_rule)).toEqual([null, "R"]);
  });

  it("a service the caller named beats the rule", () => {
    const named = { ...response(), selected_index: 1, rule_applied: "preselected" as const };
    expect(applyDecision(named, { ...base, chosen: "FAST:AIR" })).toMatchObject({ selected_index: 1, rule_applied: "preselected" });
  });

  it("the cheapest of what is left when the selection was excluded", () => {
    expect(applyDecision(response(), { ...base, chosen: null, exclude_carriers: ["cheap"] })).toMatchObject({ selected_index: 0, rule_applied: "cheapest", carriers: [{ code: "MID" }, { code: "FAST" }] });
  });
});

describe("ruleEffects", () => {
  const d = { rule_id: 1, rule_name: "R", chosen: null, reason: "", fall_throughs: [], exclude_carriers: [], offered: null, special_instructions: "Leave at door", authority_to_leave: true };
  it("adds the instructions once and sets authority to leave", () => {
    const once = ruleEffects(d, "Ring bell", { delivery_options: { tail_lift: true } });
    expect(once).toEqual({ specialInstructions: "Ring bell; Leave at door", options: { delivery_options: { tail_lift: true, authority_to_leave: true } } });
    expect(ruleEffects(d, once.specialInstructions, {}).specialInstructions).toBe("Ring bell; Leave at door");
    expect(ruleEffects(d, "x".repeat(79), {}).specialInstructions).toHaveLength(80);
    expect(ruleEffects(null, "Ring bell", {})).toEqual({ specialInstructions: "Ring bell", options: {} });
  });
});

describe("rule validation", () => {
  it("refuses an impossible range, a bad pattern, use with choose and a chosen excluded carrier, by field", () => {
    const c = conditionsSchema.safeParse({ dead_weight: { min: 10, max: 5 }, reference: "^(a+)+$" });
    expect(c.success).toBe(false);
    expect(c.error!.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["dead_weight.min", "reference"]));
    const a = actionsSchema.safeParse({ use: "A:B", choose: { by: "cheapest", services: ["C:D"] }, exclude_carriers: ["A"] });
    expect(a.error!.issues.map((i) => i.path.join("."))).toEqual(expect.arrayContaining(["choose", "use"]));
  });
});

describe("globMatches", () => {
  it("matches anchored, any case, with * and ?", () => {
    expect(globMatches("a*b?c", "AxxbYc")).toBe(true);
    expect(globMatches("a*b?c", "AxxbYcd")).toBe(false);
    expect(globMatches("*", "")).toBe(true);
  });
  it("answers a pattern that would backtrack catastrophically as a regular expression", () => {
    expect(globMatches("*a*a*a*a*a*a*a*a*c", "a".repeat(5000) + "b")).toBe(false);
  });
});
