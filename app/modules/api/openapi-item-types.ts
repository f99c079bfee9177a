/** Item types of a customer in the OpenAPI document (issue 16 item 6); spread into openapi.ts's paths. */
import { CSV_COLUMNS, DESCRIPTION_MAX, ITEM_TYPE_NAMES, LABELS_MAX, MESSAGES, PALLET_VENDORS, SOMS } from "../item-types/item-types";
import { errorResponses, idParam } from "./openapi-parts";

const who = "Staff for any customer; the customer's own users for theirs (another customer's id: 404). Changes: staff and super despatchers";
const itemTypeJson =
  "{ id, customer_id, name, description, labels, pallet_vendor, som, site_id, site_name, length, width, height, weight, increments, has_dangerous_goods, preselected_dg_items, item_type_options: { manual_handling }, sequence }";
const one = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { ...errorResponses["401"], description: `${MESSAGES.notFound} (or the customer is not the caller's)` };
const customer = idParam("id");
const properties = {
  name: { type: "string", enum: ITEM_TYPE_NAMES, default: "Carton" },
  description: { type: "string", minLength: 1, maxLength: DESCRIPTION_MAX },
  som: { type: "string", enum: SOMS, default: "metric" },
  pallet_vendor: { type: "integer", enum: [0, 1, 2], default: 0, description: `${PALLET_VENDORS.map((p, i) => `${i} ${p}`).join(", ")}; reset to 0 unless the name contains "pallet"` },
  site_id: { type: ["integer", "null"], description: "one of the customer's sites" },
  length: { type: ["string", "number", "null"], description: "up to 4 digits, 2 decimals" },
  width: { type: ["string", "number", "null"], description: "up to 4 digits, 2 decimals" },
  height: { type: ["string", "number", "null"], description: "up to 4 digits, 2 decimals" },
  weight: { type: ["string", "number", "null"], description: "up to 5 digits, 3 decimals; rounded up to the increments" },
  increments: { type: ["string", "number"], default: "1.0", description: "above 0, optional decimal point" },
  labels: { type: "integer", minimum: 1, maximum: LABELS_MAX, default: 1 },
  has_dangerous_goods: { type: "boolean" },
  preselected_dg_items: { type: "array", items: { type: "object", description: "un_number, proper_shipping_name, hazard_class, packing_group, sub_hazard, technical_name, nos, weight_in_uom, som" } },
  manual_handling: { type: "boolean", description: "or item_type_options.manual_handling" },
};
const body = { required: true, content: { "application/json": { schema: { type: "object", properties } } } };
const list = { "200": one(`{ item_types: [${itemTypeJson}] } in sequence order`), ...errorResponses, "404": notFound };

export const itemTypePaths = {
  "/api/customers/{id}/item_types": {
    get: { summary: `The customer's item types in their order. ${who}`, parameters: [customer], responses: list },
    post: { summary: "A new item type at the end of the list; absent fields take the defaults (Carton, 1 label, Plain, metric). 422 per field", parameters: [customer], requestBody: body, responses: { "201": one(itemTypeJson), ...errorResponses, "404": notFound } },
  },
  "/api/customers/{id}/item_types/{itemTypeId}": {
    get: { summary: `One item type. ${who}`, parameters: [customer, idParam("itemTypeId")], responses: { "200": one(itemTypeJson), ...errorResponses, "404": notFound } },
    put: { summary: "Change an item type: the fields given replace its own", parameters: [customer, idParam("itemTypeId")], requestBody: body, responses: { "200": one(itemTypeJson), ...errorResponses, "404": notFound } },
    delete: { summary: "Delete an item type; consignment lines that used it keep their own description and sizes", parameters: [customer, idParam("itemTypeId")], responses: { "200": one("{ id, deleted: true }"), ...errorResponses, "404": notFound } },
  },
  "/api/customers/{id}/item_types/update_sequence_order": {
    post: {
      summary: "The new order: ids listed take places 1..n, the others follow in their order. 422 for an id not of this customer",
      parameters: [customer],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["ids"], properties: { ids: { type: "array", items: { type: "integer" } } } } } } },
      responses: list,
    },
  },
  "/api/customers/{id}/item_types/sort_alphabetically": { post: { summary: "Order by description, saved", parameters: [customer], responses: list } },
  "/api/customers/{id}/item_types/bulk_delete": {
    post: {
      summary: "Delete Selected: all of them or none (404 when one is not the customer's)",
      parameters: [customer],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["bulk_item_types"], properties: { bulk_item_types: { type: "array", items: { type: "integer" } } } } } } },
      responses: { "200": one("{ deleted: [id] }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/customers/{id}/item_types/import": {
    post: {
      summary: `CSV with the columns ${CSV_COLUMNS.join(", ")} (description and type mandatory; unknown columns ignored); each good row is added, each bad line reported`,
      parameters: [customer],
      requestBody: { required: true, content: { "text/csv": { schema: { type: "string", maxLength: 10 * 1024 * 1024 } }, "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } } } } } },
      responses: { "200": one("{ errors: [{ line, errors }], successes: [{ line, id, description, name }] }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/customers/{id}/item_types/export": {
    get: {
      summary: `The item types as CSV (${CSV_COLUMNS.join(", ")}), formulas neutralised; ?template=1: the Import Template (header and an example row)`,
      parameters: [customer, { name: "template", in: "query", schema: { type: "string" } }],
      responses: { "200": { description: "CSV", content: { "text/csv": {} } }, ...errorResponses, "404": notFound },
    },
  },
} as const;
