import { pipeline, Readable } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { createGunzip } from "node:zlib";
import { parseCsv } from "../../utils/csv.server";
import { looksBinary, NOT_CSV_TEXT } from "../../utils/csv-text";
import { AppError } from "../../utils/errors";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "../../utils/upload-limits";
import { headerProblem } from "./import.server";
import { MAX_RECIPIENTS_UNPACKED_BYTES, RECIPIENTS_TYPES_ONLY, RECIPIENTS_UNPACKED_TOO_LARGE } from "./limits";

export const refuse = (message: string) => new AppError("invalid", message, { file: [message] });
/** how much of the unpacked start the request reads: the header, and enough to tell text from binary */
const HEAD_BYTES = 64 * 1024;

/**
 * The request body, read no further than `cap` bytes: a body without a content-length (chunked)
 * is cut off at the cap too, before any of it is parsed as a form.
 */
async function cappedBody(request: Request, cap: number): Promise<Uint8Array> {
  if (Number(request.headers.get("content-length") ?? 0) > cap) throw refuse(FILE_TOO_LARGE);
  if (!request.body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel();
      throw refuse(FILE_TOO_LARGE);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * The bytes of a file as read from `source`, a .gz unpacked as it goes: no further than the stated
 * size (a gz bomb stops there, never whole in memory), a file that is not gzip refused.
 */
export async function* unpackedBytes(source: Readable, gz: boolean): AsyncGenerator<Buffer> {
  // pipeline, not pipe: a read error of the source ends the unpacking with it
  const bytes: AsyncIterable<Buffer> = gz ? pipeline(source, createGunzip(), () => {}) : source;
  let size = 0;
  try {
    for await (const chunk of bytes) {
      size += chunk.byteLength;
      if (size > MAX_RECIPIENTS_UNPACKED_BYTES) throw refuse(RECIPIENTS_UNPACKED_TOO_LARGE);
      yield chunk;
    }
  } catch (e) {
    if (e instanceof AppError || !gz || (e as { code?: string }).code === "ENOENT") throw e;
    throw refuse("The gz file could not be unpacked.");
  } finally {
    source.destroy();
  }
}

/** The same as text: UTF-8, a character split between two pieces kept whole; bytes that are not UTF-8 read as U+FFFD. */
export async function* unpackedText(source: Readable, gz: boolean): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  for await (const chunk of unpackedBytes(source, gz)) yield decoder.write(chunk);
  yield decoder.end();
}

/**
 * What the request checks before a job is queued, quickly and without holding the file unpacked:
 * gzip that unpacks within the stated size (a bomb is refused here, by counting, in zlib's own
 * pieces), text, and a header naming the required columns and no others. The rest (every line,
 * the row limit) is the job's.
 */
export async function checkRecipientsFile(bytes: Uint8Array, gz: boolean): Promise<void> {
  if (gz && !isGzip(bytes)) throw refuse("The gz file is not gzip-compressed.");
  const head: Buffer[] = [];
  let headSize = 0;
  for await (const chunk of unpackedBytes(Readable.from([Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)]), gz)) {
    if (headSize < HEAD_BYTES) head.push(chunk.subarray(0, HEAD_BYTES - headSize));
    headSize += chunk.byteLength;
  }
  const text = Buffer.concat(head).toString("utf8").replace(/^\uFEFF/, "");
  if (looksBinary(text)) throw refuse(NOT_CSV_TEXT);
  const firstLine = text.split(/\r?\n/).find((l) => l.trim() !== "") ?? "";
  const { headers } = await parseCsv(firstLine);
  const problem = headerProblem(headers);
  if (problem) throw refuse(problem);
}

export interface RecipientsUpload {
  bytes: Uint8Array;
  gz: boolean;
  fileName: string;
}

/**
 * A recipients import file: a multipart `file` field named .csv or .gz, or a body of type
 * text/csv, application/gzip (or application/x-gzip); other types and files over the stated size
 * are refused before anything is parsed. Answers the file as sent (a .gz still packed).
 */
export async function readRecipientsUpload(request: Request): Promise<RecipientsUpload> {
  const header = request.headers.get("content-type") ?? "";
  const type = header.toLowerCase();
  const csvBody = type.startsWith("text/csv") || type.startsWith("text/plain");
  const gzBody = type.startsWith("application/gzip") || type.startsWith("application/x-gzip");
  if (!type.startsWith("multipart/form-data") && !csvBody && !gzBody) throw refuse(RECIPIENTS_TYPES_ONLY);
  // the multipart envelope adds a few hundred bytes to the file
  const body = await cappedBody(request, MAX_UPLOAD_BYTES + 64 * 1024);
  if (!type.startsWith("multipart/form-data")) {
    if (body.byteLength > MAX_UPLOAD_BYTES) throw refuse(FILE_TOO_LARGE);
    return { bytes: body, gz: gzBody, fileName: gzBody ? "recipients.csv.gz" : "recipients.csv" };
  }
  // the header as sent: the multipart boundary is case-sensitive
  const form = await new Response(body as BodyInit, { headers: { "content-type": header } }).formData().catch(() => {
    throw new AppError("bad_request", "The request body is not a valid form.");
  });
  const file = form.get("file");
  if (!(file instanceof File) || file.size === 0) throw refuse("Choose a file to import.");
  const gz = /\.(csv\.)?gz$/i.test(file.name);
  if (!gz && !/\.csv$/i.test(file.name)) throw refuse(RECIPIENTS_TYPES_ONLY);
  if (file.size > MAX_UPLOAD_BYTES) throw refuse(FILE_TOO_LARGE);
  return { bytes: new Uint8Array(await file.arrayBuffer()), gz, fileName: file.name.slice(0, 255) };
}
