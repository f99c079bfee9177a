import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";

const routes = path.resolve(import.meta.dirname, "../../routes");

/** app/routes/api+/users.switch_customer.$id.ts -> /api/users/switch_customer/{id} (every param as {id}-style) */
function pathOf(folder: "api" | "users", file: string): string {
  const segments = file
    .replace(/\.tsx?$/, "")
    .replace("[.]", "~DOT~")
    .split(".")
    // a bracketed segment is literal text (allocation_rules.[test].ts: ".test." would mark a test file)
    .map((s) => s.replace("~DOT~", ".").replace(/^\[(.+)\]$/, "$1").replace(/^\$(.+)$/, "{$1}"))
    // an index route (customers._index.ts) answers at its folder's path
    .filter((s) => s !== "_index");
  return `/${folder}/${segments.join("/")}`;
}

const routeFiles = (folder: "api" | "users") =>
  readdirSync(path.join(routes, `${folder}+`))
    .filter((f) => !f.startsWith("$.") && !f.includes(".test."))
    .map((f) => pathOf(folder, f));

describe("the OpenAPI document", () => {
  it("documents every /api and /users call there is, and none that is not", () => {
    // parameter names differ between files and documents only in spelling, so compare shapes
    const shape = (p: string) => p.replace(/\{[^}]+\}/g, "{}");
    const documented = Object.keys(openApiDocument.paths).map(shape).sort();
    expect(documented).toEqual([...routeFiles("api"), ...routeFiles("users")].map(shape).sort());
  });
});

describe("the carrier invoice template schema", () => {
  it("is made from the schemas the API checks with: every step type, the new actions, formats and categories", () => {
    const schemas = openApiDocument.components.schemas;
    const steps = schemas.CarrierInvoiceStep.oneOf;
    expect(steps.map((s) => s.properties.type.const).sort()).toEqual(["DeleteRows", "EditValues", "GroupBy", "HeaderCells", "JoinRows", "MapFields", "NameColumns"]);
    const text = JSON.stringify(schemas);
    for (const word of ["CALCULATE", "header_row", "tail_lift_surcharge", "security_surcharge", "MATCHES", "formats"]) expect(text).toContain(word);
  });
});
