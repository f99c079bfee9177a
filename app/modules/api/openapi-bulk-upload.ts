/** Bulk upload and bulk redespatch in the OpenAPI document (issue 17 item 4); spread into openapi.ts's paths. */
import { errorResponses, ok } from "./openapi-parts";

const file = {
  required: true,
  content: {
    "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary", description: "a .csv file, 10 MB at most" }, type: { type: "string", enum: ["consignment", "quote"] } } } },
    "text/csv": { schema: { type: "string", description: "the file itself (type and filename in the query)" } },
  },
};
const type = { name: "type", in: "query", required: false, schema: { type: "string", enum: ["consignment", "quote"] }, description: "with a text/csv body" };

export const bulkUploadPaths = {
  "/api/bulk_upload_template": {
    get: { summary: "The bulk upload file's header and, for this user, an example consignment per kind of service their site offers (none, pickup time, deliver-by, delivery time), which uploads unchanged (can_bulkupload or can_bulkquote)", responses: { "200": { description: "text/csv", content: { "text/csv": {} } }, ...errorResponses } },
  },
  "/api/bulk_upload_mappings": {
    get: {
      summary: "The columns a bulk upload file may use (column, level, required, description, aliases); type=services: the site, carrier and service codes the user may name",
      parameters: [{ name: "type", in: "query", required: false, schema: { type: "string", enum: ["columns", "services"] } }],
      responses: ok("{ mappings: [{ column, level, required, description, aliases }] } or { services: [{ site_code, carrier_code, carrier_name, service_code, service_name, needs: [pickup_at | deliver_by | deliver_at] }] }"),
    },
  },
  "/api/bulk_upload/import": {
    post: {
      summary:
        "A consignment or quote file (can_bulkupload for consignments, can_bulkquote for quotes): a row with a site code starts a consignment, rows without one add items; despatch dates DD/MM/YYYY or DD-MM-YYYY. Runs as a job ('Processed n of total consignments'); its info: { total, created, consignment_ids, skipped: [{ line, errors }] (first 100), skipped_total }. The same file again answers the first upload's job (duplicate: true); the same consignment in another file is skipped. 422: not csv, missing or unknown columns; 413: over 10 MB",
      parameters: [type],
      requestBody: file,
      responses: ok("{ job_id, bulk_upload_id, duplicate }"),
    },
  },
  "/api/bulk_upload/redespatch": {
    post: {
      summary: "Admins, super admins and devs: a csv with a consignment_number column; each failed consignment is sent again with its manifest (one job); others are skipped with the reason",
      requestBody: file,
      responses: ok("{ job_id, redespatched, skipped: [{ line, errors }], skipped_total }"),
    },
  },
};
