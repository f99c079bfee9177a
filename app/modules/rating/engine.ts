/**
 * The rating engine (DESIGN.md section 4 "Rating"): prices every carrier service of a site for a
 * consignment in one pass. Pure: the caller resolves zones, lanes, levies and surcharge sets from
 * the database and passes them in, so every rule here is testable by hand-worked examples.
 */
import type { CostCategory as AnyCostCategory } from "../../../db/schema/finance";
import type { RuleDecision } from "../shipping-rules/evaluate";
import { KG_PER_LB, M3_PER_FT3, itemVolume, type Som } from "./measure";

/** What a rate card can produce: a part of db/schema/finance.ts COST_CATEGORIES, the master list. */
export const COST_CATEGORIES = [
  "freight_charge",
  "fuel_charge",
  "dangerous_goods_surcharge",
  "remote_surcharge",
  "oversize_surcharge",
  "manual_handling_surcharge",
  "residential_surcharge",
  "warranty_surcharge",
  "return_surcharge",
] as const satisfies readonly AnyCostCategory[];
export type CostCategory = (typeof COST_CATEGORIES)[number];

export interface CostLine {
  category: CostCategory | "gst";
  description: string;
  amount: number;
}

export interface Amount {
  surcharge: number;
  is_percentage: boolean;
  add_fuel_levy?: boolean;
}

export interface SurchargeSet {
  code: string;
  carrierCode: string;
  serviceCodes: string[];
  siteCodes: string[];
  dgSurcharge?: Amount | null;
  returnSurcharge?: Amount | null;
  manualHandlingSurcharge?: Amount | null;
  warrantySurcharge?: Amount | null;
  residentialSurcharge?: Amount | null;
  oversizedSurcharges: Array<Amount & { level: number; from_m?: number | null; to_m?: number | null; from_kg?: number | null; to_kg?: number | null }>;
  remoteSurcharges: Array<Amount & { tier: number }>;
}

export interface Lane {
  rateCode: string;
  fromZone: string;
  toZone: string;
  basic: number;
  perKg: number;
  perItem: number;
  minimum: number;
  transitDays: number;
  /** kg per m3 for metric lanes, lb per ft3 for imperial lanes */
  cubicFactor: number;
  som: Som;
  effectiveFrom: string;
}

/** One carrier service offered at the sending site, with what the caller resolved for it. */
export interface ServiceOption {
  siteServiceId: number;
  carrierCode: string;
  carrierName: string;
  serviceCode: string;
  serviceName: string;
  serviceType: string;
  rateCode: string | null;
  /** percent, e.g. 15 for 15 % */
  markup: number;
  surchargesMarkup: number;
  /** zone codes; null when no zone row matched, "-" when the service must not rate there */
  fromZone: string | null;
  toZone: string | null;
  lane: Lane | null;
  /** percent in force on the despatch date */
  fuelPercentage: number;
  /** rates hidden from the customer (the spec's restricted account): shown as NA */
  hideRates: boolean;
  timeslots: { pickup: boolean; deliver_by: boolean; deliver_at: boolean };
  /** the service's "No Rates Provided" (pay on arrival): offered, never priced */
  noRatesProvided?: boolean;
}

export interface RatingItem {
  quantity: number;
  /** per-line dimensions, cm or in */
  length: number;
  width: number;
  height: number;
  /** dead weight of the whole line, kg or lb */
  weight: number;
  dangerousGoods: boolean;
  manualHandling: boolean;
}

export interface RatingInput {
  despatchDate: string;
  som: Som;
  senderCountry: string;
  siteCode: string;
  items: RatingItem[];
  receiverRemoteTier: number;
  receiverResidential: boolean;
  isReturn: boolean;
  warranty: boolean;
  preselectedCarrierService?: string | null;
  preselectedServiceType?: string | null;
  services: ServiceOption[];
  surchargeSets: SurchargeSet[];
  /** transit business days after the despatch date, skipping the sender region's holidays */
  estimateDelivery: (despatchDate: string, transitDays: number) => string;
}

