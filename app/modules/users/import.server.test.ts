import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { AppError } from "../../utils/errors";
import { MAX_UPLOAD_BYTES } from "../../utils/upload-limits";
import { IMPORT_MESSAGES, MAX_DECOMPRESSED_BYTES, decodeUpload } from "./import.server";

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return (e as AppError).fieldErrors.file?.[0];
  }
  throw new Error("not refused");
};
const bytes = (text: string) => new TextEncoder().encode(text);

describe("decodeUpload", () => {
  it("reads a csv as it is and a gz (or csv.gz) inflated", () => {
    expect(decodeUpload("users.CSV", bytes("email\na@b.c\n"))).toBe("email\na@b.c\n");
    expect(decodeUpload("users.csv.gz", gzipSync("email\nx@y.z\n"))).toBe("email\nx@y.z\n");
    expect(decodeUpload("users.gz", gzipSync("email\n"))).toBe("email\n");
  });

  it("inflates up to the cap and no further: a gz bomb is refused", () => {
    const atCap = gzipSync(Buffer.alloc(MAX_DECOMPRESSED_BYTES, 0x61));
    expect(decodeUpload("ok.gz", atCap)).toHaveLength(MAX_DECOMPRESSED_BYTES);
    const bomb = gzipSync(Buffer.alloc(MAX_DECOMPRESSED_BYTES + 1, 0x61));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    expect(refusal(() => decodeUpload("bomb.gz", bomb))).toBe(IMPORT_MESSAGES.bomb);
  });

  it("refuses other types, a gz that is not gzip, a truncated gz and a file over the upload limit", () => {
    expect(refusal(() => decodeUpload("users.xlsx", bytes("email\n")))).toBe(IMPORT_MESSAGES.type);
    expect(refusal(() => decodeUpload("users", bytes("email\n")))).toBe(IMPORT_MESSAGES.type);
    expect(refusal(() => decodeUpload("users.gz", bytes("email\n")))).toBe(IMPORT_MESSAGES.notGzip);
    expect(refusal(() => decodeUpload("users.gz", gzipSync("email\n".repeat(1000)).subarray(0, 20)))).toBe(IMPORT_MESSAGES.notGzip);
    expect(refusal(() => decodeUpload("users.csv", new Uint8Array(MAX_UPLOAD_BYTES + 1)))).toBe(IMPORT_MESSAGES.tooLarge);
  });
});
