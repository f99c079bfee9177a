/**
 * The track and trace calls of the OpenAPI document (issue 14), kept apart so openapi.ts stays
 * short; spread into its paths.
 */
import { TRACKING_EVENTS } from "../tracking/states";
import { MAX_EVENTS_PER_POST } from "../tracking/schema";
import { OUTCOMES } from "../tracking/rules";
import { errorResponses, idParam } from "./openapi-parts";

const postedEvent = {
  type: "object",
  required: ["consignment_number", "event", "event_time"],
  properties: {
    consignment_number: { type: "string", maxLength: 50 },
    event: { type: "string", enum: TRACKING_EVENTS },
    event_time: { type: "string", format: "date-time", description: "ISO 8601 with its offset; its date is the event_date (where it happened)" },
    message: { type: ["string", "null"], maxLength: 1000 },
    carrier_event: { type: ["string", "null"], maxLength: 100, description: "the carrier's own code; with event_time, what makes an event unique (the event's name when absent)" },
    latitude: { type: ["number", "null"], minimum: -90, maximum: 90 },
    longitude: { type: ["number", "null"], minimum: -180, maximum: 180 },
    pod_url: { type: ["string", "null"], format: "uri" },
    images: { type: "array", items: { type: "string", format: "uri" }, maxItems: 10 },
  },
};

const notOffered = { ...errorResponses["401"], description: "No public link for this consignment yet: it is open, a quote, deleted or merged" };

export const trackingPaths = {
  "/api/tracking_events": {
    post: {
      summary: `Carriers' tracking events by consignment number, at most ${MAX_EVENTS_PER_POST} a post; staff (any customer) or a user with can_post_tracking_events (their customer's consignments; others' answer unknown_consignment). Each event's outcome: ${OUTCOMES.join(", ")}. A duplicate (same consignment, carrier_event and event_time) is ignored; an event never moves a consignment backwards`,
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["events"], properties: { events: { type: "array", items: postedEvent, minItems: 1, maxItems: MAX_EVENTS_PER_POST } } } } } },
      responses: {
        "200": {
          description: "{ results: [{ index, consignment_number, event, event_time, outcome, message, state? }], counts: { outcome: n } }",
          content: { "application/json": {} },
        },
        ...errorResponses,
      },
    },
  },
  "/api/replay_tracking_events_by_consignment_numbers": {
    post: {
      summary:
        "Admin or super admin: replay tracking in a job: { consignmentNumbers: [..] or 'n1, n2' } or { carrier (code), fromDate, toDate (despatch dates, YYYY-MM-DD, at most 2 months apart) }. Asks the carriers again for every event and records what was missed; duplicates are ignored and nothing moves backwards, so a replay is idempotent. 422 'No consignment found' when none matches",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              oneOf: [
                { type: "object", required: ["consignmentNumbers"], properties: { consignmentNumbers: { oneOf: [{ type: "array", items: { type: "string" } }, { type: "string" }] } } },
                { type: "object", required: ["carrier", "fromDate", "toDate"], properties: { carrier: { type: "string" }, fromDate: { type: "string", format: "date" }, toDate: { type: "string", format: "date" } } },
              ],
            },
          },
        },
      },
      responses: { "200": { description: "{ job_id, consignments, not_found }; GET /api/job_status/{job_id} reports progress", content: { "application/json": {} } }, ...errorResponses },
    },
  },
  "/api/track_trace/{id}": {
    get: {
      summary:
        "A consignment's tracking: { events: [{ id, event, carrier_event, event_time (UTC), event_date (where it happened), message, latitude, longitude, images, pod_url, source }] newest first, metadata: { consignment_id, site_id, consignment_number, consignment_state, is_quote, active, carrier_name, carrier_code, estimated_delivery_date, sender_address, receiver_address (each with latitude, longitude from the locality data), web_url (the carrier's tracking page), pod_url (the newest proof of delivery) } }; 404 for a consignment the user may not see",
      parameters: [idParam("id")],
      responses: { "200": { description: "{ events, metadata }", content: { "application/json": {} } }, ...errorResponses, "404": { ...errorResponses["401"], description: "No such consignment for this user" } },
    },
  },
  "/api/pod/{id}": {
    get: {
      summary: "A proof of delivery the product drew for a tracking event (the simulated carrier's; its pod_url), as SVG; 404 unless the event's consignment is one the user may see. A carrier's own POD is its pod_url",
      parameters: [idParam("id")],
      responses: { "200": { description: "The card", content: { "image/svg+xml": {} } }, ...errorResponses, "404": { description: "No such drawn POD for this user" } },
    },
  },
  "/api/external_tracking/{consignment_id}": {
    get: {
      summary: "{ url }: the carrier's own tracking page for the consignment (its web URL with the consignment number); 404 for a consignment the user may not see, or a carrier without a tracking website",
      parameters: [idParam("consignment_id")],
      responses: { "200": { description: "{ url }", content: { "application/json": {} } }, ...errorResponses, "404": { ...errorResponses["401"], description: "No such consignment for this user, or no carrier website" } },
    },
  },
  "/api/create_tracktrace_url/{id}": {
    get: {
      summary:
        "{ url }: the consignment's public tracking page (/track/{token}), which anyone with the link opens without signing in (state, estimated delivery date, events, proof of delivery; no prices, references or ids). Reading it changes nothing. 409 while the consignment is open, a quote, deleted or merged; 404 for one the user may not see",
      parameters: [idParam("id")],
      responses: { "200": { description: "{ url }", content: { "application/json": {} } }, ...errorResponses, "404": { ...errorResponses["401"], description: "No such consignment for this user" }, "409": notOffered },
    },
    post: {
      summary: "A new public link, { url }: whoever holds the old one gets 'not valid' from then on (revoking a link shared by mistake). 409 and 404 as GET",
      parameters: [idParam("id")],
      responses: { "200": { description: "{ url }", content: { "application/json": {} } }, ...errorResponses, "404": { ...errorResponses["401"], description: "No such consignment for this user" }, "409": notOffered },
    },
  },
} as const;
