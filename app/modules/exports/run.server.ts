/**
 * The export job ("exports.run"): reads the scoped consignments a keyset page at a time and
 * writes them into a stored file. Kept apart from the requests around it (exports.server.ts) so
 * the export's own thread (export-thread.ts) loads what the job needs and nothing else.
 */
import { aliasedTable, and, count, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { addresses, carriers, consignmentEmissions, consignments, services, sites } from "../../../db/schema";
import { rowsOf } from "../../utils/sql-rows";
import { exportHeaders, exportRow, type ExportSource } from "./columns";
import { FORMATS, exportFilename } from "./criteria";
import { writeExportFile } from "./files.server";

export const EXPORT_JOB = "exports.run";
/** Rows read per keyset page: 1,000 kept the CSV export's RSS growth at 66 MB against 140 MB with 5,000, at the same speed (bench/exports.ts). */
export const PAGE = 1000;

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
  // the first page, the count and the names asked for together: a thread starts with none of them
  const first = page(db, p, null);
  first.catch(() => {});
  const [[{ total }], names] = (await Promise.all([db.select({ total: count() }).from(consignments).where(scope(p)), lookups(db, p.customerId)])) as [[{ total: number }], Awaited<ReturnType<typeof lookups>>];
  const filename = exportFilename({ ...p });
  let rows = 0;
  const file = await writeExportFile(db, { format: p.format, name: filename, customerId: p.customerId }, exportHeaders(p.newExport), async (writer) => {
    // the next page is asked for before this one is written, so the database works meanwhile
    let pending = first;
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
