/** Carrier invoice templates and invoice import in the OpenAPI document (issue 18 items 1 and 2). */
import { errorResponses, ok } from "./openapi-parts";

const id = { name: "id", in: "path", required: true, schema: { type: "integer" } };

export const invoiceImportPaths = {
  "/api/carrier_invoice_configs": {
    get: { summary: "Carrier invoice templates (finance users); filters name, carrier_id, format", responses: ok("{ carrier_invoice_configs: [{ id, name, carrier_id, carrier_name, parser, steps }] }") },
    post: { summary: "A new template { name, carrier_id, parser { format, sheets }, transformations [{ type, sequence, options, _destroy }] } (invoice admins); 422 'Carrier invoice import configuration failed to save.'", responses: ok("the template") },
  },
  "/api/carrier_invoice_configs/{id}": {
    get: { summary: "One template with its steps (MapFields last, sequence 999999)", parameters: [id], responses: ok("the template") },
    put: { summary: "Replaces the template and its steps (invoice admins)", parameters: [id], responses: ok("the template") },
    delete: { summary: "Deletes the template (invoice admins)", parameters: [id], responses: ok("{ deleted: true }") },
  },
  "/api/carrier_invoice_configs/test_run": {
    post: {
      summary: "Multipart id, row_numbers, transform_ids, file: the rows after each step, the mapped lines and the problems ('row n, step k ...'); 422 'Invalid file format', 'Failed to read in file.', 'No rows present in import results.'",
      responses: ok("{ steps: [{ step, name, transform_id, rows }], lines, total_lines, problems, error }"),
    },
  },
  "/api/invoices/import": {
    post: {
      summary: "Multipart config_id and files[] (invoice admins, 10 MB): one job; each file in one transaction; a duplicate invoice number for the carrier is refused",
      responses: { ...ok("{ job_id }"), ...errorResponses },
    },
  },
  "/api/invoices/{id}/original_file": {
    get: { summary: "The file the invoice was imported from (finance users; a customer's users only for invoices holding their lines)", parameters: [id], responses: { "200": { description: "the file" }, ...errorResponses } },
  },
};
