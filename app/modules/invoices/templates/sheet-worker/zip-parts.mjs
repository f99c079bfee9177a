/**
 * The parts of an uploaded XLSX (a zip), read with their inflation bounded (issue 35 finding 4,
 * docs/decisions/024): an 8 MB file whose shared strings inflate to 8 GB took a web process to
 * 4.27 GB. Before anything is inflated, the central directory's sizes are checked: each part's
 * uncompressed size against its compressed size (a ratio) and all parts together against an
 * absolute cap. While inflating, the bytes are counted and the read aborts past the size the
 * directory declared, so a directory that lies about a part stops the read as soon as it shows.
 * Plain JavaScript: the spreadsheet worker thread (sheet-worker.mjs) loads it as it is, without
 * the Remix build or a TypeScript loader.
 */
import { pipeline, Readable, Transform } from "node:stream";
import { createInflateRaw } from "node:zlib";

export const TOO_LARGE_UNPACKED = "The file is too large once unpacked";

/** All parts together, uncompressed: a 10 MB XLSX of plain rows unpacks to about 100 MB. */
export const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;
/** Shared strings are held in memory for the whole read, so their part has a lower cap. */
export const MAX_SHARED_STRINGS_BYTES = 64 * 1024 * 1024;
/** Uncompressed to compressed, for a part over RATIO_FROM bytes: spreadsheet XML is 5 to 20 times. */
export const MAX_RATIO = 100;
const RATIO_FROM = 1024 * 1024;
/** A workbook has a few dozen parts; a directory of thousands is not a spreadsheet. */
const MAX_PARTS = 10_000;

/** Refused because a part unpacks too large (or the directory lies about it). */
export class TooLargeUnpacked extends Error {
  constructor() {
    super(TOO_LARGE_UNPACKED);
    this.name = "TooLargeUnpacked";
  }
}

/** The zip cannot be read as one (no directory, encrypted, an unknown compression). */
export class NotAZip extends Error {
  constructor(why) {
    super(`Not a readable zip: ${why}`);
    this.name = "NotAZip";
  }
}

/**
 * @typedef {{ name: string, method: number, compressed: number, size: number, local: number }} ZipPart
 */

/**
 * The parts listed in the zip's central directory, checked against the caps before any is
 * inflated. `fh` is an open FileHandle. Throws TooLargeUnpacked or NotAZip.
 * @param {import("node:fs/promises").FileHandle} fh
 * @returns {Promise<ZipPart[]>}
 */
export async function zipParts(fh) {
  const size = (await fh.stat()).size;
  const tail = Buffer.alloc(Math.min(size, 65_557));
  await fh.read(tail, 0, tail.length, size - tail.length);
  const eocd = tail.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0 || eocd + 22 > tail.length) throw new NotAZip("no end of central directory");
  const count = tail.readUInt16LE(eocd + 10);
  const cdSize = tail.readUInt32LE(eocd + 12);
  const cdAt = tail.readUInt32LE(eocd + 16);
  // ZIP64 (0xFFFF entries, 0xFFFFFFFF sizes) is for archives past 4 GB: never a 10 MB spreadsheet's need
  if (count === 0xffff || cdSize === 0xffffffff || cdAt === 0xffffffff) throw new TooLargeUnpacked();
  if (count > MAX_PARTS) throw new TooLargeUnpacked();
  if (cdAt + cdSize > size) throw new NotAZip("central directory outside the file");
  const cd = Buffer.alloc(cdSize);
  await fh.read(cd, 0, cdSize, cdAt);
  /** @type {ZipPart[]} */
  const parts = [];
  let total = 0;
  for (let i = 0, at = 0; i < count; i++) {
    if (at + 46 > cd.length || cd.readUInt32LE(at) !== 0x02014b50) throw new NotAZip("a damaged central directory");
    const flags = cd.readUInt16LE(at + 8);
    const method = cd.readUInt16LE(at + 10);
    const compressed = cd.readUInt32LE(at + 20);
    const uncompressed = cd.readUInt32LE(at + 24);
    const nameLength = cd.readUInt16LE(at + 28);
    const local = cd.readUInt32LE(at + 42);
    const name = cd.toString("utf8", at + 46, at + 46 + nameLength).replace(/^\//, "");
    at += 46 + nameLength + cd.readUInt16LE(at + 30) + cd.readUInt16LE(at + 32);
    if (flags & 1) throw new NotAZip("an encrypted part");
    if (method !== 0 && method !== 8) throw new NotAZip(`compression method ${method}`);
    if (compressed === 0xffffffff || uncompressed === 0xffffffff || local === 0xffffffff) throw new TooLargeUnpacked();
    if (uncompressed > RATIO_FROM && uncompressed > compressed * MAX_RATIO) throw new TooLargeUnpacked();
    if (/^xl\/sharedStrings\.xml$/i.test(name) && uncompressed > MAX_SHARED_STRINGS_BYTES) throw new TooLargeUnpacked();
    total += uncompressed;
    if (total > MAX_UNPACKED_BYTES) throw new TooLargeUnpacked();
    parts.push({ name, method, compressed, size: uncompressed, local });
  }
  return parts;
}

