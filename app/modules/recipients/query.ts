import { z } from "zod";
import { MAX_PAGE_SIZE, PAGE_SIZE } from "./limits";

const whole = (max: number, fallback: number) =>
  z
    .union([z.coerce.number().int().min(0).max(max), z.literal("")])
    .optional()
    .catch(fallback)
    .transform((v) => (v === "" || v === undefined ? fallback : v));

/** Where a page ended: the last row's sort key (its lower-cased name and id), as an opaque string. */
export type RecipientCursor = { name: string; id: number };
export const encodeCursor = (c: RecipientCursor) => Buffer.from(JSON.stringify([c.name, c.id])).toString("base64url");
function decodeCursor(raw: string | undefined): RecipientCursor | null {
  if (!raw) return null;
  try {
    const [name, id] = JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as unknown[];
    return typeof name === "string" && Number.isSafeInteger(id) && (id as number) > 0 ? { name, id: id as number } : null;
  } catch {
    return null;
  }
}

/**
 * A page of the list: `limit` (40, at most 200) and `offset` (GET /api/.../recipients), or the
 * screen's 1-based `page`, and `q`, a name prefix. Nonsense falls back to the first page.
 * `after` (the `next` of the previous page) continues from where that page ended: the lazily
 * loaded list uses it, so a page deep in a large book costs what the first one does (an OFFSET
 * reads every row it skips).
 */
export const recipientListQuery = z
  .object({
    limit: whole(MAX_PAGE_SIZE, PAGE_SIZE),
    offset: whole(10_000_000, 0),
    page: whole(1_000_000, 0),
    q: z.string().trim().max(100).optional().catch(undefined),
    after: z.string().max(2000).optional().catch(undefined),
  })
  .transform(({ limit, offset, page, q, after }) => ({
    limit: limit || PAGE_SIZE,
    offset: page ? (page - 1) * (limit || PAGE_SIZE) : offset,
    q: q || null,
    after: decodeCursor(after),
  }));
export type RecipientListQuery = z.infer<typeof recipientListQuery>;
