/**
 * Merging consignments (spec 1 sections 2, 7 and 9; spec 3 section 7): a consignment may be
 * merged into another of the same customer and site going to the same receiver address on the
 * same despatch date, while both can still be edited. Our rules for what the spec leaves open
 * (docs/decisions/004-merging.md): the customer's merge limit (3, 4 or 5; 3 when unset) is the
 * most consignments one may combine; dangerous goods merge only when the customer allows it;
 * with custom-reference merging on, the custom references must match too.
 */
import { and, count, eq, inArray, ne, sql } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, consignmentChanges, consignments, customers } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { getConsignment, type ConsignmentJson } from "./consignments.server";
import { inputFrom } from "./operations.server";
import { saveConsignment } from "./save.server";
import { isEditable } from "./rules";
import { transition } from "./lifecycle";
import { idSchema } from "../../utils/ids";

export const DEFAULT_MERGE_LIMIT = 3;

export interface MergeCandidate {
  id: number;
  consignment_number: string | null;
  reference: string | null;
  despatch_date: string | null;
  state: string;
  receiver_name: string | null;
  item_count: number;
  weight: number;
  /** the candidate's site's system of measurement, for the unit of its weight */
  som: "metric" | "imperial";
  merged_count: number;
}

async function mergeSettings(db: DbOrTx, customerId: number) {
  const [c] = await db
    .select({ enabled: customers.mergingEnabled, dg: customers.dgMergingEnabled, byCustomReference: customers.mergingCustomReferenceEnabled, options: customers.options })
    .from(customers)
    .where(eq(customers.id, customerId));
  const limit = c?.options.merge_limit;
  return { enabled: Boolean(c?.enabled), dg: Boolean(c?.dg), byCustomReference: Boolean(c?.byCustomReference), limit: limit === 3 || limit === 4 || limit === 5 ? limit : DEFAULT_MERGE_LIMIT };
}

