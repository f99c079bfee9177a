/**
 * Webhooks in the OpenAPI document (issue 34 item 1, docs/decisions/039): the endpoints' calls,
 * spread into openapi.ts's paths, and the top-level `webhooks` section: each event's payload.
 */
import { EVENT_DESCRIPTIONS, WEBHOOK_EVENTS } from "../webhooks/events";
import { MAX_ENDPOINTS, URL_MAX } from "../webhooks/schema";
import { errorResponses, idParam } from "./openapi-parts";

const who = "Staff for any customer (customer_id, else the customer they work in); a customer's admin (super despatcher) for their own customer; others 403. Another customer's endpoint is 404.";
const endpointJson = "{ id, customer_id, url, events, active, paused_reason, paused_at, created_at, updated_at }";
const json = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { ...errorResponses["401"], description: "No such endpoint of the caller's customers" };
const urlRule = `https only (http too, and local receivers, when the server runs with WEBHOOKS_ALLOW_LOCAL=1); not localhost nor a literal loopback, private (10/8, 172.16/12, 192.168/16, 100.64/10), link-local (169.254/16, metadata), unspecified or IPv6 equivalent (::1, fc00::/7, fe80::/10, ::ffff:mapped) address; at most ${URL_MAX} characters. At each delivery every address the name resolves to is checked again, and redirects are not followed.`;

const properties = {
  url: { type: "string", description: urlRule },
  events: { type: "array", items: { type: "string", enum: WEBHOOK_EVENTS }, minItems: 1 },
  active: { type: "boolean", description: "false pauses deliveries (they wait); true again clears a pause" },
};

export const webhookPaths = {
  "/api/webhooks": {
    get: {
      summary: `A customer's webhook endpoints. ${who}`,
      parameters: [{ name: "customer_id", in: "query", schema: { type: "integer" } }],
      responses: { "200": json(`{ customer: { id, name }, webhooks: [${endpointJson}] }`), ...errorResponses, "404": { description: "No such customer (or another's, for a customer's admin)" } },
    },
    post: {
      summary: `A new endpoint; its secret (whsec_ and base64) is answered this once. At most ${MAX_ENDPOINTS} a customer. ${who}`,
      requestBody: {
        required: true,
        content: { "application/json": { schema: { type: "object", additionalProperties: false, required: ["url", "events"], properties: { ...properties, customer_id: { type: "integer", description: "staff only" } } } } },
      },
      responses: { "201": json(`{ webhook: ${endpointJson}, secret }`), ...errorResponses, "404": { description: "No such customer" } },
    },
  },
  "/api/webhooks/{id}": {
    get: { summary: "One endpoint (never its secret)", parameters: [idParam("id")], responses: { "200": json(`{ webhook: ${endpointJson} }`), ...errorResponses, "404": notFound } },
    put: {
      summary: "Changes an endpoint; rotate_secret: true makes a new secret, answered this once",
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", additionalProperties: false, properties: { ...properties, rotate_secret: { type: "boolean" } } } } } },
      responses: { "200": json(`{ webhook: ${endpointJson}, secret? }`), ...errorResponses, "404": notFound },
    },
    delete: { summary: "Deletes an endpoint with its deliveries and their log", parameters: [idParam("id")], responses: { "200": json("{ message }"), ...errorResponses, "404": notFound } },
  },
  "/api/webhooks/{id}/deliveries": {
    get: {
      summary: "The endpoint's deliveries, newest first, 50 a page, each with its attempts (status, duration, error, the first KB of the answer)",
      parameters: [idParam("id"), { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } }],
      responses: {
        "200": json("{ deliveries: [{ id, endpoint_id, event_id, type, consignment_id, state (pending, sending, succeeded, failed), attempts_count, next_attempt_at, created_at, finished_at, payload, attempts: [{ status, duration_ms, error, response, at }] }], page, per_page, total }"),
        ...errorResponses,
        "404": notFound,
      },
    },
  },
  "/api/webhooks/deliveries/{id}/replay": {
    post: {
      summary: "Sends a delivery's event again: a new delivery of the same event (the same webhook-id), due now",
      parameters: [idParam("id")],
      responses: { "202": json("{ message, delivery }"), ...errorResponses, "404": { description: "No such delivery of the caller's customers" } },
    },
  },
};

const signatureHeaders = [
  { name: "webhook-id", in: "header", required: true, schema: { type: "string" }, description: "msg_ and the event's id: the same on every retry and replay, so a receiver may drop repeats" },
  { name: "webhook-timestamp", in: "header", required: true, schema: { type: "integer" }, description: "seconds since the epoch when this attempt was signed" },
  {
    name: "webhook-signature",
    in: "header",
    required: true,
    schema: { type: "string" },
    description: "v1, and the base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` keyed with the secret's part after whsec_, base64-decoded (Standard Webhooks)",
  },
];

/** The document's `webhooks` section: what each event sends to a receiver. */
export const webhookEvents = Object.fromEntries(
  WEBHOOK_EVENTS.map((type) => [
    type,
    {
      post: {
        summary: EVENT_DESCRIPTIONS[type],
        parameters: signatureHeaders,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                required: ["id", "type", "timestamp", "data"],
                properties: { id: { type: "string", description: "evt_ and the event's id" }, type: { const: type }, timestamp: { type: "string", format: "date-time" }, data: { type: "object" } },
              },
            },
          },
        },
        responses: {
          "2XX": { description: "Received. Anything else (or no answer within 10 s, or a redirect) is retried with exponential backoff for 24 hours, after which the endpoint is paused." },
        },
      },
    },
  ]),
);
