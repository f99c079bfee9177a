/**
 * The export report (issue 15 item 4; spec 1 lines 69, 107, 142, 193, 241): the criteria are
 * checked and scoped here, the export itself runs as the "exports.run" job (one path for small
 * and large), and its file is downloaded by the user who asked for it.
 */
import { aliasedTable, and, count, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carriers, consignmentEmissions, consignments, jobs, services, sites } from "../../../db/schema";
import { fileResponse, requireFile } from "../files/index.server";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { isAdmin, type AccessSubject } from "../auth/roles";
import type { JobQueue } from "../jobs/queue";
import { AppError, notFound } from "../../utils/errors";
import { rowsOf } from "../../utils/sql-rows";
import { parseOrThrow } from "../../utils/validation";
import { exportHeaders, exportRow, type ExportSource } from "./columns";
import { ALL_SITES, FORMATS, MESSAGES, checkCriteria, criteriaSchema, exportFilename } from "./criteria";
import { writeExportFile } from "./files.server";

export const EXPORT_JOB = "exports.run";
/** Rows read per keyset page: 1,000 kept the CSV export's RSS growth at 66 MB against 140 MB with 5,000, at the same speed (bench/exports.ts). */
export const PAGE = 1000;

/** The menu entry and /export need can_export, for every role (spec 1 line 43: the flag gates the entry). */
export const canExport = (u: AccessSubject) => Boolean(u.canExport);
/** The New Export button (spec 2 line 191): admins and super admins (devs count as super admins). */
export const canNewExport = (u: AccessSubject) => u.role === "admin" || u.role === "super_admin" || u.role === "devs";
/** Staff (admins incl. customer service, super admins) may export more than 3 months. */
export const rangeLimited = (u: AccessSubject) => !isAdmin(u);

export const exportPayload = z.object({
  customerId: z.number().int().positive(),
  siteIds: z.array(z.number().int().positive()),
  from: z.string(),
  to: z.string(),
  format: z.enum(FORMATS),
  newExport: z.boolean(),
});
export type ExportPayload = z.infer<typeof exportPayload>;

export interface ExportResult {
  rows: number;
  /** the stored file's id (the file store's, docs/decisions/030) */
  file: string;
  /** the name the download is given */
  filename: string;
  format: "csv" | "xlsx";
}

export const exportMessage = (r: ExportResult) => `Exported ${r.rows} consignment(s).`;

/**
 * POST /api/exports and the /export form: checks and scopes the criteria and queues the job.
 * 403 without can_export, or for new_export when not an admin; 422 per field.
 */
export async function requestExport(queue: JobQueue, user: CurrentUser, raw: Record<string, unknown>): Promise<{ job_id: string }> {
  authorize(user, canExport);
  const parsed = parseOrThrow(criteriaSchema, raw);
  if (parsed.new_export) authorize(user, canNewExport);
  const { criteria, errors } = checkCriteria(parsed, rangeLimited(user));
  let siteIds = user.siteIds;
  if (criteria.siteCode !== ALL_SITES) {
    const site = user.sites.find((s) => s.code.toUpperCase() === criteria.siteCode);
    if (site) siteIds = [site.id];
    else errors.site_code = [MESSAGES.unknownSite];
  }
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  const payload: ExportPayload = { customerId: user.customer.id, siteIds, from: criteria.from, to: criteria.to, format: criteria.format, newExport: criteria.newExport };
  const { jobId } = await queue.enqueue(EXPORT_JOB, payload, { userId: user.id, customerId: user.customer.id, siteIds });
  return { job_id: jobId };
}

const sender = aliasedTable(addresses, "sender");
const receiver = aliasedTable(addresses, "receiver");

/** Served by consignments_customer_date_idx (customer_id, despatch_date, id). */
function scope(p: ExportPayload): SQL {
  return and(
    eq(consignments.customerId, p.customerId),
    p.siteIds.length ? inArray(consignments.siteId, p.siteIds) : sql`false`,
    eq(consignments.active, true),
    eq(consignments.isQuote, false),
    gte(consignments.despatchDate, p.from),
    lte(consignments.despatchDate, p.to),
  )!;
}

/** A page's row: the export's source less the names looked up once per export. */
type PageRow = Omit<ExportSource, "siteCode" | "serviceName" | "carrierName"> & { id: number; siteId: number; serviceId: number | null };

/**
 * One keyset page after (date, id), in despatch date then id order. A plain statement with its
 * columns named as the source's fields: drizzle's per-cell mapping of the same select was 37% of
 * the CSV export's CPU (bench/exports.ts). Dates come as ISO text on both engines; the creation
 * date is the UTC day, as a timestamp's toISOString gave it.
 */
