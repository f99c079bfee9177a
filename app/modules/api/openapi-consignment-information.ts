/** The consignment information calls of the OpenAPI document (issue 15 item 6); spread into openapi.ts's paths. */
import { DOCUMENT_TYPES, EDITABLE_FIELDS, MESSAGES, QA_FIELDS } from "../consignments/information";
import { errorResponses } from "./openapi-parts";

const idQuery = { name: "id", in: "query", required: true, schema: { type: "integer", minimum: 1 }, description: "the consignment's id" };
const one = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { ...errorResponses["401"], description: "No consignment with this id for the customer the user works in" };
const change = "{ version, field, from, to, by, at }";

export const consignmentInformationPaths = {
  "/api/consignment_information": {
    get: {
      summary:
        "Admin, super admin, devs: the consignment information view's field/value table { id, version, fields: [{ field, value }], values, site: { id, code, name, customer_id, href }, documents: [{ type, name, href }], can_edit, editable_fields, states, time_zone, country }",
      parameters: [idQuery],
      responses: { "200": one("The consignment information"), ...errorResponses, "404": notFound },
    },
  },
  "/api/consignment_changes": {
    get: {
      summary: `Admin, super admin, devs: the change history of the consignment's own fields, newest first: { changes: [${change}] }`,
      parameters: [idQuery],
      responses: { "200": one("{ changes }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/item_changes": {
    get: {
      summary: `Admin, super admin, devs: the item audit history, newest first: { changes: [${change.replace(" }", ", item_id }")}] }`,
      parameters: [idQuery],
      responses: { "200": one("{ changes }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/retrieve_file": {
    get: {
      summary: `Admin, super admin, devs: a document printed for the consignment as PDF (?format=html previews). 404 when it does not apply: labels once printed, connote when the carrier wants one, dangerous_goods when hazardous, manifest once manifested. Super admins edit with PUT /api/consignments/{id} { superadmin: true, version, ${EDITABLE_FIELDS.join(", ")} } (${QA_FIELDS.join(", ")} in qa or uat only; a second save within 5 s: 409 '${MESSAGES.blocked}')`,
      parameters: [idQuery, { name: "type", in: "query", required: true, schema: { type: "string", enum: DOCUMENT_TYPES } }],
      responses: { "200": { description: "The document", content: { "application/pdf": {} } }, ...errorResponses, "404": { ...notFound, description: "No such consignment, or the document does not apply" } },
    },
  },
} as const;
