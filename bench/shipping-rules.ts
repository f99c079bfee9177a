/**
 * Shipping rules (issue 34 item 2, docs/decisions/040): what 100 rules add to a rate shop. The
 * demo's Melbourne site rated in process with and without 100 rules for its customer (none of
 * which match until the last, the worst case: every predicate runs), and the evaluator alone.
 * `NODE_ENV=production DATABASE_URL=... npx tsx bench/section.ts shipping-rules`.
 */
import { eq } from "drizzle-orm";
import { shippingRules, sites } from "../db/schema";
import { seedDemo } from "../db/seed/demo";
import { loadLocalities } from "../db/seed/localities";
import { seedRatingDemo } from "../db/seed/rating-demo";
import { todayIn } from "../app/modules/calendar/site-time";
import { ratingPayloadSchema } from "../app/modules/rating/payload";
import { rateAtSite, rateWithRules, ruleFactsOf } from "../app/modules/rating/rating.server";
import { ratingData } from "../app/modules/rating/rating-data.server";
import { applyDecision } from "../app/modules/shipping-rules/apply";
import { evaluateRules } from "../app/modules/shipping-rules/evaluate";
import { startTestServer } from "../tests/support/server";
import { MEL_TO_BNE } from "../tests/support/rating";
import { inProcess, TABLE_HEAD, tableRows } from "./measure";

const RULES = 100;

export async function shippingRulesSection(): Promise<string[]> {
  const server = await startTestServer();
  try {
    const db = server.db;
    const demo = await seedDemo(db);
    await loadLocalities(db);
    await seedRatingDemo(db);
    const [site] = await db.select({ id: sites.id, code: sites.code, som: sites.som, region: sites.region }).from(sites).where(eq(sites.id, demo.sites.melbourne.id));
    const p = ratingPayloadSchema.parse({
      despatch_date: todayIn("Australia/Melbourne", new Date(Date.now() + 86_400_000)),
      ...MEL_TO_BNE,
      receiver_region: "QLD",
      reference: "SO-1234",
      items: [
        { quantity: 2, length: 40, width: 30, height: 30, weight_in_uom: 12 },
        { quantity: 5, length: 35, width: 25, height: 5, weight_in_uom: 5 },
      ],
    });
    const plain = await rateAtSite(db, demo.acme.id, site!, p);
    const cheapest = plain.carriers.find((r) => !r.is_poa)!;
    // 99 rules with every kind of condition that do not match (VIC receivers), then one that does
    await db.insert(shippingRules).values(
      Array.from({ length: RULES }, (_, i) => ({
        customerId: demo.acme.id,
        name: `Rule ${i + 1}`,
        position: i + 1,
        conditions:
          i === RULES - 1
            ? { postcodes: [{ from: "4000", to: "4999" }] }
            : { postcodes: [{ from: "3000", to: "3999" }, { from: "8000", to: "8999" }], regions: ["VIC"], dead_weight: { min: 1, max: 500 }, reference: "PO-*", dangerous_goods: false },
        actions: { use: `${cheapest.code}:${cheapest.service_code}` },
      })),
    );
    const data = await ratingData(db);
    const compiled = await data.shippingRules(demo.acme.id);
    const facts = ruleFactsOf(site!, p);
    const choices = plain.carriers.map((r) => ({ key: `${r.code}:${r.service_code}`, price: r.is_poa ? null : r.total, estimatedDelivery: r.estimated_delivery_date }));
    if (evaluateRules(compiled, facts, choices)?.rule_name !== `Rule ${RULES}`) throw new Error("the last rule should match");

    await inProcess(300, () => rateWithRules(db, demo.acme.id, site!, p)); // warm up
    await inProcess(300, () => rateAtSite(db, demo.acme.id, site!, p));
    const rows: Array<[string, Awaited<ReturnType<typeof inProcess>>]> = [
      [`evaluate ${RULES} compiled rules (the last matches) and apply the decision, ${plain.carriers.length} rates`, await inProcess(20_000, () => applyDecision(plain, evaluateRules(compiled, facts, choices)))],
      ["rate shop in process without rules (rateAtSite)", await inProcess(1000, () => rateAtSite(db, demo.acme.id, site!, p))],
      [`rate shop in process with ${RULES} rules (rateWithRules)`, await inProcess(1000, () => rateWithRules(db, demo.acme.id, site!, p))],
    ];
    const added = rows[2]![1].p95 - rows[1]![1].p95;
    return [
      "## Shipping rules: 100 rules on a rate shop",
      "",
      `The issue's budget: rules add under 1 ms p95 to a rate shop with ${RULES} rules. Rules are compiled once per customer and cached with the rating data (no query while nothing changed), so what is added is the evaluation: the first row. The p95 of the rate shop with rules less the one without: ${added.toFixed(3)} ms (the two are separate runs on a shared machine, so this difference also carries its noise; the first row is the cost itself).`,
      "",
      ...TABLE_HEAD,
      ...tableRows(rows, 3),
      "",
    ];
  } finally {
    await server.close();
  }
}
