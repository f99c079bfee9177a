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

/**
 * The same patch makes conform's copy of Babel's _objectSpread2 faster; what it makes must stay
 * Babel's: odd arguments give their own enumerable values (getters read, symbols too), defined
 * over what the target has; even arguments (an object literal's own part) give every own property
 * with its descriptor.
 */
const { objectSpread2 } = (await import(pathToFileURL(path.join(dist, "_virtual", "_rollupPluginBabelHelpers.mjs")).href)) as { objectSpread2: (target: object, ...sources: unknown[]) => Record<PropertyKey, unknown> };

describe("conform's object spread (patched)", () => {
  it("copies values from odd arguments and descriptors from even ones, as Babel's does", () => {
    const tag = Symbol("tag");
    const hidden = Symbol("hidden");
    const values = { a: 1, gone: undefined, get read() { return "read"; }, [tag]: "tagged" };
    Object.defineProperty(values, hidden, { value: "hidden", enumerable: false });
    Object.defineProperty(values, "unlisted", { value: "unlisted", enumerable: false });
    const literal = { b: 2, get live() { return "live"; } };
    Object.defineProperty(literal, "fixed", { value: 3, writable: false, enumerable: false, configurable: true });
    const target = { a: 0 };
    Object.defineProperty(target, "locked", { value: 0, writable: false, enumerable: true, configurable: true });

    const out = objectSpread2(target, values, literal, { locked: 9 }, null, "xy");
    expect(out).toBe(target);
    expect(Reflect.ownKeys(out)).toEqual(["0", "1", "a", "locked", "gone", "read", "b", "live", "fixed", tag]);
    expect(Object.getOwnPropertyDescriptor(out, "read")).toEqual({ value: "read", writable: true, enumerable: true, configurable: true });
    expect(typeof Object.getOwnPropertyDescriptor(out, "live")!.get).toBe("function");
    expect(Object.getOwnPropertyDescriptor(out, "fixed")).toEqual({ value: 3, writable: false, enumerable: false, configurable: true });
    expect(Object.getOwnPropertyDescriptor(out, "locked")).toEqual({ value: 9, writable: true, enumerable: true, configurable: true });
    expect([out.a, out.gone, out[tag], out[hidden], out.unlisted, out[0], out[1]]).toEqual([1, undefined, "tagged", undefined, undefined, "x", "y"]);
    expect("gone" in out).toBe(true);
  });

  it("defines a key named __proto__ as an own property, never the prototype", () => {
    const out = objectSpread2({}, JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")!.value).toEqual({ polluted: true });
  });
});