const same = (a: string | null | undefined, b: string | null | undefined) => (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();

/** Same receiver address: name, first line, place and country. */
function sameReceiver(a: ConsignmentJson["receiver_address"], b: ConsignmentJson["receiver_address"]) {
  if (!a || !b) return false;
  return same(a.name, b.name) && same(a.address_line_1, b.address_line_1) && same(a.locality, b.locality) && same(a.sublocality, b.sublocality) && same(a.postcode, b.postcode) && same(a.country, b.country);
}

const hasDg = (c: ConsignmentJson) => c.items.some((i) => i.dangerous_goods_items.length > 0);

/** Why `source` may not merge into `target`, or null when it may. */
function refusal(source: ConsignmentJson, target: ConsignmentJson, settings: Awaited<ReturnType<typeof mergeSettings>>, mergedCount: number): string | null {
  if (!settings.enabled) return "Merging is not enabled for this customer";
  if (source.id === target.id) return "A consignment cannot be merged into itself";
  if (!isEditable(source.state) || !isEditable(target.state) || source.is_quote || target.is_quote || source.return_type || target.return_type) return "Only open or despatchable consignments can be merged";
  if (!source.active || !target.active) return "Only active consignments can be merged";
  if (source.site_id !== target.site_id) return "Consignments of different sites cannot be merged";
  if (!source.despatch_date || source.despatch_date !== target.despatch_date) return "Consignments must have the same despatch date";
  if (!sameReceiver(source.receiver_address, target.receiver_address)) return "Consignments must go to the same receiver address";
  if (!settings.dg && (hasDg(source) || hasDg(target))) return "Consignments with dangerous goods cannot be merged";
  if (settings.byCustomReference && !same(source.custom_reference, target.custom_reference)) return "Consignments must have the same custom reference";
  if (1 + mergedCount + 1 > settings.limit) return `The merge limit of ${settings.limit} consignments has been reached`;
  return null;
}

async function mergedCounts(db: DbOrTx, ids: number[]) {
  if (!ids.length) return new Map<number, number>();
  const rows = await db
    .select({ id: consignments.mergedIntoId, n: count() })
    .from(consignments)
    .where(inArray(consignments.mergedIntoId, ids))
    .groupBy(consignments.mergedIntoId);
  return new Map(rows.map((r) => [r.id!, r.n]));
}

const mergeableSchema = z.object({ id: idSchema("Consignment id is required") });

/**
 * POST /api/consignments/mergeable_consignments { id }: the consignments this one could be
 * merged into (same customer, site, receiver address and despatch date, still editable).
 */
export async function mergeableConsignments(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<{ consignments: MergeCandidate[]; merge_limit: number }> {
  const { id } = parseOrThrow(mergeableSchema, raw);
  const source = await getConsignment(db, user, id);
  const settings = await mergeSettings(db, user.customer.id);
  if (!settings.enabled || !source.despatch_date || !source.receiver_address) return { consignments: [], merge_limit: settings.limit };
  // candidates by the indexed columns, then the receiver compared exactly below
  const rows = await db
    .select({ id: consignments.id })
    .from(consignments)
    .innerJoin(addresses, eq(addresses.id, consignments.receiverAddressId))
    .where(
      and(
        eq(consignments.customerId, user.customer.id),
        eq(consignments.siteId, source.site_id),
        eq(consignments.despatchDate, source.despatch_date),
        inArray(consignments.state, ["open", "despatchable"]),
        eq(consignments.active, true),
        eq(consignments.isQuote, false),
        sql`${consignments.returnType} is null`,
        ne(consignments.id, source.id),
        sql`lower(${addresses.postcode}) = ${(source.receiver_address.postcode ?? "").toLowerCase()}`,
      ),
    )
    .limit(50);
  const counts = await mergedCounts(
    db,
    rows.map((r) => r.id),
  );
  const out: MergeCandidate[] = [];
  for (const { id: candidateId } of rows) {
    const target = await getConsignment(db, user, candidateId);
    if (refusal(source, target, settings, counts.get(candidateId) ?? 0)) continue;
    out.push({
      id: target.id,
      consignment_number: target.consignment_number,
      reference: target.reference,
      despatch_date: target.despatch_date,
      state: target.state,
      receiver_name: target.receiver_address?.name ?? null,
      item_count: target.items.reduce((n, i) => n + i.quantity, 0),
      weight: Math.round(target.items.reduce((n, i) => n + (i.weight_in_uom ?? 0), 0) * 1000) / 1000,
      som: user.sites.find((s) => s.id === target.site_id)?.som ?? "metric",
      merged_count: counts.get(candidateId) ?? 0,
    });
  }
  return { consignments: out, merge_limit: settings.limit };
}

const mergeSchema = z.object({ source_id: idSchema("source_id is required") });

/**
 * POST /api/consignments/{id}/merge { source_id }: the source's item lines join consignment
 * {id}, which is re-priced and saved (audited like any save); the source becomes `merged`,
 * inactive, and points at it. One transaction: both change or neither.
 */
export async function mergeConsignment(db: DbOrTx, user: CurrentUser, targetId: number, raw: unknown): Promise<ConsignmentJson> {
  const { source_id: sourceId } = parseOrThrow(mergeSchema, raw);
  return db.transaction(async (tx) => {
    const [target, source] = [await getConsignment(tx, user, targetId), await getConsignment(tx, user, sourceId)];
    const settings = await mergeSettings(tx, user.customer.id);
    const why = refusal(source, target, settings, (await mergedCounts(tx, [targetId])).get(targetId) ?? 0);
    if (why) throw new AppError("conflict", why, { base: [why] });
    // both held in id order before either is written: the save below updates the target first, and
    // an emissions recompute holding the lower id while waiting on the higher would deadlock with it
    await tx.execute(sql`select id from consignments where id in (${targetId}, ${sourceId}) order by id for update`);

    // the target's printed labels stay and its new lines get theirs in the save; with
    // preserve_ssccs_during_merge the source's lines keep the SSCCs already printed on them
    const lineSsccs = user.customer.options.preserve_ssccs_during_merge ? [...target.items.map(() => undefined), ...source.items.map((i) => i.ssccs)] : undefined;
    const { consignment } = await saveConsignment(tx, user, targetId, inputFrom(target, [...target.items, ...source.items]), { lineSsccs });

    const [merged] = await tx
      .update(consignments)
      .set({ state: transition(source.state, "merge"), active: false, mergedIntoId: targetId, version: sql`${consignments.version} + 1`, updatedAt: new Date() })
      .where(and(eq(consignments.id, sourceId), eq(consignments.version, source.version)))
      .returning({ version: consignments.version });
    if (!merged) throw new AppError("stale", "Unable to save. Someone else may have modified the consignment, please refresh.");
    await tx.insert(consignmentChanges).values([
      { consignmentId: sourceId, version: merged.version, field: "state", fromValue: source.state, toValue: "merged", changedBy: user.id },
      { consignmentId: sourceId, version: merged.version, field: "merged_into", fromValue: null, toValue: String(targetId), changedBy: user.id },
      { consignmentId: targetId, version: consignment.version, field: "merged_from", fromValue: null, toValue: String(sourceId), changedBy: user.id },
    ]);
    return consignment;
  });
}
