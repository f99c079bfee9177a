/**
 * Returns and third-party pickups (spec 1 sections 2, 3 and 7): consignments a carrier collects
 * from someone else. They are saved by the one consignment save with their return type and
 * pickup information; `/api/returns` is their own door to it.
 */
import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { consignmentChanges, consignments } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { isSuperAdmin } from "../auth/roles";
import { addBusinessDays } from "../calendar/business-days";
import { forbiddenMessage } from "../auth/guard.server";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { getConsignment, STALE_MESSAGE, type ConsignmentJson } from "./consignments.server";
import { saveConsignment, type SaveResult } from "./save.server";
import { returnInfoSchema } from "./schema";

export const RETURN_TYPES = ["return", "third_party"] as const;
export type ReturnType = (typeof RETURN_TYPES)[number];

/** Ready 09:00 and closing 17:00 on the next business day of the pickup's region. */
export function defaultPickupWindow(country: string, region: string | null, today: string) {
  const day = addBusinessDays(today, 1, country, region);
  return { ready_at: `${day} 09:00`, closing_at: `${day} 17:00` };
}

/** GET /api/returns/{id}: a return or third-party pickup of the user's customer and sites. */
export async function getReturn(db: DbOrTx, user: CurrentUser, id: number): Promise<ConsignmentJson> {
  const c = await getConsignment(db, user, id);
  if (!c.return_type) throw notFound("Return");
  return c;
}

const kindSchema = z.object({
  return_type: z.enum(RETURN_TYPES, { error: "return_type must be return or third_party" }).default("return"),
  is_quote: z.union([z.boolean(), z.literal("true"), z.literal("false")]).optional().transform((v) => v === true || v === "true"),
});

/** POST /api/returns (return_type return or third_party) and PUT /api/returns/{id}. */
export async function saveReturn(db: DbOrTx, user: CurrentUser, id: number | null, raw: unknown): Promise<SaveResult> {
  if (id) {
    await getReturn(db, user, id);
    return saveConsignment(db, user, id, raw);
  }
  const kind = parseOrThrow(kindSchema, raw ?? {});
  return saveConsignment(db, user, null, raw, { returnType: kind.return_type, isQuote: kind.is_quote });
}

const superadminSchema = z.object({
  version: z.coerce.number({ error: "Version is required" }).int().positive("Version is required"),
  return_info: returnInfoSchema,
});

/**
 * PUT /api/returns/{id} { superadmin: true, version, return_info }: a super admin corrects the
 * pickup information of any return, despatched or not. Audited; a stale version is refused.
 */
export async function superadminUpdateReturn(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<ConsignmentJson> {
  if (!isSuperAdmin(user)) throw new AppError("forbidden", forbiddenMessage(user));
  const input = parseOrThrow(superadminSchema, raw);
  return db.transaction(async (tx) => {
    const before = await getReturn(tx, user, id);
    const info = { ...(before.return_info ?? {}), ...input.return_info };
    const [row] = await tx
      .update(consignments)
      .set({ returnInfo: info, version: sql`${consignments.version} + 1`, updatedAt: new Date() })
      .where(and(eq(consignments.id, id), eq(consignments.version, input.version)))
      .returning({ version: consignments.version });
    if (!row) throw new AppError("stale", STALE_MESSAGE);
    const changed = Object.entries(info).filter(([k, v]) => (before.return_info as Record<string, unknown> | null)?.[k] !== v);
    if (changed.length) {
      await tx.insert(consignmentChanges).values(
        changed.map(([k, v]) => ({
          consignmentId: id,
          version: row.version,
          field: `return_info.${k}`,
          fromValue: ((before.return_info as Record<string, unknown> | null)?.[k] as string | null) ?? null,
          toValue: (v as string | null) ?? null,
          changedBy: user.id,
        })),
      );
    }
    return getReturn(tx, user, id);
  });
}