export interface RatingDetail {
  rate_code: string | null;
  from_zone: string | null;
  to_zone: string | null;
  som: Som;
  dead_weight: number;
  cubic_weight: number;
  charge_weight: number;
  volume: number;
  items: number;
  lane: Lane | null;
  fuel_percentage: number;
  markup: number;
  surcharge_markup: number;
  gst_rate: number;
  buy: CostLine[];
  sell: CostLine[];
  total_buy: number;
  total_sell: number;
  total_sell_incl_gst: number;
}

export interface Rate {
  site_service_id: number;
  name: string;
  service: string;
  service_code: string;
  code: string;
  service_type: string;
  total: number | null;
  total_exclusive: number | null;
  is_poa: boolean;
  is_na: boolean;
  timeslots: ServiceOption["timeslots"];
  estimated_delivery_date: string | null;
  rule_based_selection_index: number | null;
  rule_applied: string | null;
  /** the shipping rule's name on the rate it chose (docs/decisions/040) */
  chosen_by_rule?: string | null;
  /** why this price: never shown to customers for a hidden-rate account */
  rating_detail: RatingDetail | null;
}

export interface RateResponse {
  carriers: Rate[];
  selected_index: number | null;
  rule_applied: "preselected" | "shipping_rule" | "service_type" | "cheapest" | null;
  /** what the customer's shipping rules decided, when any matched or fell through */
  shipping_rule?: RuleDecision | null;
}

/** GST by sender country: AU 10 %, NZ 15 %, US none. */
export function gstRate(country: string): number {
  if (country === "AUSTRALIA") return 0.1;
  if (country === "NEW ZEALAND") return 0.15;
  return 0;
}

export const cents = (value: number) => Math.round((value + Number.EPSILON * Math.sign(value)) * 100) / 100;
const round3 = (value: number) => Math.round(value * 1000) / 1000;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Dead, cubic and charge weight in the lane's units (charge = max(dead, cubic) per line, summed). */
export function chargeWeight(items: RatingItem[], som: Som, lane: Pick<Lane, "cubicFactor" | "som">) {
  const toLaneWeight = (w: number) => (som === lane.som ? w : som === "metric" ? w / KG_PER_LB : w * KG_PER_LB);
  const toLaneVolume = (v: number) => (som === lane.som ? v : som === "metric" ? v / M3_PER_FT3 : v * M3_PER_FT3);
  let dead = 0;
  let cubic = 0;
  let charge = 0;
  let volume = 0;
  for (const item of items) {
    const lineVolume = toLaneVolume(itemVolume(item, som) ?? 0);
    const lineDead = toLaneWeight(item.weight);
    const lineCubic = lineVolume * lane.cubicFactor;
    dead += lineDead;
    cubic += lineCubic;
    volume += lineVolume;
    charge += Math.max(lineDead, lineCubic);
  }
  return { dead: round3(dead), cubic: round3(cubic), charge: round3(charge), volume: round3(volume) };
}

function surchargeApplies(set: SurchargeSet, option: ServiceOption, siteCode: string): boolean {
  return (
    set.carrierCode.toLowerCase() === option.carrierCode.toLowerCase() &&
    (set.serviceCodes.length === 0 || set.serviceCodes.some((c) => c.toLowerCase() === option.serviceCode.toLowerCase())) &&
    (set.siteCodes.length === 0 || set.siteCodes.some((c) => c.toLowerCase() === siteCode.toLowerCase()))
  );
}

/** The oversize level an item line reaches, by its longest side in metres or its unit weight in kg. */
function oversizeLevel(set: SurchargeSet, items: RatingItem[], som: Som) {
  let best: SurchargeSet["oversizedSurcharges"][number] | undefined;
  for (const item of items) {
    const longestM = (Math.max(item.length, item.width, item.height) * (som === "imperial" ? 2.54 : 1)) / 100;
    const unitKg = (item.weight / Math.max(item.quantity, 1)) * (som === "imperial" ? KG_PER_LB : 1);
    for (const level of set.oversizedSurcharges) {
      const byLength = level.from_m != null && longestM >= level.from_m && (level.to_m == null || longestM < level.to_m);
      const byWeight = level.from_kg != null && unitKg >= level.from_kg && (level.to_kg == null || unitKg < level.to_kg);
      if ((byLength || byWeight) && (!best || level.level > best.level)) best = level;
    }
  }
  return best;
}

