/**
 * Despatch (spec 1 sections 4, 7, 8; DESIGN "Despatch and manifests"); asking for a redespatch is
 * redespatch.server.ts, and its job is this one.
 *
 * A request checks the selection, moves it to `despatching` and queues a job in the same
 * transaction. The job groups what is despatching into one manifest per site, carrier and
 * account (or, for a redespatch, the manifest it already has), gives consignments their missing
 * numbers, hands each manifest to its carrier's adapter and records the outcome. Each manifest is
 * one transaction that starts by locking its consignments and re-reading their state, so a job
 * run twice, or two runs at once, despatch each consignment once: the second finds nothing left.
 */
import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, consignmentChanges, consignments, manifests } from "../../../db/schema";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { adapterFor, adapterKind, type CarrierInfo, type DespatchOutcome } from "../carriers/adapters.server";
import { allocateConsignmentNumbers, allocateManifestNumber } from "../numbers/numbers.server";
import { completeLabelRecords } from "../numbers/label-records.server";
import { getConsignment, webhookConsignmentJson } from "../consignments/consignments.server";
import { emitEvents } from "../webhooks/index.server";
import { isDespatchable, isFailed } from "../consignments/rules";
import { bool } from "../consignments/schema";
import { EMAILED, NO_EMAIL } from "./return-email.server";
import { DESPATCHING, progressMessage } from "./progress";
import { transition } from "../consignments/lifecycle";
import { idSchema, recordId } from "../../utils/ids";

export const NOTHING_SELECTED = "No consignments have been selected for despatch.";
export const NOT_DESPATCHABLE = "At least one of the consignments you have selected is not despatchable.";
export const DESPATCHED = "Your consignments have been despatched.";
export const DESPATCH_FAILED = "Sorry, your consignments failed to despatch. Please contact customer services.";
export const NO_MANIFESTS = "No manifests were created.";
export const REDESPATCH_FAILED = "Manifest failed to redespatch.";
export { DESPATCHING, progressMessage };

/** How long after despatch a non-admin may still cancel (the spec leaves the window to the server). */
export const CANCELLATION_WINDOW_HOURS = 24;
/** The most consignments one despatch takes (a day's work for a busy site). */
export const MAX_DESPATCH = 5000;

const idsSchema = z.object({
  ids: z
    .union([z.array(idSchema("ids must be consignment ids")), z.string().transform((s) => s.split(",").filter(Boolean).map(Number)), z.undefined(), z.null()])
    .transform((ids) => [...new Set(ids ?? [])])
    .pipe(
      z
        .array(recordId("ids must be consignment ids"))
        .min(1, NOTHING_SELECTED)
        .max(MAX_DESPATCH, `At most ${MAX_DESPATCH} consignments can be despatched at once.`),
    ),
});

/** The user's consignments among `ids`, locked (in id order) for the request's transaction unless `lock` is false. */
export async function lockScoped(tx: DbOrTx, user: CurrentUser, ids: number[], lock = true) {
  if (!user.siteIds.length) return [];
  const query = tx
    .select()
    .from(consignments)
    .where(and(inArray(consignments.id, ids), eq(consignments.customerId, user.customer.id), inArray(consignments.siteId, user.siteIds)))
    .orderBy(asc(consignments.id));
  return lock ? query.for("update") : query;
}

async function writeStateChanges(tx: DbOrTx, rows: { id: number; version: number; from: string; to: string }[], userId: number | null) {
  if (!rows.length) return;
  await tx.insert(consignmentChanges).values(rows.map((r) => ({ consignmentId: r.id, version: r.version, field: "state", fromValue: r.from, toValue: r.to, changedBy: userId })));
}

/** Moves rows to despatching (by the lifecycle's `event`) and writes their history. */
export async function markDespatching(tx: DbOrTx, rows: (typeof consignments.$inferSelect)[], event: "despatch" | "redespatch", userId: number) {
  const to = rows.map((r) => transition(r.state, event));
  const updated = await tx
    .update(consignments)
    .set({ state: "despatching", version: sql`${consignments.version} + 1`, updatedAt: new Date() })
    .where(inArray(consignments.id, rows.map((r) => r.id)))
    .returning({ id: consignments.id, version: consignments.version });
  const version = new Map(updated.map((u) => [u.id, u.version]));
  await writeStateChanges(tx, rows.map((r, i) => ({ id: r.id, version: version.get(r.id)!, from: r.state, to: to[i]! })), userId);
}

/** The sites a despatch job is about: who may read its status (jobStatusFor). */
export const sitesOf = (rows: { siteId: number }[]) => [...new Set(rows.map((r) => r.siteId))].sort((a, b) => a - b);

