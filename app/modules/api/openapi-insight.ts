/** The insight dashboards' call (issue 33 item 2, docs/decisions/042). */
import { CURRENCIES, MAX_PERIOD_DAYS, SECTIONS } from "../insight/filters";
import { ok } from "./openapi-parts";

const query = (name: string, description: string, schema: object = { type: "string" }) => ({ name, in: "query", required: false, description, schema });

export const insightPaths = {
  "/api/insight": {
    get: {
      summary: `One section's figures (carrier performance, spend, audit, emissions) from the daily rollup, for the reader's scope: staff any customer (or all), a customer's users their own customer and sites. Buy and margin for staff only; the audit for finance users. Unknown filters and periods over ${MAX_PERIOD_DAYS} days answer 400, ids the reader cannot see 404`,
      parameters: [
        query("section", "performance (default), spend, audit or emissions", { type: "string", enum: SECTIONS }),
        query("from", "YYYY-MM-DD; default the first day of the month eleven months before `to`"),
        query("to", "YYYY-MM-DD; default today"),
        query("customer_id", "staff only: one customer"),
        query("site_id", "one site"),
        query("carrier_id", "one carrier"),
        query("service_id", "one service"),
        query("lane", "from state to state, e.g. VIC-NSW"),
        query("currency", "money in this currency; default the one most consignments were sent in", { type: "string", enum: CURRENCIES }),
      ],
      responses: {
        ...ok("{ filters, section, currency, currencies, headline: { consignments, on_time_pct, sell, kg_co2e, without_emissions }, charts: [{ id, title, description, kind, category, data: { categories, series: [{ key, label, values }], unit, currency? } }], auditAllowed }"),
        "400": { description: "An unknown filter, a malformed value or a period longer than two years", content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } },
        "404": { description: "A customer, site, carrier or service the reader cannot see", content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } },
      },
    },
  },
} as const;