/** The buy cost lines of one service: freight, each surcharge that applies, fuel on what carries it. */
function buyLines(input: RatingInput, option: ServiceOption, lane: Lane, charge: number, itemCount: number): CostLine[] {
  const freight = cents(Math.max(lane.minimum, lane.basic + lane.perKg * charge + lane.perItem * itemCount));
  const lines: CostLine[] = [{ category: "freight_charge", description: `Freight ${lane.fromZone} to ${lane.toZone}`, amount: freight }];
  let fuelBase = freight;
  const add = (category: CostCategory, description: string, amount: Amount | null | undefined) => {
    if (!amount) return;
    const value = cents(amount.is_percentage ? (freight * amount.surcharge) / 100 : amount.surcharge);
    if (value === 0) return;
    lines.push({ category, description, amount: value });
    if (amount.add_fuel_levy) fuelBase += value;
  };
  const set = input.surchargeSets.find((s) => surchargeApplies(s, option, input.siteCode));
  if (set) {
    if (input.items.some((i) => i.dangerousGoods)) add("dangerous_goods_surcharge", "Dangerous goods", set.dgSurcharge);
    const remote = set.remoteSurcharges.find((r) => r.tier === input.receiverRemoteTier && r.tier > 0);
    if (remote) add("remote_surcharge", `Remote area tier ${remote.tier}`, remote);
    const oversize = oversizeLevel(set, input.items, input.som);
    if (oversize) add("oversize_surcharge", `Oversize level ${oversize.level}`, oversize);
    if (input.items.some((i) => i.manualHandling)) add("manual_handling_surcharge", "Manual handling", set.manualHandlingSurcharge);
    if (input.receiverResidential) add("residential_surcharge", "Residential delivery", set.residentialSurcharge);
    if (input.warranty) add("warranty_surcharge", "Warranty", set.warrantySurcharge);
    // the return surcharge is a fixed amount only (spec 2: no percentage choice)
    if (input.isReturn && set.returnSurcharge) add("return_surcharge", "Return", { ...set.returnSurcharge, is_percentage: false });
  }
  const fuel = cents((fuelBase * option.fuelPercentage) / 100);
  if (fuel !== 0) lines.splice(1, 0, { category: "fuel_charge", description: `Fuel levy ${option.fuelPercentage}%`, amount: fuel });
  return lines;
}

/** Sell = buy with the markup on freight and fuel and the surcharges markup on surcharges. */
function sellLines(buy: CostLine[], option: ServiceOption): CostLine[] {
  return buy.map((line) => {
    const pct = line.category === "freight_charge" || line.category === "fuel_charge" ? option.markup : option.surchargesMarkup;
    return { ...line, amount: cents(line.amount * (1 + pct / 100)) };
  });
}

function rateOne(input: RatingInput, option: ServiceOption): Rate | null {
  // "-" means this service must not rate to or from that place: it is not offered at all
  if (option.fromZone === "-" || option.toZone === "-") return null;
  const base: Rate = {
    site_service_id: option.siteServiceId,
    name: option.carrierName,
    service: option.serviceName,
    service_code: option.serviceCode,
    code: option.carrierCode,
    service_type: option.serviceType,
    total: null,
    total_exclusive: null,
    is_poa: true,
    is_na: option.hideRates,
    timeslots: option.timeslots,
    estimated_delivery_date: null,
    rule_based_selection_index: null,
    rule_applied: null,
    rating_detail: null,
  };
  if (option.noRatesProvided) return base; // "No Rates Provided": price on arrival, whatever the card says
  const lane = option.lane;
  if (!lane || !option.fromZone || !option.toZone) return base; // no lane: price on application
  const itemCount = sum(input.items.map((i) => i.quantity));
  const weights = chargeWeight(input.items, input.som, lane);
  const buy = buyLines(input, option, lane, weights.charge, itemCount);
  const sell = sellLines(buy, option);
  const rate = gstRate(input.senderCountry);
  const totalSell = cents(sum(sell.map((l) => l.amount)));
  const gst = cents(totalSell * rate);
  const totalIncl = cents(totalSell + gst);
  const detail: RatingDetail = {
    rate_code: option.rateCode,
    from_zone: option.fromZone,
    to_zone: option.toZone,
    som: lane.som,
    dead_weight: weights.dead,
    cubic_weight: weights.cubic,
    charge_weight: weights.charge,
    volume: weights.volume,
    items: itemCount,
    lane,
    fuel_percentage: option.fuelPercentage,
    markup: option.markup,
    surcharge_markup: option.surchargesMarkup,
    gst_rate: rate,
    buy,
    sell: gst ? [...sell, { category: "gst", description: `GST ${Math.round(rate * 100)}%`, amount: gst }] : sell,
    total_buy: cents(sum(buy.map((l) => l.amount))),
    total_sell: totalSell,
    total_sell_incl_gst: totalIncl,
  };
  return {
    ...base,
    is_poa: false,
    total: option.hideRates ? null : totalIncl,
    total_exclusive: option.hideRates ? null : totalSell,
    estimated_delivery_date: input.estimateDelivery(input.despatchDate, lane.transitDays),
    rating_detail: detail,
  };
}

