import { describe, expect, it } from "vitest";
import { fieldErrorsFrom } from "../../utils/validation";
import { changePasswordSchema, forgotPasswordMessage, forgotPasswordSchema, signInSchema } from "./schemas";

const errorsOf = (schema: typeof signInSchema | typeof forgotPasswordSchema, input: unknown) => {
  const r = schema.safeParse(input);
  return r.success ? {} : fieldErrorsFrom(r.error);
};

describe("login validation (spec 1 section 5)", () => {
  it("requires e-mail and password", () => {
    expect(errorsOf(signInSchema, { email: "", password: "" })).toEqual({
      email: ["Email is required"],
      password: ["Password is required"],
    });
  });
  it("needs a minimum length of 2 and an e-mail format", () => {
    expect(errorsOf(signInSchema, { email: "a", password: "x" })).toEqual({
      email: ["Email must be at least 2 characters"],
      password: ["Password must be at least 2 characters"],
    });
    expect(errorsOf(signInSchema, { email: "not-an-email", password: "xx" })).toEqual({ email: ["Please enter a valid email"] });
  });
  it("reads remember me as 1 or 0, on or absent", () => {
    expect(signInSchema.parse({ email: "a@b.co", password: "xx", remember_me: "1" }).remember_me).toBe(true);
    expect(signInSchema.parse({ email: "a@b.co", password: "xx", remember_me: 1 }).remember_me).toBe(true);
    expect(signInSchema.parse({ email: "a@b.co", password: "xx", remember_me: 0 }).remember_me).toBe(false);
    expect(signInSchema.parse({ email: "a@b.co", password: "xx" }).remember_me).toBe(false);
  });
});

describe("forgot password", () => {
  it("validates like login: required, minimum 2, e-mail format", () => {
    expect(errorsOf(forgotPasswordSchema, { email: "" })).toEqual({ email: ["Email is required"] });
    expect(errorsOf(forgotPasswordSchema, { email: "x" })).toEqual({ email: ["Email must be at least 2 characters"] });
    expect(errorsOf(forgotPasswordSchema, { email: "xy" })).toEqual({ email: ["Please enter a valid email"] });
  });
  it("always answers the spec's message", () => {
    expect(forgotPasswordMessage("a@b.co")).toBe("An email has been sent to a@b.co, if user exists and is permitted to reset password.");
  });
});

describe("password change", () => {
  it("applies the password rule and the confirmation", () => {
    const r = changePasswordSchema.safeParse({ current_password: "x", password: "short", password_confirmation: "other" });
    expect(r.success).toBe(false);
    const errors = fieldErrorsFrom(r.error!);
    expect(errors.password?.[0]).toMatch(/at least 10 characters/);
    const ok = changePasswordSchema.safeParse({ current_password: "x", password: "Abcdefgh12", password_confirmation: "Abcdefgh13" });
    expect(fieldErrorsFrom(ok.error!)).toEqual({ password_confirmation: ["Password confirmation doesn't match Password"] });
  });
});
