import { z } from "zod";
import { MAX_PAGE_SIZE, PAGE_SIZE } from "./limits";

const whole = (max: number, fallback: number) =>
  z
    .union([z.coerce.number().int().min(0).max(max), z.literal("")])
    .optional()
    .catch(fallback)
    .transform((v) => (v === "" || v === undefined ? fallback : v));

/**
 * A page of the list: `limit` (40, at most 200) and `offset` (GET /api/.../recipients), or the
 * screen's 1-based `page`, and `q`, a name prefix. Nonsense falls back to the first page.
 */
export const recipientListQuery = z
  .object({
    limit: whole(MAX_PAGE_SIZE, PAGE_SIZE),
    offset: whole(10_000_000, 0),
    page: whole(1_000_000, 0),
    q: z.string().trim().max(100).optional().catch(undefined),
  })
  .transform(({ limit, offset, page, q }) => ({
    limit: limit || PAGE_SIZE,
    offset: page ? (page - 1) * (limit || PAGE_SIZE) : offset,
    q: q || null,
  }));
export type RecipientListQuery = z.infer<typeof recipientListQuery>;
