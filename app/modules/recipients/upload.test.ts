import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { MAX_RECIPIENTS_UNPACKED_BYTES, RECIPIENTS_UNPACKED_TOO_LARGE } from "./limits";
import { checkRecipientsFile, unpackedBytes, unpackedText } from "./upload.server";

const HEADER = "name,address_line_1,locality,postcode";
const read = async (bytes: Buffer, gz: boolean) => {
  let text = "";
  for await (const piece of unpackedText(Readable.from([bytes]), gz)) text += piece;
  return text;
};

describe("unpackedText", () => {
  it("reads csv as it is and gz unpacked, a character split between pieces kept whole", async () => {
    expect(await read(Buffer.from("name\nA"), false)).toBe("name\nA");
    expect(await read(gzipSync("name\nB"), true)).toBe("name\nB");
    const euro = Buffer.from("€");
    let text = "";
    for await (const piece of unpackedText(Readable.from([euro.subarray(0, 1), euro.subarray(1)]), false)) text += piece;
    expect(text).toBe("€");
  });
  it("cuts a gz bomb off at the stated size, in pieces (never the whole unpacked)", async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_RECIPIENTS_UNPACKED_BYTES + 1, 0x41));
    expect(bomb.byteLength).toBeLessThan(200 * 1024);
    let largest = 0;
    const reading = (async () => {
      for await (const chunk of unpackedBytes(Readable.from([bomb]), true)) largest = Math.max(largest, chunk.byteLength);
    })();
    await expect(reading).rejects.toThrow(RECIPIENTS_UNPACKED_TOO_LARGE);
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
  });
  it("unpacks a file of exactly the stated size", async () => {
    let size = 0;
    for await (const chunk of unpackedBytes(Readable.from([gzipSync(Buffer.alloc(MAX_RECIPIENTS_UNPACKED_BYTES, 0x41))]), true)) size += chunk.byteLength;
    expect(size).toBe(MAX_RECIPIENTS_UNPACKED_BYTES);
  });
});

describe("checkRecipientsFile", () => {
  it("takes a good header, plain or packed", async () => {
    await expect(checkRecipientsFile(Buffer.from(`${HEADER}\nA,1 St,SYDNEY,2000\n`), false)).resolves.toBeUndefined();
    await expect(checkRecipientsFile(gzipSync(`\uFEFF\n${HEADER}\n`), true)).resolves.toBeUndefined();
  });
  it("refuses a file named gz that is not gzip, a corrupt gz, binary, and a wrong header", async () => {
    await expect(checkRecipientsFile(Buffer.from("name\nA"), true)).rejects.toThrow("The gz file is not gzip-compressed.");
    const gz = gzipSync(`${HEADER}\n`);
    await expect(checkRecipientsFile(Buffer.concat([gz.subarray(0, 10), Buffer.alloc(20, 7)]), true)).rejects.toThrow("The gz file could not be unpacked.");
    await expect(checkRecipientsFile(Buffer.from("\u0001\u0002binary"), false)).rejects.toThrow("The file is not a CSV text file.");
    await expect(checkRecipientsFile(Buffer.from("name,locality\nA,B\n"), false)).rejects.toThrow("Missing columns: address_line_1, postcode");
    await expect(checkRecipientsFile(Buffer.from(`${HEADER},colour\n`), false)).rejects.toThrow("Unknown columns: colour");
  });
  it("refuses a gz bomb by counting, before any job", async () => {
    const bomb = gzipSync(Buffer.concat([Buffer.from(`${HEADER}\n`), Buffer.alloc(MAX_RECIPIENTS_UNPACKED_BYTES, 0x41)]));
    await expect(checkRecipientsFile(bomb, true)).rejects.toThrow(RECIPIENTS_UNPACKED_TOO_LARGE);
  });
});
