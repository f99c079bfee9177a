import { describe, expect, it } from "vitest";
import { allocateLine, allocateModel, chainOf, evaluateChain, makesLoop, type Catalogue, type EngineRule } from "./engine";

const mapping = (id: number, model: EngineRule["allocationModel"], field: string, text: string, toId: number, next: number | null = null, customerId: number | null = null): EngineRule => ({
  id,
  customerId,
  allocationModel: model,
  type: "Mapping",
  options: { from_matcher: { field, text }, to_id: toId },
  nextRuleId: next,
});
const lookup = (id: number, model: EngineRule["allocationModel"], field: string, toModel: string, toField: string, next: number | null = null): EngineRule => ({
  id,
  customerId: null,
  allocationModel: model,
  type: "Lookup",
  options: { from_matcher: { field }, to_matcher: { model: toModel, field: toField } },
  nextRuleId: next,
});

const catalogue: Catalogue = (model, field, value) => {
  if (model === "Account" && field === "account_number" && value === "acc-1") return [{ customerId: 7, siteId: 70, serviceId: 700 }];
  if (model === "Customer" && field === "code" && value === "dup") return [{ customerId: 1 }, { customerId: 2 }];
  if (model === "Customer" && field === "name" && value === "acme") return [{ customerId: 9 }];
  return [];
};

describe("allocation rule chains", () => {
  it("a Mapping matches its field's text, case and spaces aside, and answers its to_id", () => {
    const rule = mapping(1, "Customer", "payer", "ACME Pty", 5);
    expect(evaluateChain([rule], { payer: "  acme pty " }, catalogue)).toEqual({ ok: true, id: 5, ruleId: 1 });
    expect(evaluateChain([rule], { payer: "Other" }, catalogue)).toMatchObject({ ok: false, error: "Rule 1: payer is not 'ACME Pty'" });
  });

  it("a Lookup takes the id its model needs from what it finds, and refuses none or several", () => {
    expect(evaluateChain([lookup(2, "Site", "account_number", "Account", "account_number")], { account_number: "ACC-1" }, catalogue)).toEqual({ ok: true, id: 70, ruleId: 2 });
    expect(evaluateChain([lookup(2, "CarrierService", "account_number", "Account", "account_number")], { account_number: "ACC-1" }, catalogue)).toEqual({ ok: true, id: 700, ruleId: 2 });
    expect(evaluateChain([lookup(3, "Customer", "reference", "Customer", "code")], { reference: "DUP" }, catalogue)).toMatchObject({ ok: false, error: "Rule 3: 'DUP' matches more than one Customer code" });
    expect(evaluateChain([lookup(4, "Customer", "reference", "Customer", "code")], { reference: "" }, catalogue)).toMatchObject({ ok: false, error: "Rule 4: the line has no reference" });
  });

  it("a failing rule hands over to its next rule; the first failure's reason is kept when all fail", () => {
    const rules = [mapping(1, "Customer", "payer", "X", 5, 2), lookup(2, "Customer", "receiver_name", "Customer", "name", 3), mapping(3, "Customer", "payer", "Y", 6)];
    const byId = new Map(rules.map((r) => [r.id, r]));
    expect(chainOf(1, byId).map((r) => r.id)).toEqual([1, 2, 3]);
    expect(evaluateChain(chainOf(1, byId), { payer: "Z", receiver_name: "Acme" }, catalogue)).toEqual({ ok: true, id: 9, ruleId: 2 });
    expect(evaluateChain(chainOf(1, byId), { payer: "Y" }, catalogue)).toEqual({ ok: true, id: 6, ruleId: 3 });
    expect(evaluateChain(chainOf(1, byId), { payer: "Q" }, catalogue)).toMatchObject({ ok: false, error: "Rule 1: payer is not 'X'" });
  });

  it("a chain that loops stops instead of running forever, and a save that would loop is seen", () => {
    const rules = [mapping(1, "Customer", "payer", "X", 5, 2), mapping(2, "Customer", "payer", "Y", 6, 1)];
    expect(chainOf(1, new Map(rules.map((r) => [r.id, r]))).map((r) => r.id)).toEqual([1, 2]);
    const byId = new Map([
      [1, { id: 1, nextRuleId: 2 }],
      [2, { id: 2, nextRuleId: 3 }],
      [3, { id: 3, nextRuleId: null }],
    ]);
    expect(makesLoop(3, 1, byId)).toBe(true);
    expect(makesLoop(3, 3, byId)).toBe(true);
    expect(makesLoop(1, 3, byId)).toBe(false);
  });

  it("a customer's own groups are tried before the carrier-wide ones", () => {
    const rules = [mapping(1, "Site", "payer", "P", 100), mapping(2, "Site", "payer", "P", 200, null, 7)];
    expect(allocateModel("Site", rules, 7, { payer: "P" }, catalogue)).toMatchObject({ ok: true, id: 200 });
    expect(allocateModel("Site", rules, 8, { payer: "P" }, catalogue)).toMatchObject({ ok: true, id: 100 });
  });

  it("a line gets its customer first, then a site of that customer and a service; no customer is a failure", () => {
    const rules = [lookup(1, "Customer", "account_number", "Account", "account_number"), lookup(2, "Site", "account_number", "Account", "account_number"), mapping(3, "CarrierService", "service_description", "Road", 55)];
    const siteCustomer = (id: number) => (id === 70 ? 7 : null);
    expect(allocateLine(rules, { account_number: "acc-1", service_description: "Road" }, catalogue, siteCustomer)).toEqual({ customerId: 7, siteId: 70, serviceId: 55, error: null });
    expect(allocateLine(rules, { account_number: "nope" }, catalogue, siteCustomer)).toMatchObject({ customerId: null, error: "Rule 1: no Account account_number matches 'nope'" });
    // a site of another customer is not taken
    expect(allocateLine([mapping(1, "Customer", "payer", "P", 8), mapping(2, "Site", "payer", "P", 70)], { payer: "P" }, catalogue, siteCustomer)).toMatchObject({ customerId: 8, siteId: null });
  });
});
