/**
 * Declarations (issue 16 item 8; spec 2 /customers/{customerId}/index_declarations and
 * /declarations/{declarationId?}): documents such as safety data sheets, PDF, kept per customer
 * and optionally per item type, printed after the dangerous goods document when the customer's
 * print_declarations is on. The schema the screen and /api share, its limits and messages. Pure.
 */
import { z } from "zod";
import { idSchema } from "../../utils/ids";

/** A safety data sheet is a few pages; 5 MB keeps a scanned one and refuses anything unreasonable. */
export const MAX_DECLARATION_BYTES = 5 * 1024 * 1024;
export const NAME_MAX = 200;

export const MESSAGES = {
  saved: "Declaration was saved.",
  deleted: "Declaration was deleted.",
  notFound: "Declaration not found",
  nameRequired: "Name is required",
  nameTooLong: `Name is too long (at most ${NAME_MAX} characters)`,
  itemType: "Choose one of this customer's item types",
  fileRequired: "Choose a PDF file to upload.",
  tooLarge: "The file is larger than 5 MB.",
  pdfOnly: "Only PDF files can be uploaded.",
  unreadable: "The PDF cannot be read: it may be damaged or encrypted.",
  multipart: "Send the declaration as a multipart form (fields name, item_type_id and file).",
} as const;

/** name and item type (blank: every item type of the customer); the file comes apart. */
export const declarationSchema = z.object({
  name: z.string({ error: MESSAGES.nameRequired }).trim().min(1, MESSAGES.nameRequired).max(NAME_MAX, MESSAGES.nameTooLong),
  item_type_id: z.preprocess((v) => (v === "" || v === null ? undefined : v), idSchema(MESSAGES.itemType).optional()),
});
export type DeclarationInput = z.infer<typeof declarationSchema>;

const PDF_MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

/** A PDF by its first bytes (a name or a claimed type proves nothing). */
export const isPdf = (bytes: Uint8Array): boolean => PDF_MAGIC.every((b, i) => bytes[i] === b);

/** "1.2 MB", "340 KB": a file's size as the list shows it. */
export function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

/** A declaration as the screens and the API show it (the file is fetched apart). */
export interface DeclarationJson {
  id: number;
  customer_id: number;
  item_type_id: number | null;
  item_type_name: string | null;
  name: string;
  filename: string;
  content_type: string;
  size: number;
  created_by: number | null;
  created_by_name: string | null;
  created_at: string;
  file_url: string;
}
