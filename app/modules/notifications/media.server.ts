/**
 * Images placed in notification templates (spec 2: POST api/notifications_media_upload). PNG,
 * JPEG, GIF or WebP by their bytes (a name or a claimed type proves nothing), at most 2 MB, kept
 * in the database under an unguessable id and served to anyone with the address: the mail clients
 * that show them have no session.
 */
import { imageSizeProblem } from "../../utils/image-size";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { notificationMedia } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { uuidOrNull } from "../../utils/ids";
import { readForm } from "../../utils/http.server";
import { IMAGE_TOO_LARGE, IMAGE_TYPES_ONLY, MAX_IMAGE_BYTES } from "../../utils/upload-limits";
import { assertNotificationsUser } from "./configs.server";

export const MEDIA_PATH = "/api/notifications_media";

const startsWith = (bytes: Uint8Array, signature: readonly number[], at = 0) => signature.every((b, i) => bytes[at + i] === b);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The image type the bytes are, by their signature, or null for anything else. */
export function imageTypeOf(bytes: Uint8Array): "image/png" | "image/jpeg" | "image/gif" | "image/webp" | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return null;
}

const refuse = (message: string) => new AppError("invalid", message, { file: [message] });

/** 413, as the body limit answers a body past it: the file field named. */
const tooLarge = () => Response.json({ errors: { base: [IMAGE_TOO_LARGE], file: [IMAGE_TOO_LARGE] } }, { status: 413 });

/**
 * Stores the multipart `file` of the request for the working customer, answering its address.
 * The caller is checked before the body is read.
 */
export async function storeMedia(db: DbOrTx, user: CurrentUser, request: Request, base: string): Promise<{ id: string; url: string; path: string; content_type: string; bytes: number }> {
  assertNotificationsUser(user);
  if (!(request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data")) throw refuse("Send the image as a multipart form with the field file.");
  const form = await readForm(request);
  const file = form.get("file");
  if (!(file instanceof Blob) || file.size === 0) throw refuse("Choose an image to upload.");
  if (file.size > MAX_IMAGE_BYTES) throw tooLarge();
  const bytes = new Uint8Array(await file.arrayBuffer());
  const contentType = imageTypeOf(bytes);
  if (!contentType) throw refuse(IMAGE_TYPES_ONLY);
  const tooManyPixels = imageSizeProblem(bytes);
  if (tooManyPixels) throw refuse(tooManyPixels);
  const [row] = await db
    .insert(notificationMedia)
    .values({ customerId: user.customer.id, contentType, bytes: Buffer.from(bytes), createdBy: user.id })
    .returning({ id: notificationMedia.id });
  const path = `${MEDIA_PATH}/${row!.id}`;
  return { id: row!.id, url: `${base}${path}`, path, content_type: contentType, bytes: bytes.length };
}

/** An image by its id, as it was uploaded; null for an id that names none. */
export async function readMedia(db: DbOrTx, id: string | undefined): Promise<{ contentType: string; bytes: Uint8Array<ArrayBuffer> } | null> {
  const uuid = uuidOrNull(id);
  if (!uuid) return null;
  const [row] = await db.select({ contentType: notificationMedia.contentType, bytes: notificationMedia.bytes }).from(notificationMedia).where(eq(notificationMedia.id, uuid));
  if (!row) return null;
  return { contentType: row.contentType, bytes: new Uint8Array(row.bytes) };
}
