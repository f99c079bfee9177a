/** The enquiry (ticket) calls of the OpenAPI document (issue 15 item 1); spread into openapi.ts's paths. */
import { LIMITS, MAX_LIMIT, MESSAGES, STATUSES } from "../enquiries/types";
import { errorResponses, idParam } from "./openapi-parts";

const one = (description: string) => ({ description, content: { "application/json": {} } });
const ticketJson =
  "{ id, full_name, email, phone, subject, support_request, category_id, description, comment (the latest), status, country, consignment_number, consignment_id, consignment_url, last_audit { id, author, comment, created_at }, customer_id, customer_name, created_at, updated_at }";
const commentJson = "{ id, author, comment, created_at }";
const notFound = { ...errorResponses["401"], description: "No enquiry of this id that the caller may see (another customer's answers 404 too)" };
const query = (name: string, description: string, schema: object = { type: "string" }) => ({ name, in: "query", required: false, description, schema });
const failed = { ...errorResponses["401"], description: `The e-mail could not be sent; nothing was stored: '${MESSAGES.failure} <support e-mail>'` };

export const enquiryPaths = {
  "/api/tickets.json": {
    get: {
      summary: "Enquiries the caller may see, newest first: the customer's (despatchers: of their sites' consignments, or of none); staff: every customer's",
      parameters: [
        query("consignment_id", "only this consignment's (404 for one the caller may not see)"),
        query("limit", `rows per page, 1 to ${MAX_LIMIT} (3 for the consignment screen's latest)`, { type: "integer", minimum: 1, maximum: MAX_LIMIT }),
        query("page", "from 1", { type: "integer", minimum: 1 }),
        query("status", "open, pending or solved", { type: "string", enum: STATUSES }),
        query("type", "an enquiry type's name (case aside)"),
      ],
      responses: { "200": one(`{ tickets: [${ticketJson}], total, page, per_page, filters }`), ...errorResponses },
    },
  },
  "/api/tickets": {
    post: {
      summary: `A new enquiry of the caller's customer, optionally about one of their despatched consignments. 422 per field: '${MESSAGES.emailRequired}', '${MESSAGES.emailInvalid}', "${MESSAGES.otherNeedsDescription}"; mailed to the support e-mail and the raiser`,
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["full_name", "email", "subject"],
              properties: {
                full_name: { type: "string", maxLength: LIMITS.name },
                email: { type: "string", maxLength: LIMITS.email },
                phone: { type: "string", maxLength: LIMITS.phone },
                subject: { type: "string", maxLength: LIMITS.subject },
                category_id: { type: "integer", description: "one of /api/tickets/categories.json" },
                support_request: { type: "string", description: "or the type's name" },
                description: { type: "string", maxLength: LIMITS.text, description: "the trail's first comment; required for the type 'other'" },
                consignment_id: { type: "integer", description: "a despatched consignment of the caller's" },
                country: { type: "string" },
              },
            },
          },
        },
      },
      responses: { "201": one(ticketJson), ...errorResponses, "404": { ...notFound, description: "No such consignment of the caller's" }, "409": failed },
    },
  },
  "/api/tickets/categories.json": {
    get: { summary: "The enquiry types of the caller's (working) customer, in order", responses: { "200": one("{ categories: [{ id, name, position }] }"), ...errorResponses } },
  },
  "/api/tickets/{id}": {
    get: { summary: "One enquiry", parameters: [idParam("id")], responses: { "200": one(ticketJson), ...errorResponses, "404": notFound } },
    put: {
      summary: "Customer service (and admins, super admins, devs): move an enquiry to open, pending or solved; the change is written to its trail",
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["status"], properties: { status: { type: "string", enum: STATUSES } } } } } },
      responses: { "200": one(ticketJson), ...errorResponses, "404": notFound },
    },
  },
  "/api/tickets/{id}/comments.json": {
    get: { summary: "The enquiry's trail, oldest first", parameters: [idParam("id")], responses: { "200": one(`{ comments: [${commentJson}] }`), ...errorResponses, "404": notFound } },
  },
  "/api/tickets/{id}/comment": {
    post: {
      summary: `Add a comment; 422 '${MESSAGES.commentRequired}'. Mailed to the support e-mail and, when someone other than the raiser writes, to the raiser`,
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["comment"], properties: { comment: { type: "string", maxLength: LIMITS.text } } } } } },
      responses: { "201": one(commentJson), ...errorResponses, "404": notFound, "409": failed },
    },
  },
} as const;
