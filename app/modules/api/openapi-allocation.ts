/** Allocation rules and allocation in the OpenAPI document (issue 18 items 5 and 6); spread into openapi.ts's paths. */
import { errorResponses, idParam, ok } from "./openapi-parts";

const rule = {
  required: true,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["carrier_code", "allocation_model", "type", "options"],
        properties: {
          carrier_code: { type: "string" },
          customer_id: { type: ["integer", "null"], description: "a customer's own rule (tried before the carrier-wide ones); null for every customer" },
          allocation_model: { type: "string", enum: ["Customer", "Site", "CarrierService"] },
          type: { type: "string", enum: ["Mapping", "Lookup"] },
          options: { type: "object", description: "Mapping: { from_matcher: { field, text }, to_id }; Lookup: { from_matcher: { field }, to_matcher: { model, field } }" },
          next_rule: { type: ["integer", "null"], description: "tried when this rule fails; same carrier and model; a loop is refused" },
        },
      },
    },
  },
};

export const allocationPaths = {
  "/api/allocation_rules": {
    get: {
      summary: "Finance users: the live allocation rules, of one carrier with carrier_code; each with its group (the head of its chain) and to_code",
      parameters: [{ name: "carrier_code", in: "query", required: false, schema: { type: "string" } }],
      responses: ok("{ allocation_rules: [{ id, carrier_code, customer_id, allocation_model, type, options, next_rule, deleted, to_code, group }] }"),
    },
    post: { summary: "Invoice admins: a new rule; 201 { message: 'New allocation rule saved successfully', allocation_rule }", requestBody: rule, responses: { "201": { description: "Created" }, ...errorResponses } },
  },
  "/api/allocation_rules/{id}": {
    put: { summary: "Invoice admins: change a rule; { message: 'Allocation rules saved successfully', allocation_rule }", parameters: [idParam("id")], requestBody: rule, responses: ok("{ message, allocation_rule }") },
    delete: { summary: "Invoice admins: soft delete (deleted flag); the rule leading to it leads to its next", parameters: [idParam("id")], responses: ok("{ message }") },
  },
  "/api/allocation_rules/test": {
    post: {
      summary: "Finance users: what the rules would allocate a line to, written nowhere: { invoice_detail_id, rule_id? } (rule_id: that group only); 422 with the first failing rule's reason",
      responses: ok("{ allocation, message: 'Allocation rule allocated: {allocation}' }"),
    },
  },
  "/api/allocation_rules/sapphire_mapping_import": {
    post: {
      summary: "Invoice admins: Mapping rules from a csv (columns carrier_code, customer_code, allocation_model, field, text, to_code); taken whole or refused with every bad line (422)",
      requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } } } }, "text/csv": { schema: { type: "string" } } } },
      responses: ok("{ message: 'Imported mapping', created, updated }"),
    },
  },
  "/api/allocation_rules/sapphire_mapping_export": {
    get: {
      summary: "Finance users: the Mapping rules as csv (same columns as the import), formulas neutralised; carrier_code narrows it",
      parameters: [{ name: "carrier_code", in: "query", required: false, schema: { type: "string" } }],
      responses: { "200": { description: "text/csv", content: { "text/csv": {} } }, ...errorResponses },
    },
  },
  "/api/invoices/allocate": {
    put: {
      summary: "Invoice admins: allocate payable invoices' lines as a job ({ invoice_ids } and/or { invoice_detail_ids }); progress 'Allocated n of total lines'; lines allocated by hand are kept",
      responses: ok("{ job_id }"),
    },
  },
  "/api/invoices/reconcile": {
    put: {
      summary: "Invoice admins: reconcile payable invoices' allocated lines against their consignments' ratings as a job ({ invoice_ids } and/or { invoice_detail_ids }); progress 'Reconciled n of total lines'; lines already disputed or reconciled are kept",
      responses: ok("{ job_id }"),
    },
  },
};