/**
 * A part's bytes, inflated, aborting with TooLargeUnpacked once they pass the size the directory
 * declared (which zipParts checked): the count, not the directory, is what bounds the memory.
 * @param {import("node:fs/promises").FileHandle} fh
 * @param {ZipPart} part
 * @param {() => void} [check] called after each chunk; what it throws ends the read
 * @returns {Promise<import("node:stream").Readable>}
 */
export async function openPart(fh, part, check) {
  const head = Buffer.alloc(30);
  await fh.read(head, 0, 30, part.local);
  if (head.readUInt32LE(0) !== 0x04034b50) throw new NotAZip(`no local header for ${part.name}`);
  const start = part.local + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
  if (part.compressed === 0) return Readable.from([]);
  const raw = fh.createReadStream({ start, end: start + part.compressed - 1, autoClose: false });
  const counted = counter(part.size, check);
  // an error or early end anywhere destroys every stream of the chain; the parser sees the error
  return part.method === 8 ? pipeline(raw, createInflateRaw(), counted, () => {}) : pipeline(raw, counted, () => {});
}

/** A pass-through that errors once more than `limit` bytes went through it, or `check` throws. */
function counter(limit, check) {
  let seen = 0;
  return new Transform({
    transform(chunk, _encoding, done) {
      seen += chunk.length;
      if (seen > limit) return done(new TooLargeUnpacked());
      try {
        check?.();
      } catch (e) {
        return done(e);
      }
      done(null, chunk);
    },
  });
}

const ROW = Buffer.from("<row");

/**
 * The `<row` elements of every worksheet part, counted before the read so that an import's
 * progress can follow the rows read (neither reader's bytes say it). Inflated with the same
 * bound as the read; an estimate for progress only.
 * @param {import("node:fs/promises").FileHandle} fh
 * @param {ZipPart[]} parts
 */
export async function countRows(fh, parts) {
  let rows = 0;
  for (const part of parts) {
    if (!/^xl\/worksheets\/[^/]+\.xml$/.test(part.name)) continue;
    let carry = Buffer.alloc(0);
    for await (const chunk of await openPart(fh, part)) {
      const b = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      for (let i = b.indexOf(ROW); i !== -1; i = b.indexOf(ROW, i + ROW.length)) {
        // <row ...> or <row>, not <rowBreaks>
        const next = b[i + ROW.length];
        if (next === 0x20 || next === 0x3e || next === 0x09 || next === 0x0a || next === 0x0d || next === 0x2f) rows += 1;
      }
      carry = b.subarray(Math.max(0, b.length - ROW.length));
    }
  }
  return rows;
}
