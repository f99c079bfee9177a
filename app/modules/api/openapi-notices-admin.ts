/** Notices administration and breadcrumbs in the OpenAPI document (issue 15 items 5 and 7); spread into openapi.ts's paths. */
import { CONTENT_MAX, HEADER_MAX, MESSAGES, NOTICE_TAGS } from "../notices/admin";
import { BREADCRUMB_MODELS } from "../shell/breadcrumbs.server";
import { errorResponses, idParam, ok } from "./openapi-parts";

const properties = {
  header: { type: "string", minLength: 1, maxLength: HEADER_MAX },
  customer_id: { type: "integer", description: "the customer whose users the notice is for" },
  publish_at: { type: "string", description: "the publish date, DD/MM/YYYY (or YYYY-MM-DD), from midnight in the writer's site zone; blank or absent: today" },
  content: { type: "string", maxLength: CONTENT_MAX, description: `HTML, sanitised before it is stored and again when shown; the tags ${NOTICE_TAGS.map((t) => `{{ ${t} }}`).join(", ")} are filled in for each reader` },
};

const noticeJson = "{ id, customer_id, customer_name, header, content, published, publish_at, publish_date }";
const one = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { ...errorResponses["401"], description: MESSAGES.notFound };
const staff = "Staff other than customer service";

export const noticesAdminPaths = {
  "/api/admin_notices": {
    get: {
      summary: `${staff}: every customer's notices, newest publish date first, 20 a page (GET /api/notices is the reader's own list)`,
      parameters: [
        { name: "customer_id", in: "query", schema: { type: "integer" } },
        { name: "page", in: "query", schema: { type: "integer", minimum: 1, default: 1 } },
      ],
      responses: { "200": one(`{ notices: [${noticeJson}], total, page, page_size }`), ...errorResponses },
    },
    post: {
      summary: `${staff}: a new, unpublished notice. 422 per field (header, content, customer_id, publish_at)`,
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["header", "customer_id", "content"], properties } } } },
      responses: { "201": one(noticeJson), ...errorResponses },
    },
  },
  "/api/admin_notices/{id}": {
    get: { summary: `${staff}: one notice`, parameters: [idParam("id")], responses: { "200": one(noticeJson), ...errorResponses, "404": notFound } },
    put: {
      summary: `${staff}: change a notice; the fields given replace its own. A published notice stays published and keeps its customer`,
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties } } } },
      responses: { "200": one(noticeJson), ...errorResponses, "404": notFound },
    },
    delete: { summary: `${staff}: delete a notice for everyone`, parameters: [idParam("id")], responses: { "200": one("{ id, deleted: true }"), ...errorResponses, "404": notFound } },
  },
  "/api/unpublished_notices": {
    get: { summary: `${staff}: every customer's notices not yet published`, responses: ok(`{ notices: [${noticeJson}] }`) },
  },
  "/api/breadcrumbs": {
    get: {
      summary: "The trail of links to a record of a screen under a customer or carrier; 404 for an id that is not there (or, for a despatcher, not theirs)",
      parameters: [
        { name: "model", in: "query", required: true, schema: { type: "string", enum: Object.keys(BREADCRUMB_MODELS) } },
        { name: "id", in: "query", schema: { type: "integer" }, description: "the record; absent: the model's list under its parent" },
        { name: "parent", in: "query", schema: { type: "string", enum: Object.keys(BREADCRUMB_MODELS) } },
        { name: "parent_id", in: "query", schema: { type: "integer" } },
      ],
      responses: ok("{ breadcrumbs: [{ label, url }] }"),
    },
  },
} as const;
