/**
 * Reading a declaration upload with its limits applied before parsing: a multipart body only; a
 * Content-Length past the cap is refused unread, and a body without one (chunked) is read only up
 * to the cap, then refused, so no upload is ever held whole in memory past it. The file must be a
 * PDF by its bytes (%PDF-) and one pdf-lib can read, since printing appends its pages.
 */
import { AppError } from "../../utils/errors";
import { MAX_DECLARATION_BYTES, MESSAGES, isPdf } from "./declarations";

/** Room for the form's other fields and the multipart boundaries around the file. */
const FORM_OVERHEAD = 64 * 1024;

const refuse = (message: string) => new AppError("invalid", message, { file: [message] });
/** 413, as a body past a limit answers: the file field named. */
const tooLarge = () => Response.json({ errors: { base: [MESSAGES.tooLarge], file: [MESSAGES.tooLarge] } }, { status: 413 });

export interface DeclarationUpload {
  fields: Record<string, string>;
  /** absent when no file was chosen (a change of name or item type only) */
  file: { filename: string; bytes: Uint8Array } | null;
}

/** The body, read up to `limit` bytes: past it, the read stops and the request is refused. */
async function readCapped(request: Request, limit: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export async function readDeclarationUpload(request: Request): Promise<DeclarationUpload> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) throw new AppError("invalid", MESSAGES.multipart, { base: [MESSAGES.multipart] });
  const limit = MAX_DECLARATION_BYTES + FORM_OVERHEAD;
  if (Number(request.headers.get("content-length") ?? 0) > limit) throw tooLarge();
  const body = await readCapped(request, limit);
  let form: FormData;
  try {
    form = await new Response(body, { headers: { "Content-Type": type } }).formData();
  } catch {
    throw new AppError("bad_request", "The request body is not a valid form.");
  }
  const fields: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === "string") fields[k] = v;
  const file = form.get("file");
  if (!(file instanceof Blob) || file.size === 0) return { fields, file: null };
  if (file.size > MAX_DECLARATION_BYTES) throw tooLarge();
  const bytes = new Uint8Array(await file.arrayBuffer());
  if (!isPdf(bytes)) throw refuse(MESSAGES.pdfOnly);
  // pdf-lib is lenient: a file it reads with no page in it is as unprintable as one it cannot read
  const { PDFDocument } = await import("pdf-lib");
  const pages = await PDFDocument.load(bytes, { updateMetadata: false })
    .then((d) => d.getPageCount())
    .catch(() => 0);
  if (!pages) throw refuse(MESSAGES.unreadable);
  const filename = ((file as File).name || "declaration.pdf").replace(/[\\/\r\n"]/g, "_").slice(0, 200);
  return { fields, file: { filename: /\.pdf$/i.test(filename) ? filename : `${filename}.pdf`, bytes } };
}
