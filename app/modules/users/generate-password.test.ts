import { describe, expect, it } from "vitest";
import { isValidPassword } from "../auth/password-rule";
import { assignableRoles, userSchema } from "./admin";
import { GENERATED_LENGTH, generatePassword } from "./generate-password";

describe("generatePassword", () => {
  it("always satisfies the password rule and never repeats", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const p = generatePassword();
      expect(isValidPassword(p), p).toBe(true);
      expect(p).toHaveLength(GENERATED_LENGTH);
      expect(p).not.toMatch(/[01OIl]/);
      seen.add(p);
    }
    expect(seen.size).toBe(2000);
  });

  it("uses every character of its alphabet in every position over many draws", () => {
    const firsts = new Set<string>();
    for (let i = 0; i < 3000; i++) firsts.add(generatePassword()[0]!);
    // 57 characters; a biased shuffle would leave some out of the first position
    expect(firsts.size).toBeGreaterThan(50);
  });
});

describe("userSchema", () => {
  const base = { email: "a@example.com", full_name: "A Person" };
  it("defaults the role to despatcher and reads checkbox values", () => {
    const u = userSchema.parse({ ...base, role: "", can_book: "on", can_export: "false", site_ids: ["3", "4"] });
    expect(u).toMatchObject({ role: "despatcher", can_book: true, can_export: false, site_ids: [3, 4] });
  });
  it("checks the password rule, then the confirmation", () => {
    const weak = userSchema.safeParse({ ...base, password: "short1A", password_confirmation: "short1A" });
    expect(weak.success).toBe(false);
    expect(weak.error!.issues[0]!.path).toEqual(["password"]);
    const mismatch = userSchema.safeParse({ ...base, password: "Goodpassword12", password_confirmation: "Goodpassword13" });
    expect(mismatch.error!.issues[0]!.path).toEqual(["password_confirmation"]);
    expect(userSchema.safeParse({ ...base, password: "Goodpassword12", password_confirmation: "Goodpassword12" }).success).toBe(true);
  });
  it("refuses a bad e-mail and an unknown role", () => {
    const r = userSchema.safeParse({ ...base, email: "nope", role: "owner" });
    expect(r.error!.issues.map((i) => i.path[0]).sort()).toEqual(["email", "role"]);
  });
});

describe("assignableRoles", () => {
  it("lets only super admins grant super_admin and devs", () => {
    expect(assignableRoles({ role: "super_admin" })).toContain("devs");
    expect(assignableRoles({ role: "devs" })).toContain("super_admin");
    expect(assignableRoles({ role: "admin" })).toEqual(["despatcher", "admin", "customer_service"]);
    expect(assignableRoles({ role: "customer_service" })).not.toContain("super_admin");
  });
});
