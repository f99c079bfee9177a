import { describe, expect, it } from "vitest";
import { CONSIGNMENT_STATES } from "../../../db/schema/consignments";
import { linkOffered, publicTrackingUrl, stateWords, tokenOrNull } from "./public-link";

describe("the public tracking link", () => {
  it("is offered when the state is not open, not quote and not empty (spec 1 section 4), and the consignment is still active", () => {
    const offered = CONSIGNMENT_STATES.filter((state) => linkOffered({ state, isQuote: false, active: true }));
    expect(offered).not.toContain("open");
    expect(offered).not.toContain("quote");
    expect(offered).toContain("despatchable");
    expect(offered).toContain("despatched");
    expect(offered).toContain("delivered_with_pod");
    expect(linkOffered({ state: null, isQuote: false, active: true })).toBe(false);
    // a quote flagged so, whatever its state reads
    expect(linkOffered({ state: "despatchable", isQuote: true, active: true })).toBe(false);
    expect(linkOffered({ state: "deleted", isQuote: false, active: false })).toBe(false);
  });

  it("takes only a UUID as a token, lower-cased", () => {
    expect(tokenOrNull("0F8FAD5B-D9CB-469F-A165-70867728950E")).toBe("0f8fad5b-d9cb-469f-a165-70867728950e");
    for (const bad of [undefined, "", "123", "0f8fad5b-d9cb-469f-a165-70867728950e'--", "0f8fad5bd9cb469fa16570867728950e"]) expect(tokenOrNull(bad)).toBeNull();
  });

  it("builds the address on the base it is given, without a doubled slash", () => {
    expect(publicTrackingUrl("https://freight.example/", "abc")).toBe("https://freight.example/track/abc");
  });

  it("says every state in words, and a failed despatch as not yet despatched", () => {
    for (const state of CONSIGNMENT_STATES) expect(stateWords(state)).not.toMatch(/_/);
    expect(stateWords("failed_delivery")).toBe("Delivery attempted");
    expect(stateWords("despatch_failure")).toBe("Not yet despatched");
  });
});
