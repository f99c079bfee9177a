/** The carriers, services and carrier account validations calls (issue 17 items 1 to 3); spread into openapi.ts's paths. */
import { ADAPTER_KINDS, CARRIER_FLAGS, CARRIER_MESSAGES, SERVICE_FLAGS, SERVICE_TYPES, VALIDATION_FIELDS, VALIDATION_MODIFIERS, VALIDATION_RULES } from "../carriers/admin";
import { TRANSPORT_MODES } from "../../../db/schema/carriers";
import { errorResponses, idParam } from "./openapi-parts";

const bool = { type: "boolean" };
const text = { type: ["string", "null"] };
const carrierProps = {
  name: { type: "string", minLength: 1, maxLength: 100 },
  code: { type: "string", description: "the rates service key (also accepted as rates_service_key); unique whatever its case" },
  web_url: text,
  default_email: text,
  note: text,
  adapter: { type: "string", enum: ADAPTER_KINDS },
  ...Object.fromEntries(CARRIER_FLAGS.map((f) => [f, bool])),
};
const serviceProps = {
  code: { type: "string", description: "unique within the carrier" },
  name: { type: "string" },
  type: { type: "string", enum: SERVICE_TYPES },
  transport_mode: { type: "string", enum: TRANSPORT_MODES, default: "road", description: "how its freight travels: the mode of its consignments' emission factor" },
  group: text,
  support_email: text,
  route_code: text,
  service_name_by_carrier: text,
  service_code_by_carrier: text,
  ...Object.fromEntries(SERVICE_FLAGS.map((f) => [f, bool])),
};
const validationProps = {
  field: { type: "string", enum: VALIDATION_FIELDS },
  rule: { type: "string", enum: VALIDATION_RULES },
  modifier: { type: "string", enum: VALIDATION_MODIFIERS },
  validation: { type: "string", description: "case sensitive; comma separated values for modifier 'in'; whole numbers for rule 'length'" },
  message: { type: "string", description: "shown on the account's field when a save fails the rule" },
};
const bad = { "400": { ...errorResponses["422"], description: "Invalid input, per field (the screens show these)" } };
const one = (description: string) => ({ description, content: { "application/json": {} } });
const json = (properties: object, required: string[] = []) => ({ required: true, content: { "application/json": { schema: { type: "object", required, properties } } } });
const conflict = (description: string) => ({ "409": { ...errorResponses["401"], description } });
const missing = (what: string) => ({ "404": { ...errorResponses["401"], description: `No ${what} with this id` } });
const carrierJson = "{ id, name, code, rates_service_key, web_url, default_email, note, adapter, flags..., services_count, accounts_count, consignments_count, services_pay_on_arrival }";
const serviceJson = "{ id, carrier_id, carrier_code, code, name, type, transport_mode, group, ..., flags }";
const validationJson = "{ id, carrier_id, carrier_code, field, rule, modifier, validation, message }";

