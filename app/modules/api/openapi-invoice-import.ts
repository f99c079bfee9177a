/**
 * Carrier invoice templates and invoice import in the OpenAPI document (issue 18 items 1 and 2).
 * A template's schema is made from the zod schemas the API checks with (issue 29 item 6), so the
 * document names every step type, action and cost category there is.
 */
import { z } from "zod";
import { OPTIONS_BY_TYPE, parserSchema } from "../invoices/templates/schema";
import { errorResponses, ok } from "./openapi-parts";

const jsonSchema = (schema: z.ZodType) => {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const invoiceTemplateSchemas = {
  CarrierInvoiceParser: {
    ...jsonSchema(parserSchema),
    description: "The formats the template reads (a file is read as its name's extension says); `format` alone is one format. Answered with both, `format` the first of `formats`. No sheets: every sheet.",
  },
  CarrierInvoiceStep: {
    description: "One step; MapFields exactly once, always last (sequence 999999). HeaderCells reads the block above the column header into columns of every line (place it before NameColumns); EditValues CALCULATE computes a column; MapFields costs of one category add up, each counting only where its `when` holds.",
    oneOf: Object.entries(OPTIONS_BY_TYPE).map(([type, options]) => ({
      type: "object",
      required: ["type", "options"],
      properties: { id: { type: "integer" }, type: { const: type }, sequence: { type: "integer" }, options: jsonSchema(options), _destroy: { type: "boolean" } },
    })),
  },
  CarrierInvoiceConfigInput: {
    type: "object",
    required: ["name", "carrier_id", "parser", "transformations"],
    properties: { name: { type: "string", maxLength: 100 }, carrier_id: { type: "integer" }, parser: ref("CarrierInvoiceParser"), transformations: { type: "array", maxItems: 100, items: ref("CarrierInvoiceStep") } },
  },
};

const templateBody = { requestBody: { required: true, content: { "application/json": { schema: ref("CarrierInvoiceConfigInput") } } } };

const id = { name: "id", in: "path", required: true, schema: { type: "integer" } };

export const invoiceImportPaths = {
  "/api/carrier_invoice_configs": {
    get: { summary: "Carrier invoice templates (finance users); filters name, carrier_id, format (a template reading that format among others is listed)", responses: ok("{ carrier_invoice_configs: [{ id, name, carrier_id, carrier_name, parser, steps }] }") },
    post: { summary: "A new template { name, carrier_id, parser { formats, sheets }, transformations [{ type, sequence, options, _destroy }] } (invoice admins); 422 'Carrier invoice import configuration failed to save.'", ...templateBody, responses: ok("the template") },
  },
  "/api/carrier_invoice_configs/{id}": {
    get: { summary: "One template with its steps (MapFields last, sequence 999999)", parameters: [id], responses: ok("the template") },
    put: { summary: "Replaces the template and its steps (invoice admins)", parameters: [id], ...templateBody, responses: ok("the template") },
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
      summary: "Multipart config_id and files[] (invoice admins, 10 MB): each file read as its name's format, one of the template's formats ('Invalid file format' otherwise); one job; each file in one transaction; a duplicate invoice number for the carrier is refused",
      responses: { ...ok("{ job_id }"), ...errorResponses },
    },
  },
  "/api/invoices/{id}/original_file": {
    get: { summary: "The file the invoice was imported from (finance users; a customer's users only for invoices holding their lines)", parameters: [id], responses: { "200": { description: "the file" }, ...errorResponses } },
  },
};
