/** Custom e-mails and declarations in the OpenAPI document (issue 16 item 8); spread into openapi.ts's paths. */
import { CUSTOM_EMAIL_KINDS, PART_MAX, SUBJECT_MAX } from "../custom-emails/custom-emails";
import { MAX_DECLARATION_BYTES, MESSAGES, NAME_MAX } from "../declarations/declarations";
import { errorResponses, idParam, ok } from "./openapi-parts";

const one = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = (description: string) => ({ description, content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } });
const staff = "Staff (team view)";
const kindParam = { name: "kind", in: "path", required: true, schema: { type: "string" }, description: `${CUSTOM_EMAIL_KINDS.join(" or ")}, or the id of the customer's custom e-mail` };
const customEmailJson = "{ id, customer_id, kind, customised, subject, header, body, footer, updated_at }";
const declarationJson = "{ id, customer_id, item_type_id, item_type_name, name, filename, content_type, size, created_by, created_by_name, created_at, file_url }";
const rich = (what: string) => ({ type: "string", maxLength: PART_MAX, description: `${what}: HTML, sanitised; the notification tags ({{ receiver_name }}...) may be used; blank: none` });
const multipart = (required: string[]) => ({
  required: true,
  content: {
    "multipart/form-data": {
      schema: {
        type: "object",
        required,
        properties: {
          name: { type: "string", maxLength: NAME_MAX },
          item_type_id: { type: "integer", description: "one of the customer's item types; blank: every item type" },
          file: { type: "string", format: "binary", description: `a PDF (starts with %PDF-), at most ${MAX_DECLARATION_BYTES} bytes: 413 past it, refused before the body is read` },
        },
      },
    },
  },
});

export const customEmailsDeclarationsPaths = {
  "/api/customers/{id}/custom_emails": {
    get: { summary: `${staff}: the customer's return e-mail and notification frame, customised or not`, parameters: [idParam("id")], responses: ok(`[${customEmailJson}]`) },
  },
  "/api/customers/{id}/custom_emails/{kind}": {
    get: { summary: `${staff}: one kind's wording (customised false: the default is used)`, parameters: [idParam("id"), kindParam], responses: ok(customEmailJson) },
    put: {
      summary: `${staff}: save the wording. The return e-mail keeps subject, header, body and footer; the notification frame header and footer (others are ignored). 422 per field for an unknown tag, a statement ({% include %}, {% for %}...), a filter not allowed or a template past its limits (docs/decisions/023); what is stored is what was checked`,
      parameters: [idParam("id"), kindParam],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: { subject: { type: "string", maxLength: SUBJECT_MAX, description: "plain text (no HTML); tags may be used, stored as checked" }, header: rich("above"), body: rich("the return e-mail's text"), footer: rich("below") },
            },
          },
        },
      },
      responses: ok(customEmailJson),
    },
    delete: { summary: `${staff}: reset to the default wording (deletes the customer's own)`, parameters: [idParam("id"), kindParam], responses: ok(customEmailJson) },
  },
  "/api/customers/{id}/declarations": {
    get: { summary: `${staff}: the customer's declarations by name`, parameters: [idParam("id")], responses: ok(`[${declarationJson}]`) },
    post: {
      summary: `${staff}: a new declaration (a PDF), printed after the dangerous goods document when the customer's print_declarations is on`,
      parameters: [idParam("id")],
      requestBody: multipart(["name", "file"]),
      responses: { "201": one(declarationJson), "413": notFound(MESSAGES.tooLarge), ...errorResponses },
    },
  },
  "/api/customers/{id}/declarations/{declarationId}": {
    get: { summary: `${staff}: one declaration (another customer's: 404)`, parameters: [idParam("id"), idParam("declarationId")], responses: { ...ok(declarationJson), "404": notFound(MESSAGES.notFound) } },
    put: {
      summary: `${staff}: change name and item type; a file replaces the PDF`,
      parameters: [idParam("id"), idParam("declarationId")],
      requestBody: multipart(["name"]),
      responses: { ...ok(declarationJson), "404": notFound(MESSAGES.notFound), "413": notFound(MESSAGES.tooLarge) },
    },
    delete: { summary: `${staff}: delete a declaration`, parameters: [idParam("id"), idParam("declarationId")], responses: { ...ok("{ id, deleted: true }"), "404": notFound(MESSAGES.notFound) } },
  },
  "/api/customers/{id}/declarations/{declarationId}/file": {
    get: {
      summary: `${staff}: the declaration's PDF, as an attachment (Content-Disposition)`,
      parameters: [idParam("id"), idParam("declarationId")],
      responses: { "200": { description: "the PDF", content: { "application/pdf": {} } }, ...errorResponses, "404": notFound(MESSAGES.notFound) },
    },
  },
} as const;
