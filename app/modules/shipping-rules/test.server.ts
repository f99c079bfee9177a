/**
 * 'Test a consignment' (the screen's panel and POST /api/customers/{id}/shipping_rules/test): a
 * consignment rated at one of the customer's sites with the rules as saved, answering the rule
 * that matched, the rules that fell through and the rate it chose.
 */
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { ratingPayloadSchema } from "../rating/payload";
import { rateWithRules } from "../rating/rating.server";
import { ratesForViewer } from "../rating/visibility";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { ruleCustomer } from "./shipping-rules.server";

export async function testRules(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown) {
  await ruleCustomer(db, user, customerId);
  const p = parseOrThrow(ratingPayloadSchema, raw);
  const [site] = await db
    .select({ id: sites.id, code: sites.code, som: sites.som, region: sites.region })
    .from(sites)
    .where(and(eq(sites.customerId, customerId), sql`lower(${sites.code}) = ${p.site_code.toLowerCase()}`));
  if (!site) throw new AppError("invalid", "Site must be one of the customer's sites", { site_code: ["Site must be one of the customer's sites"] });
  const response = ratesForViewer(user, await rateWithRules(db, customerId, site, p));
  const chosen = response.selected_index != null ? response.carriers[response.selected_index]! : null;
  return {
    rule: response.shipping_rule ?? null,
    selection: response.rule_applied,
    chosen: chosen ? { carrier: chosen.code, service: chosen.service_code, name: `${chosen.name} ${chosen.service}`, total: chosen.total, estimated_delivery_date: chosen.estimated_delivery_date } : null,
    rates: response.carriers,
  };
}
