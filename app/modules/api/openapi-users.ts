/** Users administration in the OpenAPI document (issue 16 item 4); spread into openapi.ts's paths. */
import { FLAGS, MESSAGES, MORE_FLAGS, ROLES } from "../users/admin";
import { errorResponses, idParam, ok } from "./openapi-parts";

const flags = Object.fromEntries([...FLAGS, ...MORE_FLAGS, "disabled"].map((f) => [f, { type: "boolean" }]));
const properties = {
  email: { type: "string", format: "email", description: "unique, case-insensitively" },
  full_name: { type: "string" },
  phone_number: { type: "string" },
  zendesk_id: { type: "string" },
  role: { type: "string", enum: [...ROLES], default: "despatcher", description: "only super admins may give super_admin or devs; GET /api/roles lists the caller's" },
  site_ids: { type: "array", items: { type: "integer" }, description: "despatchers only; another role clears them" },
  site_id: { type: "integer", description: "the default site, one of site_ids" },
  timezone: { type: ["string", "null"], description: "the user's own IANA time zone (e.g. Australia/Melbourne); null or blank inherits the default site's, then the customer's country's, then Australia/Melbourne" },
  date_format: { type: ["string", "null"], enum: ["DD/MM/YYYY", "MM/DD/YYYY", null], description: "the user's own date format; null or blank inherits like timezone" },
  password: { type: "string", description: "required for a new user, blank keeps; 10+ characters, a lower and an upper case letter, 2 digits" },
  password_confirmation: { type: "string" },
  authentication_token: { type: "string", description: "super admins only (others: 403)" },
  ...flags,
};
const userJson =
  "{ id, customer_id, email, full_name, phone_number, role, site_ids, site_id, zendesk_id, timezone, date_format, uuid, authentication_token (super admins only), locked_at, disabled, password_reset_required, can_bulkupload, can_bulkquote, can_book, can_export, can_reconcile, can_edit_recipients, super_despatcher, despatcher_only, user_options, last_sign_in_at }";
const one = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { ...errorResponses["401"], description: `${MESSAGES.notFound} (or a user of another customer)` };
const staff = "Staff (devs, super admin, admin, customer service)";
const customer = idParam("id");

export const usersPaths = {
  "/api/customers/{id}/users": {
    get: {
      summary: `${staff}: the customer's users, live and disabled, by name`,
      parameters: [customer, { name: "q", in: "query", schema: { type: "string" }, description: "part of the name or e-mail" }],
      responses: { ...ok(`{ users: [${userJson}] }`), "404": notFound },
    },
    post: {
      summary: `${staff}: a new user of the customer. 422 per field`,
      parameters: [customer],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["email", "full_name", "password", "password_confirmation"], properties } } } },
      responses: { "201": one(userJson), ...errorResponses, "404": notFound },
    },
  },
  "/api/customers/{id}/users/{userId}": {
    get: { summary: `${staff}: one user`, parameters: [customer, idParam("userId")], responses: { ...ok(userJson), "404": notFound } },
    put: {
      summary: `${staff}: change a user; the fields given replace theirs. disabled: true ends the user's sessions at once`,
      parameters: [customer, idParam("userId")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties } } } },
      responses: { ...ok(userJson), "404": notFound },
    },
  },
  "/api/customers/{id}/users/create_bulk": {
    post: {
      summary: `${staff}: users from a csv or gz file (multipart field file; 10 MB, 20 MB inflated, 2000 rows). Columns email, full_name, phone_number, role, site_codes (; separated), default_site_code, ${FLAGS.join(", ")}, password (blank: generated, password_reset_required). Each bad row is skipped`,
      parameters: [customer],
      requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary" } } } } } },
      responses: { ...ok("{ created, updated: 0, skipped: [{ line, errors }] (first 100), skipped_total }"), "404": notFound },
    },
  },
  "/api/generate_password": { get: { summary: `${staff}: a random password that satisfies the password rule`, responses: ok("{ password }") } },
  "/api/generate_authentication_token": { get: { summary: "Super admins: a random authentication token to save on a user", responses: ok("{ authentication_token }") } },
  "/api/roles": { get: { summary: `${staff}: the roles the caller may give a user`, responses: ok("{ roles }") } },
} as const;
