/**
 * Number allocation (DESIGN "Numbers"): consignment, manifest and SSCC numbers come from the
 * carrier account's ranges by one UPDATE ... RETURNING on the account row, inside the
 * transaction that needs them. The row lock orders concurrent callers, so no number is handed
 * out twice; a rolled-back transaction returns its numbers, so there are no gaps.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, consignments } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { formatNumber, formatSscc } from "./format";

export type NumberKind = "consignment" | "manifest" | "sscc";

const COLUMNS = {
  consignment: { current: "consignment_current", start: "consignment_range_start", end: "consignment_range_end", label: "consignment number" },
  manifest: { current: "manifest_current", start: "manifest_range_start", end: "manifest_range_end", label: "manifest number" },
  sscc: { current: "sscc_current", start: "sscc_range_start", end: "sscc_range_end", label: "SSCC" },
} as const;

type Raw = { rows?: Array<Record<string, unknown>> } | Array<Record<string, unknown>>;
const rowsOf = (raw: Raw) => (Array.isArray(raw) ? raw : (raw.rows ?? []));

/** The next `count` numbers of a range, as integers (first..last). */
async function take(db: DbOrTx, accountId: number, kind: NumberKind, count: number): Promise<number[]> {
  if (!Number.isInteger(count) || count < 1) return [];
  const c = COLUMNS[kind];
  const current = sql.raw(c.current);
  const start = sql.raw(c.start);
  const end = sql.raw(c.end);
  const raw = (await db.execute(sql`
    update carrier_accounts
       set ${current} = coalesce(${current}, ${start} - 1) + ${count}
     where id = ${accountId}
       and ${start} is not null and ${end} is not null
       and coalesce(${current}, ${start} - 1) + ${count} <= ${end}
    returning ${current} as last`)) as unknown as Raw;
  const [row] = rowsOf(raw);
  if (!row) {
    const [account] = await db.select({ id: carrierAccounts.id, accountNumber: carrierAccounts.accountNumber }).from(carrierAccounts).where(eq(carrierAccounts.id, accountId));
    if (!account) throw new AppError("not_found", "Carrier account not found");
    const message = `The ${c.label} range of carrier account ${account.accountNumber} is exhausted. Please contact customer services.`;
    throw new AppError("conflict", message, { base: [message] });
  }
  const last = Number(row.last);
  return Array.from({ length: count }, (_, i) => last - count + 1 + i);
}

async function account(db: DbOrTx, accountId: number) {
  const [a] = await db.select().from(carrierAccounts).where(eq(carrierAccounts.id, accountId));
  if (!a) throw new AppError("not_found", "Carrier account not found");
  return a;
}

/** The next consignment number of a carrier account, formatted. */
export async function allocateConsignmentNumber(db: DbOrTx, accountId: number): Promise<string> {
  const [n] = await take(db, accountId, "consignment", 1);
  const a = await account(db, accountId);
  return formatNumber(a.consignmentNumberPrefix, a.consignmentNumberDigits, n!);
}

/** The next `count` consignment numbers of a carrier account, formatted (one statement for a whole manifest). */
export async function allocateConsignmentNumbers(db: DbOrTx, accountId: number, count: number): Promise<string[]> {
  const numbers = await take(db, accountId, "consignment", count);
  if (!numbers.length) return [];
  const a = await account(db, accountId);
  return numbers.map((n) => formatNumber(a.consignmentNumberPrefix, a.consignmentNumberDigits, n));
}

/** The next manifest number of a carrier account, formatted. */
export async function allocateManifestNumber(db: DbOrTx, accountId: number): Promise<string> {
  const [n] = await take(db, accountId, "manifest", 1);
  const a = await account(db, accountId);
  return formatNumber(a.manifestNumberPrefix, a.manifestNumberDigits, n!);
}

/** `count` SSCC-18s from the account's SSCC range (one per label). */
export async function allocateSsccs(db: DbOrTx, accountId: number, count: number): Promise<string[]> {
  const a = await account(db, accountId);
  if (!a.ssccPrefix) {
    const message = `Carrier account ${a.accountNumber} has no SSCC range. Please contact customer services.`;
    throw new AppError("conflict", message, { base: [message] });
  }
  return (await take(db, accountId, "sscc", count)).map((n) => formatSscc(a.ssccPrefix!, n));
}

/**
 * Locks, in the one global order, everything a caller numbering several consignments will write:
 * the consignment rows by id, then their carrier accounts by id. Call it first in the transaction.
 * Without it two batch prints with overlapping ids, each numbering in its own order, each held a
 * row the other waited for (one a consignment, the other the account's range) and PostgreSQL
 * aborted them with "deadlock detected". Rows of other customers are not touched.
 */
export async function lockForNumbering(tx: DbOrTx, customerId: number, consignmentIds: number[]): Promise<void> {
  if (!consignmentIds.length) return;
  const rows = await tx
    .select({ accountId: consignments.carrierAccountId })
    .from(consignments)
    .where(and(inArray(consignments.id, consignmentIds), eq(consignments.customerId, customerId)))
    .orderBy(asc(consignments.id))
    .for("update");
  const accountIds = [...new Set(rows.map((r) => r.accountId).filter((id): id is number => id != null))];
  if (!accountIds.length) return;
  await tx.select({ id: carrierAccounts.id }).from(carrierAccounts).where(inArray(carrierAccounts.id, accountIds)).orderBy(asc(carrierAccounts.id)).for("update");
}

/** What is left of each range, for admins. */
export function remaining(a: typeof carrierAccounts.$inferSelect) {
  const left = (current: number | null, start: number | null, end: number | null) => (start == null || end == null ? 0 : end - (current ?? start - 1));
  return {
    consignment: left(a.consignmentCurrent, a.consignmentRangeStart, a.consignmentRangeEnd),
    manifest: left(a.manifestCurrent, a.manifestRangeStart, a.manifestRangeEnd),
    sscc: left(a.ssccCurrent, a.ssccRangeStart, a.ssccRangeEnd),
  };
}
