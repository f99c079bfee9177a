/** Recipients administration in the OpenAPI document (issue 16 item 5); spread into openapi.ts's paths. */
import {
  MAX_PAGE_SIZE,
  MAX_RECIPIENT_ROWS,
  MAX_RECIPIENTS_UNPACKED_BYTES,
  PAGE_SIZE,
  RECIPIENT_COLUMNS,
  REQUIRED_COLUMNS,
  UPLOAD_ERRORS_SHOWN,
} from "../recipients/limits";
import { MAX_UPLOAD_BYTES } from "../../utils/upload-limits";
import { errorResponses, idParam } from "./openapi-parts";

const addressJson =
  "{ id, name, code, address_line_1..4, sublocality, locality, region, postcode, country, phone, email, timezone, address_type, special_instructions, site_id, som }";
const one = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { ...errorResponses["401"], description: "Customer or recipient not found (another customer's id, for a despatcher)" };
const who = "Staff any customer's, a despatcher their own customer's";
const editors = "staff, users with can_edit_recipients, or every user of a customer with all_users_can_edit_recipients; others 403";
const customer = idParam("id");
const body = {
  required: true,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: ["name"],
        properties: Object.fromEntries(RECIPIENT_COLUMNS.map((c) => [c, { type: "string" }])),
      },
    },
  },
};
const MB = 1024 * 1024;

export const recipientsPaths = {
  "/api/customers/{id}/recipients": {
    get: {
      summary: `${who}: a page of the address book by name`,
      parameters: [
        customer,
        { name: "limit", in: "query", schema: { type: "integer", default: PAGE_SIZE, maximum: MAX_PAGE_SIZE } },
        { name: "offset", in: "query", schema: { type: "integer", default: 0 } },
        { name: "after", in: "query", description: "the `next` of the previous page: continues where it ended (instead of offset)", schema: { type: "string" } },
        { name: "q", in: "query", schema: { type: "string" }, description: "name prefix" },
      ],
      responses: { "200": one(`{ recipients: [${addressJson}], limit, offset, has_more, next }`), ...errorResponses, "404": notFound },
    },
    post: {
      summary: `A new recipient (${editors}); 422 per field, the locality must be a known place`,
      parameters: [customer],
      requestBody: body,
      responses: { "201": one(addressJson), ...errorResponses, "404": notFound },
    },
    delete: {
      summary: `Deletes the whole address book as a background job (${editors}); follow it with GET /api/job_status/{job_id}`,
      parameters: [customer],
      responses: { "202": one("{ job_id }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/customers/{id}/recipients/{recipientId}": {
    get: { summary: `${who}: one recipient`, parameters: [customer, idParam("recipientId")], responses: { "200": one(addressJson), ...errorResponses, "404": notFound } },
    put: { summary: `Edits a recipient (${editors})`, parameters: [customer, idParam("recipientId")], requestBody: body, responses: { "200": one(addressJson), ...errorResponses, "404": notFound } },
    delete: { summary: `Deletes a recipient (${editors})`, parameters: [customer, idParam("recipientId")], responses: { "200": one("{ id }"), ...errorResponses, "404": notFound } },
  },
  "/api/customers/{id}/recipients/import": {
    post: {
      summary:
        `Adds the lines of a csv or gz file (${editors}) by a background job: answers 202 { job_id }; GET /api/job_status/{job_id} gives its progress and, once complete, ` +
        `info { created, updated, skipped: [{ line, errors }], skipped_total, total, file_name }. Columns: ${RECIPIENT_COLUMNS.join(", ")}; required: ${REQUIRED_COLUMNS.join(", ")}. ` +
        `Files over ${MAX_UPLOAD_BYTES / MB} MB, gz unpacking to over ${MAX_RECIPIENTS_UNPACKED_BYTES / MB} MB, of another type, or with a wrong header are refused (422) before a job starts; ` +
        `a file of more than ${MAX_RECIPIENT_ROWS.toLocaleString("en-AU")} lines, or one that is not CSV further down, ends the job failed with nothing stored. ` +
        `A line with any error is skipped whole; the first ${UPLOAD_ERRORS_SHOWN} skipped lines are listed with their reasons`,
      parameters: [customer],
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": { schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary", description: "name ending .csv or .gz" } } } },
          "text/csv": { schema: { type: "string" } },
          "application/gzip": { schema: { type: "string", format: "binary" } },
        },
      },
      responses: { "202": one("{ job_id }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/customers/{id}/recipients/import_sites": {
    post: {
      summary: `Copies the customer's active sites as recipients, skipping those already there by name and code (${editors}); 422 unless the customer has global recipients`,
      parameters: [customer],
      responses: { "200": one("{ created }"), ...errorResponses, "404": notFound },
    },
  },
  "/api/export_recipients/{customerId}": {
    get: {
      summary: `${who}: the whole address book as CSV (the import's columns), formulas neutralised`,
      parameters: [idParam("customerId")],
      responses: { "200": { description: "text/csv", content: { "text/csv": {} } }, ...errorResponses, "404": notFound },
    },
  },
} as const;
