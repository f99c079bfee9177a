/** Shipping rules of a customer in the OpenAPI document (issue 34 item 2, docs/decisions/040); spread into openapi.ts's paths. */
import { MAX_RULES_PER_CUSTOMER, MESSAGES, NAME_MAX, PATTERN_MAX, RULE_JSON_MAX_BYTES, SPECIAL_INSTRUCTIONS_MAX } from "../shipping-rules/schema";
import { errorResponses, idParam } from "./openapi-parts";

const who = "Staff for any customer; the customer's admins (super despatchers) for theirs; other users 403 (another customer's id: 404)";
const ruleJson = "{ id, customer_id, site_id, position, name, active, conditions, actions }";
const one = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { ...errorResponses["401"], description: `${MESSAGES.notFound} (or the customer is not the caller's)` };
const customer = idParam("id");
const range = { type: ["object", "null"], properties: { min: { type: ["number", "null"], minimum: 0 }, max: { type: ["number", "null"], minimum: 0 } }, description: "either end open; min above max is refused (422 on its min)" };
const serviceKey = { type: "string", pattern: "^[^:\\s]+:[^:\\s]+$", description: "CARRIER:SERVICE, a service that exists" };
const conditions = {
  type: "object",
  description: "All given must hold; none given matches every consignment",
  properties: {
    postcodes: { type: "array", items: { type: "object", required: ["from"], properties: { from: { type: "string" }, to: { type: ["string", "null"] } } }, description: "receiver postcode ranges (numeric postcodes compare as numbers)" },
    regions: { type: "array", items: { type: "string" }, description: "receiver region or state, any case" },
    countries: { type: "array", items: { type: "string" } },
    address_type: { type: ["string", "null"], enum: ["business", "residential", null] },
    dead_weight: { ...range, description: "total dead weight in the site's unit (kg or lb)" },
    cubic_weight: { ...range, description: "total cubic weight at 250 kg/m3 (15.6 lb/ft3), in the site's unit" },
    item_count: range,
    declared_value: { ...range, description: "the payload's declared_value (a consignment's options.declared_value; a store's cart value); absent never matches a range" },
    item_types: { type: "array", items: { type: "integer" }, description: "any line of one of these item types (the customer's)" },
    dangerous_goods: { type: ["boolean", "null"] },
    reference: { type: ["string", "null"], maxLength: PATTERN_MAX, description: "glob over the reference: * any run, ? one character, anchored, any case" },
  },
};
const actions = {
  type: "object",
  properties: {
    use: { ...serviceKey, description: "use this service; falls through to the next rule when it has no price on the lane" },
    choose: { type: ["object", "null"], properties: { by: { type: "string", enum: ["cheapest", "fastest"] }, services: { type: "array", items: serviceKey } }, description: "not with use" },
    exclude_carriers: { type: "array", items: { type: "string" }, description: "carrier codes left out of the rates" },
    special_instructions: { type: ["string", "null"], maxLength: SPECIAL_INSTRUCTIONS_MAX, description: "added to the consignment's special instructions" },
    authority_to_leave: { type: ["boolean", "null"], description: "sets the consignment's delivery option authority_to_leave" },
  },
};
const body = {
  required: true,
  content: {
    "application/json": {
      schema: {
        type: "object",
        properties: {
          name: { type: "string", minLength: 1, maxLength: NAME_MAX },
          site_id: { type: ["integer", "null"], description: "only consignments from this site of the customer" },
          active: { type: "boolean", default: true },
          conditions: { ...conditions, description: `${conditions.description}; conditions and actions at most ${RULE_JSON_MAX_BYTES / 1024} KB each as JSON` },
          actions,
        },
      },
    },
  },
};
const list = { "200": one(`{ shipping_rules: [${ruleJson}] } in position order`), ...errorResponses, "404": notFound };

export const shippingRulePaths = {
  "/api/customers/{id}/shipping_rules": {
    get: { summary: `The customer's shipping rules in their order: the first that matches a consignment wins. ${who}`, parameters: [customer], responses: list },
    post: { summary: `A new rule at the end of the list, 201. 422 per field (impossible range, unknown service or carrier, more than ${MAX_RULES_PER_CUSTOMER} rules)`, parameters: [customer], requestBody: body, responses: { "201": one(ruleJson), ...errorResponses, "404": notFound } },
  },
  "/api/customers/{id}/shipping_rules/{ruleId}": {
    get: { summary: `One rule. ${who}`, parameters: [customer, idParam("ruleId")], responses: { "200": one(ruleJson), ...errorResponses, "404": notFound } },
    put: { summary: "Change a rule: the fields given replace its own (conditions and actions each whole)", parameters: [customer, idParam("ruleId")], requestBody: body, responses: { "200": one(ruleJson), ...errorResponses, "404": notFound } },
    delete: { summary: "Delete a rule", parameters: [customer, idParam("ruleId")], responses: { "200": one("{ id, deleted: true }"), ...errorResponses, "404": notFound } },
  },
  "/api/customers/{id}/shipping_rules/update_sequence_order": {
    post: {
      summary: "The new order: ids listed take positions 1..n, the others follow in their order. 422 for an id not of this customer",
      parameters: [customer],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["ids"], properties: { ids: { type: "array", items: { type: "integer" } } } } } } },
      responses: list,
    },
  },
  "/api/customers/{id}/shipping_rules/test": {
    post: {
      summary: "Rate a consignment (the /api/carrier_selection payload, site_code one of the customer's, plus reference and declared_value) with the saved rules; writes nothing",
      parameters: [customer],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object" } } } },
      responses: { "200": one("{ rule: { rule_id, rule_name, chosen, reason, fall_throughs: [{ rule_id, rule_name, reason }], exclude_carriers, offered, special_instructions, authority_to_leave } | null, selection, chosen: { carrier, service, name, total, estimated_delivery_date } | null, rates }"), ...errorResponses, "404": notFound },
    },
  },
} as const;
