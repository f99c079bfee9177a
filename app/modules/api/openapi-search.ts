/** The consignment search calls of the OpenAPI document (issue 15 items 2 and 3); spread into openapi.ts's paths. */
import { ADVANCED_LIMIT, ADVANCED_SORTS, DESPATCH_TYPES, RANGE_TOO_WIDE, SEARCH_LIMIT, SEARCH_MAX, SEARCH_MIN } from "../search/search";
import { errorResponses } from "./openapi-parts";

const one = (description: string) => ({ description, content: { "application/json": {} } });
const text = (description: string) => ({ type: "string", maxLength: SEARCH_MAX, description });

const resultJson =
  "{ id, consignment_number (or Pending), reference, receiver_reference (the receiver address's code), receiver_address { name, address_line_1, locality, postcode, region, country } or null, state, carrier_name (or 'no carrier assigned'), despatch_date, total_quantity, service_name, service_rate, return_type, active, url (null for inactive ones) }";
const rowJson =
  "{ id, consignment_number (or Pending), reference, custom_reference, state, carrier_name (or 'no carrier assigned'), despatch_date, estimated_delivery_date, total_quantity, service_name, service_rate, return_type, despatch_type, receiver_name, receiver_locality, receiver_postcode, site_code, active, url (null for inactive ones) }";

export const searchPaths = {
  "/api/consignments/search": {
    get: {
      summary: `The header search: at most ${SEARCH_LIMIT} consignments of the user's customer and sites (never quotes; inactive ones too, without url) whose consignment number, reference or receiver name (the sender's for returns) starts with the query, case aside; % and _ are literal. Number matches first, then reference, then name. A query under ${SEARCH_MIN} characters answers no consignments (200)`,
      parameters: [{ name: "query", in: "query", required: true, schema: { type: "string", maxLength: SEARCH_MAX } }],
      responses: { "200": one(`{ consignments: [${resultJson}] }`), ...errorResponses },
    },
  },
  "/api/consignments/advanced_search": {
    post: {
      summary: `Advanced search over the user's customer and sites (never quotes): at most ${ADVANCED_LIMIT} rows; meta.truncated says there were more. from_date and to_date are required and the range must be under 2 calendar months (to_date before the same day 2 months after from_date), else 422 '${RANGE_TOO_WIDE}'; a from_date after to_date is 422 too. Text criteria match anywhere in the field, case aside; postcode from its start. admin (super admins only, else 403): consignments with a change in their audit history by a staff user`,
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: {
                query: {
                  type: "object",
                  required: ["from_date", "to_date"],
                  properties: {
                    from_date: { type: "string", format: "date" },
                    to_date: { type: "string", format: "date" },
                    despatch_type: { type: "string", enum: DESPATCH_TYPES, default: "normal" },
                    active: { type: "boolean", default: true },
                    state: { type: "string", description: "a consignment state (not quote)" },
                    site: text("a site code of the user's"),
                    carrier: text("a carrier code"),
                    service: text("a service code"),
                    reference: text("part of the reference"),
                    custom_reference: text("part of the custom reference"),
                    receiver_name: text("part of the receiver's name (the sender's for returns: party_name, as the list shows it)"),
                    postcode: text("the start of the receiver's postcode"),
                    locality: text("part of the receiver's locality"),
                    consignment_number: text("part of the consignment number"),
                    admin: { type: "boolean", default: false, description: "super admins: changed by a staff user" },
                    sort: { type: "string", enum: Object.keys(ADVANCED_SORTS), default: "despatch_date" },
                    dir: { type: "string", enum: ["asc", "desc"], default: "desc" },
                  },
                },
              },
            },
          },
        },
      },
      responses: { "200": one(`{ consignments: [${rowJson}], meta: { query, limit, truncated } }`), ...errorResponses },
    },
  },
} as const;
