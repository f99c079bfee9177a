/**
 * Reading PostgreSQL's binary COPY (db/copy.server.ts): tuples come out whole however the stream
 * cuts them, nulls as null, and a stream that ends inside a tuple or is no binary COPY throws.
 */
import { describe, expect, it } from "vitest";
import { BINARY_COPY_HEADER, BINARY_COPY_TRAILER, binaryCopyTuples } from "../../db/copy.server";

function tuple(...fields: Array<Buffer | null>): Buffer {
  const parts: Buffer[] = [Buffer.from([0, fields.length])];
  for (const f of fields) {
    const length = Buffer.alloc(4);
    length.writeInt32BE(f ? f.length : -1);
    parts.push(length, ...(f ? [f] : []));
  }
  return Buffer.concat(parts);
}

async function* cut(whole: Buffer, sizes: number[]) {
  let at = 0;
  for (let i = 0; at < whole.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield whole.subarray(at, at + n);
    at += n;
  }
}

async function read(pieces: AsyncGenerator<Buffer>) {
  const out: Array<Array<string | null>> = [];
  for await (const t of binaryCopyTuples(pieces)) out.push(t.map((f) => (f ? f.toString() : null)));
  return out;
}

const whole = Buffer.concat([BINARY_COPY_HEADER, tuple(Buffer.from("1"), Buffer.from("first")), tuple(Buffer.from("2"), null), tuple(Buffer.from("3"), Buffer.from("x".repeat(300))), BINARY_COPY_TRAILER]);
const expected = [["1", "first"], ["2", null], ["3", "x".repeat(300)]];

describe("binary COPY tuples", () => {
  it("are the same whether the stream comes whole, byte by byte or in odd pieces", async () => {
    expect(await read(cut(whole, [whole.length]))).toEqual(expected);
    expect(await read(cut(whole, [1]))).toEqual(expected);
    expect(await read(cut(whole, [7, 3, 101, 2]))).toEqual(expected);
  });

  it("skips a header extension", async () => {
    const header = Buffer.from(BINARY_COPY_HEADER);
    header.writeInt32BE(5, 15);
    const extended = Buffer.concat([header, Buffer.from("abcde"), whole.subarray(BINARY_COPY_HEADER.length)]);
    expect(await read(cut(extended, [4]))).toEqual(expected);
  });

  it("throws when the stream ends inside a tuple, or is no binary COPY", async () => {
    await expect(read(cut(whole.subarray(0, whole.length - 40), [50]))).rejects.toThrow("ended inside a tuple");
    await expect(read(cut(Buffer.from("id,name\n1,first\n".repeat(3)), [64]))).rejects.toThrow("not a binary COPY");
  });
});
