import { describe, expect, it } from "vitest";
import { declarationSchema, formatSize, isPdf, MESSAGES } from "./declarations";

describe("declarations", () => {
  it("knows a PDF by its magic bytes only", () => {
    expect(isPdf(new TextEncoder().encode("%PDF-1.7\n..."))).toBe(true);
    expect(isPdf(new TextEncoder().encode("%PDF"))).toBe(false);
    expect(isPdf(new TextEncoder().encode(" %PDF-1.7"))).toBe(false);
    expect(isPdf(new TextEncoder().encode("GIF89a"))).toBe(false);
    expect(isPdf(new Uint8Array())).toBe(false);
  });

  it("needs a name; a blank item type means every item type", () => {
    expect(declarationSchema.safeParse({ name: "  ", item_type_id: "" }).error?.issues[0]?.message).toBe(MESSAGES.nameRequired);
    expect(declarationSchema.parse({ name: " SDS ", item_type_id: "" })).toEqual({ name: "SDS" });
    expect(declarationSchema.parse({ name: "SDS", item_type_id: "12" })).toEqual({ name: "SDS", item_type_id: 12 });
    expect(declarationSchema.safeParse({ name: "SDS", item_type_id: "x" }).error?.issues[0]?.message).toBe(MESSAGES.itemType);
  });

  it("shows sizes as people read them", () => {
    expect(formatSize(512)).toBe("512 B");
    expect(formatSize(2048)).toBe("2 KB");
    expect(formatSize(5 * 1024 * 1024)).toBe("5.0 MB");
  });
});
