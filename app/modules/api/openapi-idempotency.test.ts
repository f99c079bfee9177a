import { describe, expect, it } from "vitest";
import { KEY_IN_FLIGHT, KEY_REUSED } from "../idempotency/key";
import { openApiDocument } from "./openapi";

type Operation = { parameters?: Array<{ $ref?: string }>; responses: Record<string, { $ref?: string; description?: string }> };
const paths = openApiDocument.paths as unknown as Record<string, Record<string, Operation>>;
const posts = Object.entries(paths).filter(([path, ops]) => path.startsWith("/api/") && ops.post);
const KEY_PARAMETER = "#/components/parameters/IdempotencyKey";

describe("Idempotency-Key in the OpenAPI document", () => {
  it("is one shared header parameter, with its 409 and 422 answers", () => {
    const components = openApiDocument.components as unknown as Record<string, Record<string, Record<string, unknown>>>;
    expect(components.parameters!.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header", required: false });
    expect(components.responses!.IdempotencyKeyInFlight!.description).toContain(KEY_IN_FLIGHT);
    expect(components.responses!.IdempotencyKeyReused!.description).toContain(KEY_REUSED);
  });

  it("is on every /api POST a user makes, answering 409 in flight and 422 for another request (added to a 422 or 409 the call already has)", () => {
    expect(posts.length).toBeGreaterThan(50);
    const missing = posts
      .filter(([path]) => path !== "/api/store/{external_id}/rates")
      .filter(([, { post }]) => {
        const { parameters = [], responses } = post!;
        const says = (status: string, message: string) => responses[status]?.$ref || responses[status]?.description?.includes(message);
        return !parameters.some((p) => p.$ref === KEY_PARAMETER) || !says("409", KEY_IN_FLIGHT) || !says("422", KEY_REUSED);
      })
      .map(([path]) => path);
    expect(missing).toEqual([]);
    // the consignment create keeps its own answers beside the key's
    const create = paths["/api/consignments"]!.post!;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(["201", "401", "409", "422"]));
    expect(create.responses["422"]!.description).toContain("Invalid input, per field");
    expect(create.responses["422"]!.description).toContain(KEY_REUSED);
  });

  it("is not on GET, PUT or DELETE, nor on the store's rates call (an API key, not a user)", () => {
    for (const ops of Object.values(paths)) {
      for (const method of ["get", "put", "delete"]) expect(JSON.stringify(ops[method]?.parameters ?? [])).not.toContain(KEY_PARAMETER);
    }
    expect(JSON.stringify(paths["/api/store/{external_id}/rates"]!.post!.parameters ?? [])).not.toContain(KEY_PARAMETER);
  });
});