/**
 * PUT /api/consignments/despatch_all { ids } (and the list's Despatch buttons): every selected
 * consignment must be despatchable, else nothing changes. Answers the job that despatches them.
 */
export async function requestDespatch(db: DbOrTx, queue: JobQueue, user: CurrentUser, raw: unknown, options: { sendEmail?: boolean } = {}): Promise<{ job_id: string }> {
  const { ids } = parseOrThrow(idsSchema, raw);
  return db.transaction(async (tx) => {
    const rows = await lockScoped(tx, user, ids);
    if (rows.length !== ids.length) throw notFound("Consignment");
    const refused = rows.some((r) => !r.active || r.isQuote || !isDespatchable({ id: r.id, state: r.state, hasRate: Boolean(r.serviceId && r.carrierAccountId), errors: r.errors }));
    if (refused) throw new AppError("conflict", NOT_DESPATCHABLE, { base: [NOT_DESPATCHABLE] });
    await markDespatching(tx, rows, "despatch", user.id);
    const { jobId } = await queue.enqueue(
      "consignments.despatch",
      { ids, customerId: user.customer.id, userId: user.id, sendEmail: options.sendEmail ?? false },
      { tx, userId: user.id, customerId: user.customer.id, siteIds: sitesOf(rows) },
    );
    return { job_id: jobId };
  });
}

export const despatchPayload = z.object({
  ids: z.array(z.number().int().positive()).min(1),
  customerId: z.number().int().positive(),
  userId: z.number().int().positive(),
  sendEmail: z.boolean().default(false),
});
export type DespatchPayload = z.infer<typeof despatchPayload>;

export interface DespatchResult {
  total: number;
  despatched: number[];
  failed: number[];
  /** selected but neither despatched nor failed: taken out of the despatch before it reached them */
  not_despatched: number[];
  /** consignment numbers of failed outbound consignments, and of failed returns and pickups */
  failed_numbers: string[];
  failed_return_numbers: string[];
  /** every manifest the selection is on (the same on a second run) */
  manifest_ids: number[];
  /** Australia Post manifests, printed once ready_for_print says so */
  auspost_manifest_ids: number[];
  /** Despatch + email of a return: its labels and manifest went to the pickup contact */
  emailed?: boolean;
}

type Row = typeof consignments.$inferSelect;

interface Group {
  siteId: number;
  carrierAccountId: number;
  manifestId: number | null;
  carrier: CarrierInfo;
  accountNumber: string;
  ids: number[];
}

/**
 * The job: despatches what of `ids` is still despatching. Groups are despatched in order, other
 * carriers first and Australia Post last (spec 1 section 9: its consignments go separately).
 */
