/** Pieces every part of the OpenAPI document uses. */
export const errorResponses = {
  "401": { description: "No session or token", content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } },
  "403": { description: "Not allowed, or password_reset_required", content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } },
  "422": { description: "Invalid input, per field", content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } },
};
export const ok = (description: string) => ({ "200": { description, content: { "application/json": {} } }, ...errorResponses });
export const idParam = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
