import { gunzipSync } from "node:zlib";
import { AppError } from "../../utils/errors";
import { FILE_TOO_LARGE, MAX_UPLOAD_BYTES } from "../../utils/upload-limits";
import { MAX_RECIPIENTS_UNPACKED_BYTES, RECIPIENTS_TYPES_ONLY, RECIPIENTS_UNPACKED_TOO_LARGE } from "./limits";

const refuse = (message: string) => new AppError("invalid", message, { file: [message] });

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
 * The text of a file named .gz: unpacked no further than the stated size (a gz bomb stops there,
 * not in memory); a file named .gz that is not gzip is refused.
 */
export function unpack(bytes: Uint8Array, gz: boolean): string {
  if (!gz) return Buffer.from(bytes).toString("utf8");
  if (!isGzip(bytes)) throw refuse("The gz file is not gzip-compressed.");
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_RECIPIENTS_UNPACKED_BYTES }).toString("utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE" || e instanceof RangeError) throw refuse(RECIPIENTS_UNPACKED_TOO_LARGE);
    throw refuse("The gz file could not be unpacked.");
  }
}

/**
 * A recipients import file: a multipart `file` field named .csv or .gz, or a body of type
 * text/csv, application/gzip (or application/x-gzip); other types and files over the stated size
 * are refused before anything is parsed.
 */
export async function readRecipientsUpload(request: Request): Promise<string> {
  const header = request.headers.get("content-type") ?? "";
  const type = header.toLowerCase();
  const csvBody = type.startsWith("text/csv") || type.startsWith("text/plain");
  const gzBody = type.startsWith("application/gzip") || type.startsWith("application/x-gzip");
  if (!type.startsWith("multipart/form-data") && !csvBody && !gzBody) throw refuse(RECIPIENTS_TYPES_ONLY);
  // the multipart envelope adds a few hundred bytes to the file
  const body = await cappedBody(request, MAX_UPLOAD_BYTES + 64 * 1024);
  if (!type.startsWith("multipart/form-data")) {
    if (body.byteLength > MAX_UPLOAD_BYTES) throw refuse(FILE_TOO_LARGE);
    return unpack(body, gzBody);
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
  return unpack(new Uint8Array(await file.arrayBuffer()), gz);
}
