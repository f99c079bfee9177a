/**
 * How many rows a CSV or XLSX file holds, counted before it is read, so that an import's progress
 * within a file can follow the rows read: neither reader's bytes say it (fast-csv parses ahead of
 * its reader, and exceljs's WorkbookReader takes the whole file in before its first row). CSV:
 * the line breaks. XLSX: the `<row` elements of its worksheets, inflated by zlib from the zip's
 * central directory (no parse; the 10 MB limit keeps this to a fraction of the read's cost).
 * An estimate for progress only: a quoted line break or an odd zip gives a count a little off.
 */
import { createReadStream } from "node:fs";
import { open } from "node:fs/promises";
import { createInflateRaw } from "node:zlib";
import { Readable } from "node:stream";

export async function csvLineCount(path: string): Promise<number> {
  let lines = 0;
  let last = 0x0a;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines += 1;
    if (chunk.length) last = chunk[chunk.length - 1]!;
  }
  return last === 0x0a ? lines : lines + 1;
}

const ROW = Buffer.from("<row");

/** The `<row` elements of every xl/worksheets/*.xml entry; 0 when the zip cannot be read so. */
export async function xlsxRowCount(path: string): Promise<number> {
  const fh = await open(path, "r");
  try {
    const size = (await fh.stat()).size;
    const tail = Buffer.alloc(Math.min(size, 65_557));
    await fh.read(tail, 0, tail.length, size - tail.length);
    const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    if (eocd < 0) return 0;
    const entries = tail.readUInt16LE(eocd + 10);
    const cd = Buffer.alloc(tail.readUInt32LE(eocd + 12));
    await fh.read(cd, 0, cd.length, tail.readUInt32LE(eocd + 16));
    let rows = 0;
    for (let i = 0, at = 0; i < entries && cd.readUInt32LE(at) === 0x02014b50; i++) {
      const method = cd.readUInt16LE(at + 10);
      const compressed = cd.readUInt32LE(at + 20);
      const nameLength = cd.readUInt16LE(at + 28);
      const local = cd.readUInt32LE(at + 42);
      const name = cd.toString("utf8", at + 46, at + 46 + nameLength);
      at += 46 + nameLength + cd.readUInt16LE(at + 30) + cd.readUInt16LE(at + 32);
      if (!/^xl\/worksheets\/[^/]+\.xml$/.test(name) || (method !== 0 && method !== 8)) continue;
      const head = Buffer.alloc(30);
      await fh.read(head, 0, 30, local);
      const start = local + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
      const raw = createReadStream("", { fd: fh.fd, start, end: start + compressed - 1, autoClose: false });
      rows += await countIn(method === 8 ? raw.pipe(createInflateRaw()) : raw);
    }
    return rows;
  } catch {
    return 0;
  } finally {
    await fh.close();
  }
}

async function countIn(xml: Readable): Promise<number> {
  let n = 0;
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of xml as AsyncIterable<Buffer>) {
    const b = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    for (let i = b.indexOf(ROW); i !== -1; i = b.indexOf(ROW, i + ROW.length)) {
      // <row ...> or <row>, not <rowBreaks>
      const next = b[i + ROW.length];
      if (next === 0x20 || next === 0x3e || next === 0x09 || next === 0x0a || next === 0x0d || next === 0x2f) n += 1;
    }
    carry = b.subarray(Math.max(0, b.length - ROW.length));
  }
  return n;
}