export async function runDespatch(db: Db, payload: DespatchPayload, progress: (pct: number, message: string) => Promise<void>): Promise<DespatchResult> {
  const { ids, customerId, userId } = payload;
  const scope = and(inArray(consignments.id, ids), eq(consignments.customerId, customerId));
  const waiting = await db
    .select({
      id: consignments.id,
      siteId: consignments.siteId,
      carrierAccountId: consignments.carrierAccountId,
      manifestId: consignments.manifestId,
      carrier: { code: carriers.code, name: carriers.name, webUrl: carriers.webUrl, options: carriers.options },
      accountNumber: carrierAccounts.accountNumber,
    })
    .from(consignments)
    .innerJoin(carrierAccounts, eq(carrierAccounts.id, consignments.carrierAccountId))
    .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .where(and(scope, eq(consignments.state, "despatching")))
    .orderBy(asc(consignments.id));

  const groups = new Map<string, Group>();
  for (const w of waiting) {
    // a redespatch keeps its manifest; a first despatch makes one per site, carrier and account
    const key = w.manifestId ? `m${w.manifestId}` : `${w.siteId}:${w.carrierAccountId}`;
    const group = groups.get(key) ?? { siteId: w.siteId, carrierAccountId: w.carrierAccountId!, manifestId: w.manifestId, carrier: w.carrier, accountNumber: w.accountNumber, ids: [] };
    group.ids.push(w.id);
    groups.set(key, group);
  }
  const ordered = [...groups.values()].sort((a, b) => Number(adapterKind(a.carrier) === "auspost") - Number(adapterKind(b.carrier) === "auspost"));

  const total = ids.length;
  let done = ids.length - waiting.length;
  for (const group of ordered) {
    await despatchGroup(db, group, customerId, userId);
    done += group.ids.length;
    await progress((done / total) * 100, progressMessage(done, total));
  }

  // the outcome of every selected consignment, whichever run despatched it
  const outcome = await db
    .select({ id: consignments.id, state: consignments.state, number: consignments.consignmentNumber, returnType: consignments.returnType, manifestId: consignments.manifestId, manifestStatus: manifests.status, carrierCode: carriers.code, carrierOptions: carriers.options })
    .from(consignments)
    .leftJoin(manifests, eq(manifests.id, consignments.manifestId))
    .leftJoin(carrierAccounts, eq(carrierAccounts.id, manifests.carrierAccountId))
    .leftJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .where(scope)
    .orderBy(asc(consignments.id));
  // counted from what each consignment is now, not from what was asked: one deleted or released
  // meanwhile is neither despatched nor failed
  const failed = outcome.filter((o) => o.manifestId && isFailed(o.state));
  const despatched = outcome.filter((o) => o.manifestId && !isFailed(o.state) && o.state !== "despatching");
  const counted = new Set([...failed, ...despatched].map((o) => o.id));
  const manifestIds = [...new Set(outcome.filter((o) => counted.has(o.id)).map((o) => o.manifestId!))];
  return {
    total,
    despatched: despatched.map((o) => o.id),
    failed: failed.map((o) => o.id),
    not_despatched: ids.filter((id) => !counted.has(id)).sort((a, b) => a - b),
    failed_numbers: failed.filter((o) => !o.returnType).map((o) => o.number ?? String(o.id)),
    failed_return_numbers: failed.filter((o) => o.returnType).map((o) => o.number ?? String(o.id)),
    manifest_ids: manifestIds,
    auspost_manifest_ids: [
      ...new Set(despatched.filter((o) => o.carrierCode && adapterKind({ code: o.carrierCode, options: o.carrierOptions ?? {} }) === "auspost").map((o) => o.manifestId!)),
    ],
  };
}

/** One manifest: lock, number, hand to the carrier, record the outcome; all or nothing. */
async function despatchGroup(db: Db, group: Group, customerId: number, userId: number) {
  const adapter = adapterFor(group.carrier);
  // the manifest the carrier took but has not made ready yet (Australia Post's), to ask about after the commit
  const pending = await db.transaction(async (tx): Promise<{ id: number; number: string } | null> => {
    // re-read under lock: what another run has despatched meanwhile is no longer despatching
    const rows: Row[] = await tx
      .select()
      .from(consignments)
      .where(
        and(
          inArray(consignments.id, group.ids),
          eq(consignments.state, "despatching"),
          group.manifestId ? eq(consignments.manifestId, group.manifestId) : isNull(consignments.manifestId),
        ),
      )
      .orderBy(asc(consignments.id))
      .for("update");
    if (!rows.length) return null;

    const unnumbered = rows.filter((r) => !r.consignmentNumber);
    const numbers = await allocateConsignmentNumbers(tx, group.carrierAccountId, unnumbered.length);
    const numberOf = new Map(unnumbered.map((r, i) => [r.id, numbers[i]!]));
    // a despatched consignment can always be reprinted: labels never printed (saved, then
    // despatched) or changed since (merged, consolidated) get the SSCCs they lack now
    const labels = await completeLabelRecords(tx, rows.map((r) => ({ id: r.id, carrierAccountId: group.carrierAccountId })), { writeTotals: false });
    const now = new Date();

    let manifestId = group.manifestId;
    let manifestNumber: string;
    if (manifestId) {
      const [m] = await tx.select({ number: manifests.number }).from(manifests).where(eq(manifests.id, manifestId));
      manifestNumber = m!.number;
    } else {
      manifestNumber = await allocateManifestNumber(tx, group.carrierAccountId);
      const [m] = await tx
        .insert(manifests)
        .values({
          customerId,
          siteId: group.siteId,
          carrierAccountId: group.carrierAccountId,
          number: manifestNumber,
          despatchTime: now,
          despatchedBy: userId,
          printConnote: rows.some((r) => r.printConnote),
          printDangerousGoodsDocuments: rows.some((r) => r.printDangerousGoodsDocuments),
        })
        .returning({ id: manifests.id });
      manifestId = m!.id;
    }

    let outcome: DespatchOutcome;
    try {
      outcome = await adapter.despatchManifest({
        number: manifestNumber,
        accountNumber: group.accountNumber,
        consignments: rows.map((r) => ({ id: r.id, consignmentNumber: r.consignmentNumber ?? numberOf.get(r.id)!, returnType: r.returnType })),
      });
    } catch (e) {
      outcome = { ok: false, reason: e instanceof Error ? e.message : String(e) };
    }

    await tx
      .update(manifests)
      .set(
        outcome.ok
          ? { status: outcome.ready ? "ready" : "pending", failedDespatch: false, failureReason: null, despatchTime: now, despatchedBy: userId }
          : { status: "failed", failedDespatch: true, failureReason: outcome.reason, despatchTime: now, despatchedBy: userId },
      )
      .where(eq(manifests.id, manifestId));
    const changes: { id: number; version: number; from: string; to: string }[] = [];
    const despatchedRows: (typeof consignments.$inferSelect)[] = [];
    for (const r of rows) {
      const state = transition(r.state, outcome.ok ? "despatch_succeeded" : "despatch_failed");
      const [saved] = await tx
        .update(consignments)
        .set({
          state,
          manifestId,
          consignmentNumber: r.consignmentNumber ?? numberOf.get(r.id)!,
          numberOfLabels: labels.get(r.id)!,
          cancellationAllowedDate: outcome.ok ? new Date(now.getTime() + CANCELLATION_WINDOW_HOURS * 3600_000) : r.cancellationAllowedDate,
          version: sql`${consignments.version} + 1`,
          updatedAt: now,
        })
        .where(eq(consignments.id, r.id))
        .returning();
      changes.push({ id: r.id, version: saved!.version, from: r.state, to: state });
      if (outcome.ok) despatchedRows.push(saved!);
    }
    await writeStateChanges(tx, changes, userId);
    // with the despatch's own commit: a manifest the carrier refused (rolled back) sends none
    await emitEvents(tx, despatchedRows.map((row) => ({ type: "consignment.despatched" as const, customerId, consignmentId: row.id, payload: () => webhookConsignmentJson(tx, row) })));
    if (unnumbered.length) {
      const versionOf = new Map(changes.map((c) => [c.id, c.version]));
      await tx.insert(consignmentChanges).values(
        unnumbered.map((r) => ({ consignmentId: r.id, version: versionOf.get(r.id)!, field: "consignment_number", fromValue: null, toValue: numberOf.get(r.id)!, changedBy: userId })),
      );
    }
    return outcome.ok && !outcome.ready ? { id: manifestId, number: manifestNumber } : null;
  });

  // a carrier that makes its manifest after the despatch: ask whether it is ready (or failed)
  if (pending) {
    const status = await adapter.manifestStatus(pending.number);
    if (status !== "pending") await db.update(manifests).set({ status }).where(eq(manifests.id, pending.id));
  }
}

