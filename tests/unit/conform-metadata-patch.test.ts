import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * patches/@conform-to+react+1.21.1.patch: a field's (and the form's) metadata is made once for
 * each form state and form id and reused by every property read, instead of made again on every
 * read. It must still answer from the state and id current at each read.
 */
type Meta = Record<string, unknown>;
const dist = path.dirname(createRequire(import.meta.url).resolve("@conform-to/react"));
const { getFieldMetadata, getFormMetadata } = (await import(pathToFileURL(path.join(dist, "context.mjs")).href)) as {
  getFieldMetadata(context: object, subjectRef: object, snapshot: object, prefix?: string, key?: string): Meta;
  getFormMetadata(context: object, subjectRef: object, snapshot: object, noValidate: boolean): Meta;
};

function stateOf(value: string, error?: string[]) {
  return { initialValue: { name: value }, value: { name: value }, error: error ? { name: error } : {}, key: { name: `k-${value}` }, valid: { name: !error }, dirty: {}, constraint: { name: { required: true, maxLength: 40 } }, submissionStatus: undefined };
}

function context(state: object, formId: string) {
  const ctx = { state, formId, getState: () => ctx.state, getFormId: () => ctx.formId };
  return ctx;
}

describe("conform's field metadata (patched)", () => {
  it("reads the state and form id current at each read, not those of the first", () => {
    const first = stateOf("Acme");
    const ctx = context(first, "f1");
    const field = getFieldMetadata(ctx, { current: {} }, first, "", "name");
    expect([field.id, field.name, field.initialValue, field.defaultValue, field.errors, field.required, field.maxLength]).toEqual(["f1-name", "name", "Acme", "Acme", undefined, true, 40]);

    ctx.state = stateOf("Bolt", ["Name is required"]);
    expect([field.initialValue, field.errors, field.valid, field.key]).toEqual(["Bolt", ["Name is required"], false, "k-Bolt"]);
    ctx.formId = "f2";
    expect([field.id, field.errorId, field.formId]).toEqual(["f2-name", "f2-name-error", "f2"]);
  });

  it("records what a render read while its state is current, and nothing once it is not", () => {
    const first = stateOf("Acme");
    const ctx = context(first, "f1");
    const subjectRef = { current: {} as Record<string, unknown> };
    const field = getFieldMetadata(ctx, subjectRef, first, "", "name");
    void field.initialValue;
    void field.errors;
    expect(subjectRef.current).toEqual({ initialValue: { name: ["name"] }, error: { name: ["name"] } });
    ctx.state = stateOf("Bolt");
    void field.value;
    expect(subjectRef.current).not.toHaveProperty("value");
  });

  it("gives the form's metadata from the current state too", () => {
    const first = { ...stateOf("Acme"), submissionStatus: undefined };
    const ctx = context(first, "f1");
    const form = getFormMetadata(ctx, { current: {} }, first, true);
    expect([form.id, form.noValidate, form.status]).toEqual(["f1", true, undefined]);
    ctx.state = { ...stateOf("Acme"), submissionStatus: "error" };
    ctx.formId = "f3";
    expect([form.id, form.status, form.errorId]).toEqual(["f3", "error", "f3-error"]);
  });
});
