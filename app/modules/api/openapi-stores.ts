/** The online store calls in the OpenAPI document (issue 17 item 6); spread into openapi.ts's paths. */
import { MAX_DIMENSION, MAX_WEIGHT } from "../rating/payload";
import { CHECKOUT_MESSAGES, RATES_TIME_BUDGET_MS } from "../stores/checkout";
import { CART_TYPES, PRODUCT_CSV_COLUMNS, RATE_PRESENTATIONS } from "../stores/stores";
import { errorResponses, idParam } from "./openapi-parts";

const json = (description: string) => ({ description, content: { "application/json": {} } });
const errors = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } });
const customer = idParam("id");
const storeJson = "{ id, customer_id, cart_type, rate_presentation, site_id, external_id, api_key_hint }";
const productJson = "{ id, sku, name, item_type_id, length, width, height, weight }";
const notFound = errors("No such customer, or no store yet");
const measure = (max: number) => ({ type: ["number", "null"], minimum: 0, maximum: max });
const jsonBody = (schema: Record<string, unknown>) => ({ required: true, content: { "application/json": { schema } } });

export const storePaths = {
  "/api/customers/{id}/store": {
    get: { summary: "The customer's store (staff), or { store: null }; the API key is never read back", parameters: [customer], responses: { "200": json(`{ store: ${storeJson} | null }`), ...errorResponses, "404": notFound } },
    put: {
      summary: "Set up or change the customer's store (one per customer). A new store, or generate_key: true, makes a new API key, answered once as api_key; only its SHA-256 is kept",
      parameters: [customer],
      requestBody: jsonBody({
        type: "object",
        required: ["cart_type", "site_id", "external_id"],
        properties: {
          cart_type: { type: "string", enum: CART_TYPES },
          rate_presentation: { type: "string", enum: RATE_PRESENTATIONS, default: "full_list" },
          site_id: { type: "integer", description: "one of the customer's active sites" },
          external_id: { type: "string", pattern: "^[A-Za-z0-9._-]+$", maxLength: 100, description: "unique across stores" },
          generate_key: { type: "boolean", default: false },
        },
      }),
      responses: { "200": json(`{ store: ${storeJson}, api_key? }`), ...errorResponses, "404": notFound },
    },
  },
  "/api/customers/{id}/store/products": {
    get: { summary: "The store's products by SKU and the customer's item types", parameters: [customer], responses: { "200": json(`{ store, products: [${productJson}], itemTypes }`), ...errorResponses, "404": notFound } },
    post: {
      summary: "Save products' item type and measures (the name is read only); all or none",
      parameters: [customer],
      requestBody: jsonBody({
        type: "object",
        required: ["products"],
        properties: {
          products: {
            type: "array",
            items: {
              type: "object",
              required: ["id"],
              properties: { id: { type: "integer" }, item_type_id: { type: ["integer", "null"] }, length: measure(MAX_DIMENSION), width: measure(MAX_DIMENSION), height: measure(MAX_DIMENSION), weight: measure(MAX_WEIGHT) },
            },
          },
        },
      }),
      responses: { "200": json(`{ products: [${productJson}] }`), ...errorResponses, "404": errors("No store, or a product not of this store") },
    },
  },
  "/api/customers/{id}/store/products/import": {
    post: {
      summary: `Import products from CSV (multipart file or text/csv body, 10 MB): columns ${PRODUCT_CSV_COLUMNS.join(", ")}; updates by SKU (case aside); every skipped line with its reasons (first 100)`,
      parameters: [customer],
      responses: { "200": json("{ created, updated, skipped: [{ line, errors }], skipped_total }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/store/{external_id}/rates": {
    post: {
      summary: `Checkout rates in Shopify's carrier service callback shape, authenticated by the store's API key (Bearer). Full list or the cheapest of each service group. Time budget ${RATES_TIME_BUDGET_MS} ms, then 503`,
      security: [{ storeKey: [] }],
      parameters: [idParam("external_id")],
      requestBody: jsonBody({ type: "object", required: ["rate"], description: "{ rate: { origin, destination: { country, postal_code, province, city, ... }, items: [{ sku, quantity, grams, requires_shipping, ... }], currency, locale } }" }),
      responses: {
        "200": json("{ rates: [{ service_name, service_code, total_price (cents, string), description, currency, min_delivery_date, max_delivery_date }] }"),
        "400": errors("Not JSON"),
        "401": errors(`${CHECKOUT_MESSAGES.wrongKey} Also for an external id no store has, so the answer never tells which exist`),
        "422": errors("Unknown SKUs (errors.items), an unknown postcode or country (errors.destination), an invalid cart"),
        "503": errors(CHECKOUT_MESSAGES.tooSlow),
      },
    },
  },
};