export const carriersAdminPaths = {
  "/api/carriers": {
    get: { summary: "Staff: carriers by name ?filter (name or code)", responses: { "200": one(`{ carriers: [${carrierJson}] }`), ...errorResponses } },
    post: { summary: `Staff: a new carrier. generic and app_carrier are mutually exclusive ('${CARRIER_MESSAGES.exclusive}')`, requestBody: json(carrierProps, ["name", "code"]), responses: { "201": one(carrierJson), ...errorResponses, ...bad } },
  },
  "/api/carriers/{id}": {
    get: { summary: "Staff: one carrier", parameters: [idParam("id")], responses: { "200": one(carrierJson), ...errorResponses, ...missing("carrier") } },
    put: { summary: "Staff: change a carrier; fields left out keep theirs; a new code is renamed everywhere in one transaction", parameters: [idParam("id")], requestBody: json(carrierProps), responses: { "200": one(carrierJson), ...errorResponses, ...bad, ...missing("carrier") } },
    delete: { summary: "Staff: delete a carrier with its services, zones, lanes and levies; 409 while carrier accounts or consignments use it", parameters: [idParam("id")], responses: { "200": one("{ id, deleted: true }"), ...errorResponses, ...missing("carrier"), ...conflict("Used by accounts or consignments") } },
  },
  "/api/carriers/{id}/update_services": {
    put: { summary: "Staff: every service of the carrier 'No Rates Provided' (pay_on_arrival true) or none", parameters: [idParam("id")], requestBody: json({ pay_on_arrival: bool }, ["pay_on_arrival"]), responses: { "200": one(carrierJson), ...errorResponses, ...bad, ...missing("carrier") } },
  },
  "/api/carriers/{id}/services": {
    get: { summary: "Staff: the carrier's services by code ?filter", parameters: [idParam("id")], responses: { "200": one(`{ services: [${serviceJson}] }`), ...errorResponses, ...missing("carrier") } },
    post: { summary: "Staff: a new service of the carrier", parameters: [idParam("id")], requestBody: json(serviceProps, ["code", "name"]), responses: { "201": one(serviceJson), ...errorResponses, ...bad, ...missing("carrier") } },
  },
  "/api/carriers/{id}/services/{serviceId}": {
    get: { summary: "Staff: one service of the carrier (another carrier's: 404)", parameters: [idParam("id"), idParam("serviceId")], responses: { "200": one(serviceJson), ...errorResponses, ...missing("service of this carrier") } },
    put: { summary: "Staff: change a service; a new code is renamed everywhere in one transaction", parameters: [idParam("id"), idParam("serviceId")], requestBody: json(serviceProps), responses: { "200": one(serviceJson), ...errorResponses, ...bad, ...missing("service of this carrier") } },
    delete: { summary: "Staff: delete a service; 409 while consignments or carrier accounts use it", parameters: [idParam("id"), idParam("serviceId")], responses: { "200": one("{ id, deleted: true }"), ...errorResponses, ...missing("service of this carrier"), ...conflict("In use") } },
  },
  "/api/carrier_account_validations": {
    get: { summary: "Staff: a carrier's account validations ?carrier_id", responses: { "200": one(`{ carrier_account_validations: [${validationJson}] }`), ...errorResponses, ...bad } },
    post: { summary: "Staff: a new validation, enforced on every account save of the carrier", requestBody: json({ carrier_id: { type: "integer" }, ...validationProps }, ["carrier_id", "field", "rule", "modifier", "validation", "message"]), responses: { "201": one(validationJson), ...errorResponses, ...bad } },
  },
  "/api/carrier_account_validations/{id}": {
    get: { summary: "Staff: one validation", parameters: [idParam("id")], responses: { "200": one(validationJson), ...errorResponses, ...missing("validation") } },
    put: { summary: "Staff: change a validation; fields left out keep theirs", parameters: [idParam("id")], requestBody: json(validationProps), responses: { "200": one(validationJson), ...errorResponses, ...bad, ...missing("validation") } },
    delete: { summary: "Staff: delete a validation", parameters: [idParam("id")], responses: { "200": one("{ id, deleted: true }"), ...errorResponses, ...missing("validation") } },
  },
  "/api/update_accounts_carrier_and_service_code": {
    put: {
      summary: "Staff: rename a carrier's code and/or one of its services' codes everywhere they are used, in one transaction (also answers with the spec's trailing slash). A taken code: 400 on its field",
      requestBody: json({ carrier_code: { type: "string" }, new_carrier_code: { type: "string" }, service_code: { type: "string" }, new_service_code: { type: "string" } }, ["carrier_code"]),
      responses: { "200": one("{ carrier_id, carrier_code, service_id?, service_code? }"), ...errorResponses, ...bad, "404": { ...errorResponses["401"], description: "No carrier or service with this code" } },
    },
  },
} as const;
