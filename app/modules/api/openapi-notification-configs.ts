/**
 * The notification preferences calls of the OpenAPI document (issue 14 item 6), kept apart so
 * openapi.ts stays short; spread into its paths.
 */
import { TEMPLATE_MAX_CHARS, TRIGGER_STATES } from "../notifications/configs";
import { IMAGE_TOO_LARGE, IMAGE_TYPES_ONLY } from "../../utils/upload-limits";
import { errorResponses, idParam } from "./openapi-parts";

const parentType = { name: "parentType", in: "path", required: true, schema: { type: "string", enum: ["customers", "sites", "accounts"] } };
const who = "Devs, super admins and admins (others 403); staff work on any customer.";
const config = "{ id, customer_id, parent_type (customer, site, account), parent_id, notification_type (its id), notification_type_name, consignment_state, status (true: sent), template, accounts_with_custom_templates (ids), updated_at }";
const template = { type: "string", maxLength: TEMPLATE_MAX_CHARS, description: "HTML with tags such as {{ receiver_name }} (spec 2 section 9); sanitised when saved; unknown tags, statements ({% if %}, {% include %}), filters not allowed and templates past their limits are refused (422 on template; docs/decisions/023)" };
const status = { type: ["boolean", "string"], description: "true (enabled, the default) or false (disabled: nothing is sent here, whatever the levels above say)" };
const selected = { type: "array", items: { type: "integer" }, description: "at a customer or site: the carrier accounts (with their own template for this type and state) the change applies to too; given while accounts have their own, it may not be empty" };

const body = (required: string[]) => ({
  required: true,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required,
        properties: { notification_type: { type: "integer", description: "a notification type's id" }, consignment_state: { type: "string", enum: TRIGGER_STATES }, status, template, selected_account_ids: selected },
      },
    },
  },
});

const notFound = (what: string) => ({ "404": { ...errorResponses["401"], description: `No such ${what}` } });

export const notificationConfigPaths = {
  "/api/{parentType}/{parentId}/notification_configs": {
    get: {
      summary: `A customer's, site's or carrier account's own notification templates: { notification_configs: [${config}] }, by type name and state. ${who}`,
      parameters: [parentType, idParam("parentId")],
      responses: { "200": { description: "{ notification_configs }", content: { "application/json": {} } }, ...errorResponses, ...notFound("customer, site or account") },
    },
    post: {
      summary: `A new template for the level, 201 with the config and applied_to_accounts; 409 when it has one for the type and state already. The most specific level's template applies (account, then site, then customer). ${who}`,
      parameters: [parentType, idParam("parentId")],
      requestBody: body(["notification_type", "consignment_state", "template"]),
      responses: { "201": { description: config, content: { "application/json": {} } }, ...errorResponses, ...notFound("customer, site or account"), "409": { ...errorResponses["422"], description: "The level has a template for this type and state" } },
    },
  },
  "/api/{parentType}/{parentId}/notification_configs/{id}": {
    get: {
      summary: `One of the level's own templates: ${config}; 404 for another level's`,
      parameters: [parentType, idParam("parentId"), idParam("id")],
      responses: { "200": { description: "The config", content: { "application/json": {} } }, ...errorResponses, ...notFound("config at this level") },
    },
    put: {
      summary: "Changes the template: the fields given replace its own, the rest stay; with selected_account_ids, those accounts' own templates take the change too. 422 for a type and state the level already has",
      parameters: [parentType, idParam("parentId"), idParam("id")],
      requestBody: body([]),
      responses: { "200": { description: `${config} with applied_to_accounts`, content: { "application/json": {} } }, ...errorResponses, ...notFound("config at this level") },
    },
    post: {
      summary: "As PUT",
      parameters: [parentType, idParam("parentId"), idParam("id")],
      requestBody: body([]),
      responses: { "200": { description: `${config} with applied_to_accounts`, content: { "application/json": {} } }, ...errorResponses, ...notFound("config at this level") },
    },
    delete: {
      summary: "Removes the level's own template: the level above applies again. { id, deleted: true }",
      parameters: [parentType, idParam("parentId"), idParam("id")],
      responses: { "200": { description: "{ id, deleted }", content: { "application/json": {} } }, ...errorResponses, ...notFound("config at this level") },
    },
  },
  "/api/customers/{id}/update_account_notifications": {
    put: {
      summary:
        "A customer's change applied to the chosen carrier accounts' own templates too. The accounts with templates of their own for the type and state are the server's to know; while there are any, selected_account_ids may not be empty (422 'Please choose which accounts to apply these changes to'), and may name only those. { updated: [account ids], notification_configs }",
      parameters: [idParam("id")],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["notification_type", "consignment_state", "template"],
              properties: {
                custom_accounts: { type: "array", items: { type: "integer" }, description: "the accounts with custom templates the caller was shown" },
                selected_account_ids: { type: "array", items: { type: "integer" } },
                notification_type: { type: "integer" },
                status,
                consignment_state: { type: "string", enum: TRIGGER_STATES },
                template,
              },
            },
          },
        },
      },
      responses: { "200": { description: "{ updated, notification_configs }", content: { "application/json": {} } }, ...errorResponses, ...notFound("customer") },
    },
  },
  "/api/notifications_media_upload": {
    post: {
      summary: `An image for notification templates (multipart/form-data, field file), for the working customer: 201 { id, url (absolute, APP_URL's or this request's origin), path, content_type, bytes }. '${IMAGE_TYPES_ONLY}' (422, by the bytes' signature); '${IMAGE_TOO_LARGE}' (413). ${who}`,
      requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object", required: ["file"], properties: { file: { type: "string", format: "binary" } } } } } },
      responses: { "201": { description: "{ id, url, path, content_type, bytes }", content: { "application/json": {} } }, ...errorResponses, "413": { ...errorResponses["422"], description: IMAGE_TOO_LARGE } },
    },
  },
  "/api/notifications_media/{id}": {
    get: {
      summary: "An uploaded template image, to anyone with its address (mail clients have no session): its own content type, X-Content-Type-Options nosniff, cached a year",
      security: [],
      parameters: [idParam("id")],
      responses: { "200": { description: "The image", content: { "image/png": {}, "image/jpeg": {}, "image/gif": {}, "image/webp": {} } }, "404": { description: "No such image" } },
    },
  },
} as const;
