/** The notification type calls of the OpenAPI document (issue 14 item 6); spread into openapi.ts's paths. */
import { FIELD_NAMES, MAX_LENGTH_LIMIT, MESSAGES, NAME_MAX } from "../notifications/types";
import { errorResponses, idParam } from "./openapi-parts";

const properties = {
  name: { type: "string", minLength: 1, maxLength: NAME_MAX, description: "unique, whatever its case" },
  max_length: { type: ["integer", "null"], minimum: 1, maximum: MAX_LENGTH_LIMIT, description: "the longest message of the type in characters (160 for an SMS); null or absent: no limit" },
  field_name: { type: "string", enum: FIELD_NAMES, description: "the receiver's field the message goes to" },
};

const typeJson = "{ id, name, max_length, field_name, used_by (how many notification preferences use it) }";
const one = (description: string) => ({ description, content: { "application/json": {} } });
const notFound = { ...errorResponses["401"], description: "No notification type with this id" };

export const notificationTypePaths = {
  "/api/notification_types": {
    get: {
      summary: "Super admin: every notification type, by name",
      responses: { "200": one(`{ notification_types: [${typeJson}] }`), ...errorResponses },
    },
    post: {
      summary: "Super admin: a new notification type. 422 per field (name, max_length, field_name), e.g. 'Name has already been taken'",
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["name", "field_name"], properties } } } },
      responses: { "201": one(typeJson), ...errorResponses },
    },
  },
  "/api/notification_types/{id}": {
    get: {
      summary: "Super admin: one notification type",
      parameters: [idParam("id")],
      responses: { "200": one(typeJson), ...errorResponses, "404": notFound },
    },
    put: {
      summary: "Super admin: change a notification type; the fields given replace its own, those left out keep theirs (max_length null: no limit). 422 per field",
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", properties } } } },
      responses: { "200": one(typeJson), ...errorResponses, "404": notFound },
    },
    delete: {
      summary: `Super admin: delete a notification type; 409 '${MESSAGES.inUse}' while notification preferences use it`,
      parameters: [idParam("id")],
      responses: { "200": one("{ id, deleted: true }"), ...errorResponses, "404": notFound, "409": { ...errorResponses["401"], description: "Used by notification preferences" } },
    },
  },
} as const;
