/** The audit history of a consignment: written on every save, read by the consignment information view. */
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignmentChanges, users } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canSeeConsignmentInformation } from "../auth/roles";
import { forbiddenMessage } from "../auth/guard.server";
import { AppError } from "../../utils/errors";
import { loadRow, type ConsignmentJson } from "./consignments.server";

/** Flat field -> text view of a consignment, for the audit history. */
function auditView(c: ConsignmentJson): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const scalar = (v: unknown) => (v == null || v === "" ? null : typeof v === "object" ? JSON.stringify(v) : String(v));
  for (const key of [
    "state",
    "reference",
    "custom_reference",
    "despatch_date",
    "account_payable",
    "charge_account",
    "special_instructions",
    "special_requirements",
    "pickup_at",
    "deliver_by",
    "deliver_at",
    "carrier_code",
    "service_code",
    "service_rate",
    "site_code",
  ] as const) {
    out[key] = scalar(c[key]);
  }
  for (const side of ["sender_address", "receiver_address"] as const) {
    const a = c[side];
    for (const f of ["name", "address_line_1", "address_line_2", "locality", "sublocality", "postcode", "region", "country", "phone", "email", "address_type", "special_instructions"] as const) {
      out[`${side}.${f}`] = scalar(a?.[f]);
    }
  }
  for (const [f, v] of Object.entries(c.return_info ?? {})) out[`return_info.${f}`] = scalar(v);
  c.items.forEach((item, i) => {
    for (const f of ["quantity", "item_type_id", "reference", "length", "width", "height", "weight_in_uom"] as const) out[`items.${i}.${f}`] = scalar(item[f]);
    out[`items.${i}.dangerous_goods_items`] = item.dangerous_goods_items.length ? JSON.stringify(item.dangerous_goods_items.map((d) => [d.un_number, d.weight_in_uom])) : null;
  });
  return out;
}

export async function writeAudit(tx: DbOrTx, user: CurrentUser, consignmentId: number, version: number, before: ConsignmentJson | null, after: ConsignmentJson) {
  const now = auditView(after);
  if (!before) {
    await tx.insert(consignmentChanges).values({ consignmentId, version, field: "created", fromValue: null, toValue: after.state, changedBy: user.id });
    return;
  }
  const was = auditView(before);
  const keys = new Set([...Object.keys(was), ...Object.keys(now)]);
  // an item's change names the line it is about (as saved now; a removed line by its last id): the item audit history
  const itemIdOf = (field: string) => {
    const i = /^items\.(\d+)\./.exec(field)?.[1];
    return i == null ? null : (after.items[Number(i)]?.id ?? before.items[Number(i)]?.id ?? null);
  };
  const rows = [...keys]
    .filter((k) => (was[k] ?? null) !== (now[k] ?? null))
    .map((field) => ({ consignmentId, itemId: itemIdOf(field), version, field, fromValue: was[field] ?? null, toValue: now[field] ?? null, changedBy: user.id }));
  if (rows.length) await tx.insert(consignmentChanges).values(rows);
}

/**
 * The audit history of a consignment, newest first (consignment information view): its own
 * fields' changes, or with `items` its items' (those naming an item id, GET /api/item_changes).
 */
export async function consignmentChangesOf(db: DbOrTx, user: CurrentUser, id: number, options: { items?: boolean } = {}) {
  if (!canSeeConsignmentInformation(user)) throw new AppError("forbidden", forbiddenMessage(user));
  await loadRow(db, user, id);
  const rows = await db
    .select({ change: consignmentChanges, by: users.fullName })
    .from(consignmentChanges)
    .leftJoin(users, eq(users.id, consignmentChanges.changedBy))
    .where(and(eq(consignmentChanges.consignmentId, id), options.items ? isNotNull(consignmentChanges.itemId) : isNull(consignmentChanges.itemId)))
    .orderBy(desc(consignmentChanges.id))
    .limit(1000);
  return rows.map(({ change: c, by }) => ({
    version: c.version,
    field: c.field,
    from: c.fromValue,
    to: c.toValue,
    by,
    at: c.changedAt.toISOString(),
    ...(options.items ? { item_id: c.itemId } : {}),
  }));
}
