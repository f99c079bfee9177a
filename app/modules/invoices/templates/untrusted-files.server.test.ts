/**
 * Untrusted carrier files (issue 35 finding 4, docs/decisions/024): an XLSX whose shared strings
 * inflate to gigabytes is refused as 'The file is too large once unpacked', whether the zip's
 * directory states the size (refused before inflating) or lies (refused while inflating, by the
 * bytes counted), and this process's memory stays where it was; a cell past 32,767 characters,
 * and a CSV line past 128 K characters, are refused naming the line, the CSV one quickly.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { deflateRawSync } from "node:zlib";
import { xlsxBomb, xlsxWithStrings } from "../../../../tests/support/xlsx-bomb";
import { xlsxOf } from "../../../../tests/support/invoice-import";
import { FileReadError, readRows, TOO_LARGE_UNPACKED, type ReadMeter } from "./readers.server";
import type { Row } from "./rows";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "invoice-untrusted-"));
});

async function read(name: string, body: string | Uint8Array, format: "CSV" | "XLSX", meter?: ReadMeter) {
  const path = join(dir, name);
  await writeFile(path, body);
  const rows: Row[] = [];
  try {
    for await (const r of await readRows(path, format, [], meter)) rows.push(r);
  } catch (e) {
    expect(e).toBeInstanceOf(FileReadError);
    return (e as Error).message;
  }
  return rows;
}

/** The largest growth of this process's RSS, sampled every 20 ms while `work` runs. */
async function rssGrowthMb(work: () => Promise<unknown>) {
  const start = process.memoryUsage().rss;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  try {
    return { result: await work(), growth: (Math.max(peak, process.memoryUsage().rss) - start) / 1024 / 1024 };
  } finally {
    clearInterval(sampler);
  }
}

describe("an XLSX zip bomb", () => {
  it("is read as a workbook when its shared strings are small: the bombs below are refused for their size alone", async () => {
    const rows = await read("small.xlsx", xlsxBomb(1, undefined, 100_000), "XLSX");
    expect(Array.isArray(rows) && rows.map((r) => [r.row, r.values.A?.length])).toEqual([1, 2, 3, 4, 5].map((n) => [n, 16_000]));
  });

  it("whose directory states 2 GB of shared strings is refused before a byte is inflated", async () => {
    const bomb = xlsxBomb(2048);
    expect(bomb.length).toBeLessThan(4 * 1024 * 1024);
    const { result, growth } = await rssGrowthMb(() => read("stated.xlsx", bomb, "XLSX", { fraction: 0 }));
    expect(result).toBe(TOO_LARGE_UNPACKED);
    expect(growth).toBeLessThan(100);
  });

  it("whose directory lies (64 KB stated, 2 GB inside) is refused while inflating, by the bytes counted", async () => {
    const { result, growth } = await rssGrowthMb(() => read("lying.xlsx", xlsxBomb(2048, 65_536), "XLSX"));
    expect(result).toBe(TOO_LARGE_UNPACKED);
    expect(growth).toBeLessThan(100);
    // counting the rows for progress inflates the sheets only, the strings then: refused the same
    expect(await read("lying-counted.xlsx", xlsxBomb(64, 65_536), "XLSX", { fraction: 0 })).toBe(TOO_LARGE_UNPACKED);
  });

  it("of 150 MB stated honestly, under the absolute cap but at 1,000 to 1, is refused by its ratio", async () => {
    expect(await read("ratio.xlsx", xlsxBomb(150), "XLSX")).toBe(TOO_LARGE_UNPACKED);
  });
});

describe("shared strings", () => {
  it("past 1,000,000 are refused as they arrive, though their part is within the size and ratio caps", async () => {
    const strings = (n: number) => {
      const xml = `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${Array.from({ length: n }, (_, i) => `<si><t>${i}</t></si>`).join("")}</sst>`;
      return xlsxWithStrings(deflateRawSync(Buffer.from(xml)), Buffer.byteLength(xml));
    };
    expect(await read("many-strings.xlsx", strings(1_000_100), "XLSX")).toBe(TOO_LARGE_UNPACKED);
    const ok = await read("strings.xlsx", strings(1_000), "XLSX");
    expect(Array.isArray(ok) && ok.map((r) => r.values.A)).toEqual(["0", "1", "2", "3", "4"]);
  }, 60_000);
});

describe("a cell too long", () => {
  it("in an XLSX is refused naming its row and sheet", async () => {
    const body = await xlsxOf([["Inv", "Con"], ["I-1", "x".repeat(40_000)]]);
    expect(await read("long.xlsx", body, "XLSX")).toBe("Row 2 of sheet Invoice has a cell longer than 32,767 characters.");
    // at the limit it is read
    const ok = await read("limit.xlsx", await xlsxOf([["Inv", "Con"], ["I-1", "x".repeat(32_767)]]), "XLSX");
    expect(Array.isArray(ok) && ok[1]?.values.B?.length).toBe(32_767);
  });

  it("in a CSV is refused naming its line: a 40,000-character cell, and a 9 MB one within seconds (it took 30.8 s)", async () => {
    expect(await read("long.csv", `Inv,Con\nI-1,C1\nI-2,"${"y".repeat(40_000)}"\n`, "CSV")).toBe("Line 3 has a cell longer than 32,767 characters.");
    const started = Date.now();
    expect(await read("huge.csv", `Inv,Con\nI-1,"${"z".repeat(9 * 1024 * 1024)}"\nI-2,C2\n`, "CSV")).toBe("Line 2 is longer than 131,072 characters.");
    expect(Date.now() - started).toBeLessThan(5_000);
    const ok = await read("limit.csv", `Inv,Con\nI-1,"${"y".repeat(32_767)}"\n`, "CSV");
    expect(Array.isArray(ok) && ok[1]?.values.B?.length).toBe(32_767);
  });
});
