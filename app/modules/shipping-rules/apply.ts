/**
 * A rule decision applied to a rate response (docs/decisions/040): the excluded carriers leave the
 * list, and the rule's service becomes the selection unless the caller named a service of their
 * own (an explicit choice beats a rule; a rule beats the preselected service type and cheapest).
 */
import type { RateResponse } from "../rating/engine";
import type { RuleDecision } from "./evaluate";

const keyOf = (r: { code: string; service_code: string }) => `${r.code}:${r.service_code}`.toLowerCase();

export function applyDecision(response: RateResponse, decision: RuleDecision | null): RateResponse {
  if (!decision) return response;
  const excluded = new Set(decision.exclude_carriers.map((c) => c.toLowerCase()));
  const carriers = response.carriers.filter((r) => !excluded.has(r.code.toLowerCase()));
  const previous = response.selected_index != null ? response.carriers[response.selected_index] : undefined;
  const kept = previous ? carriers.indexOf(previous) : -1;
  let index: number;
  let rule: RateResponse["rule_applied"];
  if (response.rule_applied === "preselected" && kept >= 0) [index, rule] = [kept, "preselected"];
  else if (decision.chosen) [index, rule] = [carriers.findIndex((r) => keyOf(r) === decision.chosen!.toLowerCase()), "shipping_rule"];
  else if (kept >= 0) [index, rule] = [kept, response.rule_applied];
  // the selection was excluded: the cheapest of what is left (the list is sorted by price)
  else [index, rule] = [carriers.findIndex((r) => !r.is_poa), "cheapest"];
  const selected = index >= 0 ? index : null;
  if (selected === null) rule = null;
  return {
    carriers: carriers.map((r, i) => ({ ...r, rule_based_selection_index: selected, rule_applied: rule, chosen_by_rule: rule === "shipping_rule" && i === selected ? decision.rule_name : null })),
    selected_index: selected,
    rule_applied: rule,
    shipping_rule: decision,
  };
}

const SPECIAL_INSTRUCTIONS_MAX = 80;

/**
 * What a matched rule adds to the consignment: its special instructions after the typed ones (once,
 * however often it is saved; cut at the column's 80 characters) and authority to leave among the
 * delivery options.
 */
export function ruleEffects(decision: RuleDecision | null | undefined, specialInstructions: string | null | undefined, options: Record<string, unknown>) {
  const typed = specialInstructions ?? null;
  if (!decision?.rule_id) return { specialInstructions: typed, options };
  const add = decision.special_instructions;
  const instructions = add && !(typed ?? "").includes(add) ? [typed, add].filter(Boolean).join("; ").slice(0, SPECIAL_INSTRUCTIONS_MAX) : typed;
  if (!decision.authority_to_leave) return { specialInstructions: instructions, options };
  const delivery = options.delivery_options && typeof options.delivery_options === "object" ? (options.delivery_options as Record<string, unknown>) : {};
  return { specialInstructions: instructions, options: { ...options, delivery_options: { ...delivery, authority_to_leave: true } } };
}
