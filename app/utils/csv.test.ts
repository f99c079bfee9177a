import { describe, expect, it } from "vitest";
import { AppError } from "./errors";
import { parseCsv } from "./csv.server";

/** The message a refused file answers (422 on the file field), or the rows it parses to. */
async function outcome(text: string) {
  try {
    return await parseCsv(text);
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).status).toBe(422);
    return (e as AppError).fieldErrors.file![0];
  }
}

describe("parseCsv refuses what is not CSV text, naming the line (issue 12 finding 8)", () => {
  it("an unbalanced quote", async () => {
    expect(await outcome('postcode,zone\n3000,MEL\n3001,"MEL\n3002,MEL\n')).toBe("Line 3 opens a quote that is never closed.");
    expect(await outcome('postcode,zone\n3000,"MEL"X\n')).toBe("Line 2 has text after a closing quote.");
  });

  it("a line with more fields than the header; a short line still reads as blanks", async () => {
    expect(await outcome("postcode,zone\n3000,MEL\n3001,MEL,extra\n")).toBe("Line 3 has 3 fields; the header has 2.");
    expect(await outcome("postcode,zone,locality\n3000,MEL\n")).toEqual({ headers: ["postcode", "zone", "locality"], rows: [{ line: 2, values: { postcode: "3000", zone: "MEL", locality: "" } }] });
  });

  it("binary content named .csv, and NUL characters in cells", async () => {
    const png = new TextDecoder().decode(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    expect(await outcome(png)).toBe("The file is not a CSV text file.");
    expect(await outcome("postcode,zone\n3000,MEL\n3001,M\u0000EL\n")).toBe("Line 3 contains a NUL character, which cannot be imported.");
  });

  it("a cell past 32,767 characters (Excel's limit), quoted or not, named by the line it starts on; one at the limit is read (issue 35)", async () => {
    const x = (n: number) => "x".repeat(n);
    expect(await outcome(`postcode,zone\n3000,MEL\n3001,${x(32_768)}\n`)).toBe("Line 3 has a cell longer than 32,767 characters.");
    expect(await outcome(`postcode,zone\n3000,"a\nb${x(40_000)}"\n`)).toBe("Line 2 has a cell longer than 32,767 characters.");
    const started = Date.now();
    expect(await outcome(`postcode,zone\n3000,"${x(9 * 1024 * 1024)}"\n`)).toBe("Line 2 has a cell longer than 32,767 characters.");
    expect(Date.now() - started).toBeLessThan(2_000);
    const quoted = `"${'""'.repeat(100)}${x(32_667)}"`;
    const read = await outcome(`postcode,zone\n${x(32_767)},${quoted}\n`);
    expect(typeof read === "object" ? read.rows[0]!.values.zone!.length : read).toBe(32_767);
  });

  it("a header naming a column twice", async () => {
    expect(await outcome("zone,zone\n1,2\n")).toBe('The header names a column twice: ["zone"]');
  });

  it("still reads quoted fields, doubled quotes, quotes inside text and CRLF lines", async () => {
    expect(await outcome('Postcode,Zone\r\n"3000","ME""L, X"\r\n3001,5" pipe\r\n')).toEqual({
      headers: ["postcode", "zone"],
      rows: [
        { line: 2, values: { postcode: "3000", zone: 'ME"L, X' } },
        { line: 3, values: { postcode: "3001", zone: '5" pipe' } },
      ],
    });
  });
});
