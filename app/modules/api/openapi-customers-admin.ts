/** Customers administration in the OpenAPI document (issue 16 items 1 and 7); spread into openapi.ts's paths. */
import { ALLOCATE_BY, CUSTOMER_FLAGS, MERGE_LIMITS, MESSAGES, OPTION_FLAGS, PLACEHOLDERS, REFERENCE_MAX, REFERENCE_TYPES, REGIONS, SPECIAL_INSTRUCTIONS_MAX } from "../customers/admin";
import { errorResponses, idParam, ok } from "./openapi-parts";

const bool = { type: "boolean" };
const options = {
  type: "object",
  description: "customer_options; a null or blank value removes the option, so its default applies",
  properties: {
    ...Object.fromEntries(OPTION_FLAGS.map((k) => [k, bool])),
    invoice_allocate_by: { enum: [...ALLOCATE_BY, null] },
    billing_address_from: { description: `ENTERED, SITE, a site id of the customer, or { region: site id } (regions ${REGIONS.join(", ")})` },
    markup: { type: "number", minimum: 0, maximum: 1000 },
    merge_limit: { enum: [...MERGE_LIMITS, null] },
    placeholder_texts: { type: "object", properties: Object.fromEntries(PLACEHOLDERS.map((p) => [p, { type: "string", maxLength: 255 }])) },
    reconciliation_threshold_flat: { type: "number", minimum: 0 },
    reconciliation_threshold_percentage: { type: "number", minimum: 0 },
    invoicing_email: { type: "string", format: "email" },
    session_timeout: { type: ["integer", "null"], minimum: 1, description: "minutes; blank or null means 720" },
  },
};
const properties = {
  name: { type: "string", maxLength: 255 },
  code: { type: "string", pattern: "^[A-Za-z0-9_-]{1,20}$", description: "unique, case-insensitive" },
  branding_prefix: { type: "string", pattern: "^[A-Za-z0-9_-]{1,20}$" },
  ...Object.fromEntries(CUSTOMER_FLAGS.map((k) => [k, bool])),
  test_account: { type: "boolean", description: `false on a test account is going live: super admins only, else 403 '${MESSAGES.privilege}'. A new customer is a test account unless it says false` },
  delete_consignments: { type: "boolean", description: "with going live: delete every consignment and manifest of the customer in the same transaction" },
  custom_consignment_reference_type: { enum: REFERENCE_TYPES },
  custom_consignment_reference_label: { type: "string", maxLength: 255 },
  special_instructions: { type: "string", maxLength: SPECIAL_INSTRUCTIONS_MAX },
  support_email: { type: "string", format: "email" },
  billing_address: { type: "object", properties: Object.fromEntries(["name", "address_line_1", "address_line_2", "address_line_3", "address_line_4", "sublocality", "locality", "postcode", "region", "country"].map((k) => [k, { type: "string" }])) },
  options,
};
const customerJson =
  "{ id, code, name, status, branding_prefix, zendesk_org_id, manifests, test_account, test_account_previous, disabled, despatch_enabled, customer_despatch_enabled, tracking_despatch_enabled, ..., custom_consignment_reference_type, custom_consignment_reference_label, special_instructions, support_email, billing_address, options, sites: [{ id, code, name }] }";
const json = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { description: "Customer not found", content: { "application/json": {} } };
const team = "Team view (devs, super admin, admin, customer service)";
const body = { required: true, content: { "application/json": { schema: { type: "object", properties } } } };

export const customersAdminPaths = {
  "/api/customers": {
    get: {
      summary: `${team}: every customer with its status (LIVE, TEST, DISABLED), by name`,
      parameters: [
        { name: "q", in: "query", schema: { type: "string" }, description: "name or code contains" },
        { name: "status", in: "query", schema: { enum: ["LIVE", "TEST", "DISABLED"] } },
      ],
      responses: ok("{ customers: [{ id, code, name, status }] }"),
    },
    post: { summary: `${team}: a new customer (customer service may create customers); 422 per field`, requestBody: body, responses: { "201": json(customerJson), ...errorResponses } },
  },
  "/api/customers/{id}": {
    get: { summary: `${team}: one customer with options, billing address, manifests count and sites`, parameters: [idParam("id")], responses: { "200": json(customerJson), ...errorResponses, "404": notFound } },
    put: {
      summary: `${team}: the fields given replace the stored ones. Customer POD updates (tracking_despatch_enabled) and options.send_all_tracking_updates stay off unless customer_despatch_enabled`,
      parameters: [idParam("id")],
      requestBody: body,
      responses: { "200": json(`${customerJson} plus deleted: { consignments, manifests } when going live deleted them`), ...errorResponses, "404": notFound },
    },
  },
  "/api/customers/{id}/update_sites_customer_despatch_enabled": {
    put: {
      summary: `${team}: despatch_enabled on every site of the customer`,
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["despatch_enabled"], properties: { despatch_enabled: bool } } } } },
      responses: { "200": json("{ id, despatch_enabled, sites }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/customers/{id}/custom_references": {
    get: { summary: `${team}: the dropdown_generic custom references, in order`, parameters: [idParam("id")], responses: ok("{ customer: { id, name, generic }, custom_references: [{ id, customer_id, reference }] }") },
    post: {
      summary: `${team}: replaces the list in the order given (only for a dropdown_generic customer); each reference 1 to ${REFERENCE_MAX} characters, no duplicates`,
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "array", items: { type: "string", maxLength: REFERENCE_MAX } } } } },
      responses: ok("{ customer, custom_references: [{ id, customer_id, reference }] }"),
    },
  },
} as const;
