/**
 * How many lines a CSV file holds, counted before it is read, so that an import's progress within
 * a file can follow the rows read (fast-csv parses ahead of its reader): the line breaks. An
 * estimate for progress only: a quoted line break gives a count a little off. An XLSX's rows are
 * counted by the spreadsheet worker (sheet-worker/zip-parts.mjs), its inflation bounded.
 */
import { createReadStream } from "node:fs";

export async function csvLineCount(path: string): Promise<number> {
  let lines = 0;
  let last = 0x0a;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines += 1;
    if (chunk.length) last = chunk[chunk.length - 1]!;
  }
  return last === 0x0a ? lines : lines + 1;
}