async function page(db: DbOrTx, p: ExportPayload, after: { date: string; id: number } | null): Promise<PageRow[]> {
  const c = consignments;
  return rowsOf<PageRow>(
    await db.execute(sql`
      select ${c.id} as "id", ${c.consignmentNumber} as "consignmentNumber", ${c.reference} as "reference",
        ${c.customReference} as "customReference", ${c.siteId} as "siteId", ${c.serviceId} as "serviceId",
        ${c.despatchDate}::text as "despatchDate", ${c.estimatedDeliveryDate}::text as "estimatedDeliveryDate",
        (${c.createdAt} at time zone 'UTC')::date::text as "createdAt", ${c.state} as "state", ${c.returnType} as "returnType",
        ${sender.name} as "senderName", ${sender.locality} as "senderLocality", ${sender.region} as "senderRegion", ${sender.postcode} as "senderPostcode",
        ${receiver.name} as "receiverName", ${receiver.locality} as "receiverLocality", ${receiver.region} as "receiverRegion", ${receiver.postcode} as "receiverPostcode",
        ${c.itemCount} as "itemCount", ${c.totalWeight} as "totalWeight", ${c.totalVolume} as "totalVolume",
        ${c.serviceRate} as "serviceRate", ${c.serviceRateExclGst} as "serviceRateExclGst",
        ${p.newExport ? c.ratingDetail : sql`null`} as "ratingDetail", ${consignmentEmissions.kgCo2e} as "kgCo2e"
      from ${c}
      left join ${consignmentEmissions} on ${consignmentEmissions.consignmentId} = ${c.id}
      left join ${addresses} as "sender" on ${sender.id} = ${c.senderAddressId}
      left join ${addresses} as "receiver" on ${receiver.id} = ${c.receiverAddressId}
      where ${and(scope(p), after ? sql`(${c.despatchDate}, ${c.id}) > (${after.date}::date, ${after.id})` : undefined)}
      order by ${c.despatchDate}, ${c.id}
      limit ${PAGE}`),
  );
}

/** Site codes and service and carrier names, read once: a join per row cost more than the lookups. */
async function lookups(db: DbOrTx, customerId: number) {
  const [siteRows, serviceRows] = await Promise.all([
    db.select({ id: sites.id, code: sites.code }).from(sites).where(eq(sites.customerId, customerId)),
    db.select({ id: services.id, name: services.name, carrier: carriers.name }).from(services).innerJoin(carriers, eq(carriers.id, services.carrierId)),
  ]);
  return { sites: new Map(siteRows.map((r) => [r.id, r.code])), services: new Map(serviceRows.map((r) => [r.id, r])) };
}

/** The job: counts, then writes page after page into a new stored file; answers which. */
export async function runExport(db: DbOrTx, p: ExportPayload, progress: (pct: number, message: string) => Promise<void>): Promise<ExportResult> {
  const [{ total }] = (await db.select({ total: count() }).from(consignments).where(scope(p))) as [{ total: number }];
  const names = await lookups(db, p.customerId);
  const filename = exportFilename({ ...p });
  let rows = 0;
  const file = await writeExportFile(db, { format: p.format, name: filename, customerId: p.customerId }, exportHeaders(p.newExport), async (writer) => {
    // the next page is asked for before this one is written, so the database works meanwhile
    let pending = page(db, p, null);
    for (;;) {
      const batch = await pending;
      const last = batch[batch.length - 1];
      if (batch.length === PAGE) {
        pending = page(db, p, { date: last!.despatchDate!, id: last!.id });
        // awaited next time round; a write failing first must not leave its rejection unhandled
        pending.catch(() => {});
      }
      for (const row of batch) {
        const service = row.serviceId == null ? undefined : names.services.get(row.serviceId);
        // the names set on the page's own row: a copy per row was 5% of the CSV export's CPU
        const source = row as ExportSource & PageRow;
        source.siteCode = names.sites.get(row.siteId) ?? null;
        source.serviceName = service?.name ?? null;
        source.carrierName = service?.carrier ?? null;
        await writer.write(exportRow(source, p.newExport));
      }
      rows += batch.length;
      if (batch.length < PAGE) break;
      await progress(Math.min(99, Math.floor((rows / Math.max(1, Number(total))) * 100)), `Exported ${rows} of ${total} consignments...`);
    }
  });
  return { rows, file: file.id, filename, format: p.format };
}

/**
 * GET /api/exports/{jobId}/download: the file of the user's own finished export, read from the
 * file store (any host's worker wrote it), while the user works for the customer it holds;
 * anyone else's, or one not there (expired), 404.
 */
export async function downloadExport(db: DbOrTx, user: CurrentUser, jobId: string): Promise<Response> {
  authorize(user, canExport);
  if (!/^[0-9a-f-]{36}$/i.test(jobId)) throw notFound("Export");
  const [job] = await db
    .select({ status: jobs.status, info: jobs.info })
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.name, EXPORT_JOB), eq(jobs.userId, user.id)));
  const info = job?.status === "complete" ? (job.info as Partial<ExportResult>) : null;
  if (!info?.file) throw notFound("Export");
  // gone (expired) or damaged: a 404 or 409 saying so, logged
  const file = await requireFile(db, info.file, `export ${jobId}`);
  // the file's own scope as well as the job's: a user moved to another customer no longer reads this one's
  if (file.kind !== "export" || file.customerId !== user.customer.id) throw notFound("Export");
  const res = fileResponse(db, file);
  res.headers.set("Cache-Control", "private, no-store");
  return res;
}
