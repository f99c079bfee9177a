import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { formatWriter } from "./files.server";
import type { Cell } from "./columns";

const ROWS = 40_000;
// random text: the zip shrinks it little, so the bytes out show how far the zip has got
const row = (i: number): Cell[] => [`CN${i}`, randomBytes(48).toString("base64"), "SYDNEY", "NSW", "2000", 12.5, 0.25, 100, 10, 110, `PO-${i}`, "22/11/2026"];

describe("export writers keep pace with their file", () => {
  for (const format of ["xlsx", "csv"] as const) {
    it(`${format}: every row taken has mostly reached the file, read a chunk a turn as the store reads it`, async () => {
      const out = new PassThrough();
      const chunks: Buffer[] = [];
      let emitted = 0;
      const read = (async () => {
        for await (const chunk of out) {
          chunks.push(chunk as Buffer);
          emitted += (chunk as Buffer).length;
          await new Promise((go) => setImmediate(go));
        }
      })();
      const writer = await formatWriter(format, out, ["Consignment number", "Receiver"]);
      for (let i = 0; i < ROWS; i++) await writer.write(row(i));
      // what the file had when the last row was taken: a writer that ran ahead of the zip held
      // most of the sheet in memory here (57 MB for 96,000 consignments), and the file had 8%
      const emittedWhenTaken = emitted;
      await writer.close();
      await read;
      expect(emittedWhenTaken / emitted).toBeGreaterThan(0.8);

      const bytes = Buffer.concat(chunks);
      if (format === "csv") {
        expect(bytes.toString("utf8").trim().split("\r\n")).toHaveLength(ROWS + 1);
      } else {
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
        expect(workbook.worksheets[0]!.rowCount).toBe(ROWS + 1);
        expect(workbook.worksheets[0]!.getRow(ROWS + 1).getCell(1).value).toBe(`CN${ROWS - 1}`);
      }
    }, 60_000);
  }
});
