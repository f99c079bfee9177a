import { describe, expect, it } from "vitest";
import { z } from "zod";
import { testRunInput } from "../modules/invoices/templates/test-run.server";
import { FOR_A_PERSON } from "./validation";
import "./zod-messages";

/** zod's own wording, which must never reach a person */
const ZOD_WORDING = /Invalid input|Too big|Too small|expected (int|number|string|boolean|array|object)|received |Invalid (string|option|enum|format)|<=|>=/;

const messagesOf = (schema: z.ZodType, value: unknown, params?: typeof FOR_A_PERSON) => {
  const r = schema.safeParse(value, params);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe("the process-wide zod messages", () => {
  it("words every issue a schema gave no message for as a sentence about the field", () => {
    const form = z.object({ weight: z.number(), count: z.number().int(), name: z.string().min(1).max(5), email: z.email(), mode: z.enum(["a", "b"]), fromDate: z.iso.date(), lines: z.array(z.string()).min(1) });
    expect(messagesOf(form, { weight: "5", count: 1e20, name: "toolong", email: "x", mode: "c", fromDate: "soon", lines: [] })).toEqual([
      "Weight must be a number",
      "Count is too large",
      "Name is too long (maximum is 5 characters)",
      "Email is not a valid e-mail address",
      "Mode is not one of the choices",
      "From date must be a date (YYYY-MM-DD)",
      "Lines needs at least 1",
    ]);
    expect(messagesOf(form, {})[0]).toBe("Weight is required");
  });

  it("keeps a schema's own message and a per-parse map's (spec messages stay exact)", () => {
    expect(messagesOf(z.object({ note: z.string().min(1, "Note required.") }), { note: "" })).toEqual(["Note required."]);
    expect(messagesOf(z.object({ receiver_locality: z.string() }), {}, FOR_A_PERSON)).toEqual(["Please enter a locality"]);
  });

  it("the template editor's row numbers: a huge number is told in words, not as zod's bound (issue 31 #6)", () => {
    for (const value of ["99999999999999999999", "abc", "1.5"]) {
      const messages = messagesOf(testRunInput.pick({ row_numbers: true }), { row_numbers: value });
      expect(messages.length, value).toBeGreaterThan(0);
      for (const m of messages) expect(m, value).not.toMatch(ZOD_WORDING);
    }
  });

  it("no default wording from any kind of issue", () => {
    const everything = z.object({ a: z.number(), b: z.string(), c: z.boolean(), d: z.array(z.number()), e: z.number().int().max(3), f: z.string().regex(/^x$/), g: z.literal("x"), h: z.url(), i: z.number().multipleOf(2), j: z.object({ k: z.string() }) });
    const bad = messagesOf(everything, { a: "1", b: 2, c: "yes", d: ["x"], e: 5.5, f: "y", g: "y", h: "not a url", i: 3, j: "x" });
    expect(bad.length).toBeGreaterThanOrEqual(10);
    for (const m of bad) expect(m).not.toMatch(ZOD_WORDING);
  });
});