/**
 * Rates every service, then applies the selection rules: the preselected carrier service when it
 * rated, else the cheapest of the preselected service type, else the cheapest overall. POA and NA
 * rates are never selected by price.
 */
export function rate(input: RatingInput): RateResponse {
  const carriers = input.services.map((o) => rateOne(input, o)).filter((r): r is Rate => r !== null);
  carriers.sort((a, b) => (a.is_poa === b.is_poa ? (a.rating_detail?.total_sell_incl_gst ?? 0) - (b.rating_detail?.total_sell_incl_gst ?? 0) : a.is_poa ? 1 : -1));
  const priced = carriers.map((r, i) => ({ r, i })).filter(({ r }) => !r.is_poa);
  const cheapest = (list: typeof priced) => list[0]; // already sorted by price
  let chosen: { r: Rate; i: number } | undefined;
  let rule: RateResponse["rule_applied"] = null;
  const wanted = input.preselectedCarrierService?.toLowerCase();
  if (wanted) {
    chosen = priced.find(({ r }) => r.service_code.toLowerCase() === wanted || `${r.code}:${r.service_code}`.toLowerCase() === wanted);
    if (chosen) rule = "preselected";
  }
  if (!chosen && input.preselectedServiceType) {
    chosen = cheapest(priced.filter(({ r }) => r.service_type === input.preselectedServiceType));
    if (chosen) rule = "service_type";
  }
  if (!chosen) {
    chosen = cheapest(priced);
    if (chosen) rule = "cheapest";
  }
  const index = chosen?.i ?? null;
  for (const r of carriers) {
    r.rule_based_selection_index = index;
    r.rule_applied = rule;
  }
  return { carriers, selected_index: index, rule_applied: rule };
}

/** Zone rows for one place, with the scope they apply to (null = any). */
export interface ZoneCandidate {
  customerId: number | null;
  siteId: number | null;
  serviceId: number | null;
  locality: string | null;
  code: string;
}

/**
 * The zone of a place for one service (spec 2 "Zones"): customer+site+service, customer+site,
 * customer+service, customer, service only, carrier default; within a level a row naming the
 * locality beats a row for the whole postcode. Null when nothing matches.
 */
export function resolveZone(
  candidates: ZoneCandidate[],
  ctx: { customerId: number; siteId: number; serviceId: number; locality: string },
): string | null {
  const locality = ctx.locality.toLowerCase();
  let best: { rank: number; specific: boolean; code: string } | undefined;
  for (const z of candidates) {
    if (z.customerId != null && z.customerId !== ctx.customerId) continue;
    if (z.siteId != null && z.siteId !== ctx.siteId) continue;
    if (z.serviceId != null && z.serviceId !== ctx.serviceId) continue;
    if (z.locality != null && z.locality.toLowerCase() !== locality) continue;
    const c = z.customerId != null || z.siteId != null;
    const s = z.siteId != null;
    const v = z.serviceId != null;
    const rank = c && s && v ? 1 : c && s ? 2 : c && v ? 3 : c ? 4 : v ? 5 : 6;
    const specific = z.locality != null;
    if (!best || rank < best.rank || (rank === best.rank && specific && !best.specific)) best = { rank, specific, code: z.code };
  }
  return best?.code ?? null;
}