export const notDespatchedError = (ids: number[]) => `Not despatched Consignment(s): ${ids.join(", ")}`;

/**
 * The job's closing message and its errors (none when all went). Success is claimed only when
 * every selected consignment was despatched; otherwise the count says how many were.
 */
export function despatchOutcome(result: DespatchResult, redespatch = false): { message: string; errors: string[] } {
  const notDespatched = result.not_despatched ?? [];
  const missing = notDespatched.length ? [notDespatchedError(notDespatched)] : [];
  if (result.failed.length) {
    if (redespatch) return { message: REDESPATCH_FAILED, errors: [REDESPATCH_FAILED, ...missing] };
    const errors = [
      ...(result.failed_numbers.length ? [`Despatch failed Consignment(s): ${result.failed_numbers.join(", ")}`] : []),
      ...(result.failed_return_numbers.length ? [`Return failed to despatch: ${result.failed_return_numbers.join(", ")}`] : []),
      ...missing,
    ];
    return { message: DESPATCH_FAILED, errors };
  }
  if (missing.length) return { message: result.despatched.length ? progressMessage(result.despatched.length, result.total) : NO_MANIFESTS, errors: missing };
  return { message: result.emailed ? EMAILED : DESPATCHED, errors: [] };
}

const returnDespatchSchema = z.object({ send_email: bool });

/**
 * POST /api/returns/{id}/despatch { send_email }: despatches a return or third-party pickup; with
 * send_email its labels and manifest then go to the pickup contact (which needs an address).
 */
export async function despatchReturn(db: DbOrTx, queue: JobQueue, user: CurrentUser, id: number, raw: unknown): Promise<{ job_id: string }> {
  const { send_email } = parseOrThrow(returnDespatchSchema, raw);
  const c = await getConsignment(db, user, id);
  if (!c.return_type || c.is_quote) throw notFound("Return");
  if (send_email && !c.return_info?.email) throw new AppError("invalid", NO_EMAIL, { email: [NO_EMAIL] });
  return requestDespatch(db, queue, user, { ids: [id] }, { sendEmail: send_email });
}
