import { describe, expect, it } from "vitest";
import { fieldErrorsFrom } from "../../utils/validation";
import { storeSchema } from "./stores";

/** Issue 31 item 8: a blank external id is told only that it is required (not also its pattern, run together). */
describe("store external id", () => {
  const errors = (external_id: string) => {
    const r = storeSchema.safeParse({ cart_type: "shopify", site_id: 1, external_id });
    return r.success ? {} : fieldErrorsFrom(r.error);
  };
  it("blank: one message", () => {
    expect(errors("")).toEqual({ external_id: ["External id is required"] });
    expect(errors("   ")).toEqual({ external_id: ["External id is required"] });
  });
  it("with a space: the pattern's message", () => {
    expect(errors("my store")).toEqual({ external_id: ["External id may hold only letters, digits, '.', '_' and '-'"] });
    expect(errors("my-store")).toEqual({});
  });
});
