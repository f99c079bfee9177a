import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAX_RECIPIENTS_UNPACKED_BYTES, RECIPIENTS_UNPACKED_TOO_LARGE } from "./limits";
import { unpack } from "./upload.server";

describe("unpack", () => {
  it("reads csv as it is and gz unpacked", () => {
    expect(unpack(Buffer.from("name\nA"), false)).toBe("name\nA");
    expect(unpack(gzipSync("name\nB"), true)).toBe("name\nB");
  });
  it("refuses a file named gz that is not gzip", () => {
    expect(() => unpack(Buffer.from("name\nA"), true)).toThrow("The gz file is not gzip-compressed.");
  });
  it("cuts a gz bomb off at the stated size", () => {
    const bomb = gzipSync(Buffer.alloc(MAX_RECIPIENTS_UNPACKED_BYTES + 1, 0x41));
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    expect(() => unpack(bomb, true)).toThrow(RECIPIENTS_UNPACKED_TOO_LARGE);
  });
  it("unpacks a file of exactly the stated size", () => {
    expect(unpack(gzipSync(Buffer.alloc(MAX_RECIPIENTS_UNPACKED_BYTES, 0x41)), true).length).toBe(MAX_RECIPIENTS_UNPACKED_BYTES);
  });
});
