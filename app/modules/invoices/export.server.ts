/**
 * Export of invoices (issue 18 item 7): CSV or XLSX of their lines and cost lines for the
 * accounts team, through the exports module's writers (text cells neutralised against formulas),
 * or through the accounting link: payable invoices as bills where the carrier is mapped to a
 * supplier, receivable ones as sales (invoicing/export-sales.server.ts). Exported payable invoices
 * and their lines get state exported; receivable ones keep state invoiced; both get exported_at
 * and export_info. One call exports one kind.
 */
import { Readable } from "node:stream";
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, customers, invoiceCosts, invoiceDetails, invoices, services, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { exportPayableBill } from "../accounting/connection.server";
import type { PayableBill } from "../accounting/adapter";
import { writeExportFile } from "../exports/files.server";
import { deleteFile, openFile, safeFileName, statFile } from "../files/index.server";
import { exportSales, markReceivableExported, SALES_EXPORT_MESSAGES, type SalesExportOutcome } from "../invoicing/export-sales.server";
import type { Cell } from "../exports/columns";
import { neutraliseFormula } from "../../utils/csv.server";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { canAdministerInvoices } from "./access";
import { costSumsByCategory } from "./cost-sums.server";
import { COST_CATEGORIES, costCategoryLabel, exportSchema, INVOICE_MESSAGES } from "./schemas";

const LINE_HEADERS = [
  "Carrier",
  "Invoice number",
  "Invoice date",
  "Line",
  "State",
  "Consignment number",
  "Customer",
  "Site",
  "Service",
  "Account number",
  "Reference",
  "Service description",
  "Despatch date",
  "Sender",
  "Sender suburb",
  "Sender postcode",
  "Sender zone",
  "Receiver",
  "Receiver suburb",
  "Receiver postcode",
  "Receiver zone",
  "Quantity",
  "Dead weight",
  "Charge weight",
  "Volume",
  "Total cost",
  ...COST_CATEGORIES.map(costCategoryLabel),
];

/** A receivable invoice's file: its customer first, each line's carrier where a payable's has its customer, sell amounts. */
const RECEIVABLE_HEADERS = LINE_HEADERS.map((h) => (h === "Carrier" ? "Customer" : h === "Customer" ? "Carrier" : h === "Total cost" ? "Total sell" : h));

const n = (v: string | null) => (v == null ? null : Number(v));
const t = (v: string | null) => (v == null ? null : neutraliseFormula(v));

type Kind = "payable" | "receivable";

/** The one kind of the ids' invoices: a 404 naming none when one is missing, a 400 when they mix kinds. */
async function kindOf(db: DbOrTx, ids: number[]): Promise<Kind> {
  const rows = await db.select({ kind: invoices.accountingType, n: sql<number>`count(*)::int` }).from(invoices).where(inArray(invoices.id, ids)).groupBy(invoices.accountingType);
  if (rows.reduce((a, r) => a + Number(r.n), 0) !== new Set(ids).size) throw notFound("Invoice");
  if (rows.length > 1) throw new AppError("bad_request", SALES_EXPORT_MESSAGES.mixed, { ids: [SALES_EXPORT_MESSAGES.mixed] });
  return rows[0]!.kind;
}

/** The invoices of the ids of one kind, locked, or a 404 naming none of them. */
async function invoicesOf(tx: DbOrTx, ids: number[], kind: Kind) {
  const rows = await tx
    .select({
      id: invoices.id,
      number: invoices.invoiceNumber,
      date: invoices.invoiceDate,
      carrierId: invoices.carrierId,
      carrierName: carriers.name,
      supplier: carriers.myobUid,
      customerName: customers.name,
    })
    .from(invoices)
    .leftJoin(carriers, eq(carriers.id, invoices.carrierId))
    .leftJoin(customers, eq(customers.id, invoices.customerId))
    .where(and(inArray(invoices.id, ids), eq(invoices.accountingType, kind)))
    .orderBy(asc(invoices.id))
    .for("update", { of: invoices });
  if (rows.length !== new Set(ids).size) throw notFound("Invoice");
  return rows;
}

/** A line's carrier (a receivable line keeps the carrier that carried it). */
const lineCarriers = alias(carriers, "line_carriers");

async function markExported(tx: DbOrTx, ids: number[], info: Record<string, unknown>) {
  if (!ids.length) return;
  const now = new Date();
  await tx.update(invoices).set({ state: "exported", exportedAt: now, exportInfo: info }).where(inArray(invoices.id, ids));
  await tx.update(invoiceDetails).set({ state: "exported", updatedAt: now }).where(inArray(invoiceDetails.invoiceId, ids));
}

export type ExportOutcome =
  | { kind: "file"; file: string; exported: number[] }
  | { kind: "accounting"; exported: number[]; bills: Array<{ invoice_id: number; uid: string; total: number }>; skipped: Array<{ invoice_id: number; message: string }>; message: string }
  | SalesExportOutcome;

/** POST /api/invoices/export { ids, format }: admin only; the ids all payable or all receivable. */
export async function exportInvoices(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<ExportOutcome> {
  authorize(user, canAdministerInvoices);
  const { ids, format } = parseOrThrow(exportSchema, raw);
  const kind = await kindOf(db, ids);
  if (format === "accounting") return kind === "receivable" ? exportSales(db, ids) : exportBills(db, ids);
  const exported = await db.transaction(async (tx) => {
    // invoices locked while written, so a delete cannot remove one the file already holds
    const list = await invoicesOf(tx, ids, kind);
    const receivable = kind === "receivable";
    // the file is stored in this transaction: it exists only if the invoices are marked exported
    const name = `invoices-${new Date().toISOString().slice(0, 10)}.${format}`;
    const stored = await writeExportFile(tx, { format, name, customerId: null }, receivable ? RECEIVABLE_HEADERS : LINE_HEADERS, async (writer) => {
      for (const inv of list) {
        const lines = await tx
          .select({ d: invoiceDetails, customer: customers.name, carrier: lineCarriers.name, site: sites.name, service: services.name })
          .from(invoiceDetails)
          .leftJoin(customers, eq(customers.id, invoiceDetails.customerId))
          .leftJoin(lineCarriers, eq(lineCarriers.id, invoiceDetails.carrierId))
          .leftJoin(sites, eq(sites.id, invoiceDetails.siteId))
          .leftJoin(services, eq(services.id, invoiceDetails.serviceId))
          .where(eq(invoiceDetails.invoiceId, inv.id))
          .orderBy(asc(invoiceDetails.lineNumber), asc(invoiceDetails.id));
        const costs = await tx
          .select({ detailId: invoiceCosts.invoiceDetailId, category: invoiceCosts.category, amount: sql<string>`sum(${invoiceCosts.amount})::text` })
          .from(invoiceCosts)
          .innerJoin(invoiceDetails, eq(invoiceDetails.id, invoiceCosts.invoiceDetailId))
          .where(eq(invoiceDetails.invoiceId, inv.id))
          .groupBy(invoiceCosts.invoiceDetailId, invoiceCosts.category);
        const byLine = new Map<number, Map<string, number>>();
        for (const c of costs) byLine.set(c.detailId, (byLine.get(c.detailId) ?? new Map()).set(c.category, Number(c.amount)));
        for (const { d, customer, carrier, site, service } of lines) {
          const cat = byLine.get(d.id);
          const row: Cell[] = [
            t(receivable ? inv.customerName : inv.carrierName),
            t(inv.number),
            inv.date,
            d.lineNumber,
            d.state,
            t(d.consignmentNumber),
            t(receivable ? carrier : customer),
            t(site),
            d.unquoted ? "Unquoted" : t(service),
            t(d.accountNumber),
            t(d.reference),
            t(d.serviceDescription),
            d.despatchDate,
            t(d.senderName),
            t(d.senderLocality),
            t(d.senderPostcode),
            t(d.senderZone),
            t(d.receiverName),
            t(d.receiverLocality),
            t(d.receiverPostcode),
            t(d.receiverZone),
            d.totalQuantity,
            n(d.totalWeightInUom),
            n(d.totalChargeWeight),
            n(d.totalVolumeInUomCubed),
            Number(d.totalCost),
            ...COST_CATEGORIES.map((k) => cat?.get(k) ?? null),
          ];
          await writer.write(row);
        }
      }
    });
    if (receivable) await markReceivableExported(tx, ids, { [format]: true, by: user.id });
    else await markExported(tx, ids, { [format]: true, by: user.id });
    return { ids, file: stored.id };
  });
  return { kind: "file", file: exported.file, exported: exported.ids };
}

/**
 * An invoice export file as a download, once: it is removed from the store once it has been read
 * to its last piece (the nightly cleanup removes any never fetched, as it does every expired export).
 * Null for an id that is no invoice export or one gone.
 */
export async function takeExportFile(db: DbOrTx, id: string): Promise<Response | null> {
  const file = await statFile(db, id);
  // invoice exports are staff-only files (no customer): a customer's export is never taken here
  if (!file || file.kind !== "export" || file.customerId !== null || !file.name.startsWith("invoices-")) return null;
  const body = Readable.from(
    (async function* () {
      let held: Buffer | null = null;
      for await (const piece of openFile(db, file)) {
        if (held) yield held;
        held = piece as Buffer;
      }
      // read whole and checked: removed before its last piece goes, so a reader holding every byte finds it gone
      await deleteFile(db, file.id);
      if (held) yield held;
    })(),
  );
  body.on("error", (e) => console.error(`[files] reading invoice export ${file.id} failed:`, e instanceof Error ? e.message : e));
  return new Response(Readable.toWeb(body) as ReadableStream, {
    headers: { "Content-Type": file.contentType, "Content-Length": String(file.size), "Content-Disposition": `attachment; filename="${safeFileName(file.name)}"` },
  });
}

/**
 * One bill per invoice: a line per cost category (GST is the tax, shared over the lines by
 * amount). Unmapped carriers and refusals are reported per invoice; the rest are exported.
 */
async function exportBills(db: DbOrTx, ids: number[]): Promise<ExportOutcome> {
  const list = await db.transaction((tx) => invoicesOf(tx, ids, "payable"));
  const bills: Array<{ invoice_id: number; uid: string; total: number }> = [];
  const skipped: Array<{ invoice_id: number; message: string }> = [];
  for (const inv of list) {
    if (!inv.supplier) {
      skipped.push({ invoice_id: inv.id, message: INVOICE_MESSAGES.unmapped(inv.carrierName ?? "The carrier") });
      continue;
    }
    const bill = billOf(inv, await costSumsByCategory(db, inv.id));
    if (typeof bill === "string") {
      skipped.push({ invoice_id: inv.id, message: bill });
      continue;
    }
    try {
      // each bill is its own call: the service refuses a number twice, so a retry never doubles one
      const done = await exportPayableBill(db, bill);
      await db.transaction((tx) => markExported(tx, [inv.id], { accounting: { uid: done.uid, total: done.total } }));
      bills.push({ invoice_id: inv.id, uid: done.uid, total: done.total });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      skipped.push({ invoice_id: inv.id, message: `${inv.number ?? "Pending"}: ${e.message}` });
    }
  }
  const message = [INVOICE_MESSAGES.exportedAccounting(bills.length), ...skipped.map((s) => s.message)].join(" ");
  return { kind: "accounting", exported: bills.map((b) => b.invoice_id), bills, skipped, message };
}

/** The bill for one invoice, or why there is none. */
export function billOf(inv: { number: string | null; date: string | null; supplier: string | null }, sums: Array<{ category: string; amount: string }>): PayableBill | string {
  if (!inv.number || !inv.date) return `${inv.number ?? "Pending"}: an invoice needs a number and a date to be a bill.`;
  const gst = sums.filter((s) => s.category === "gst").reduce((a, s) => a + Number(s.amount), 0);
  const lines = sums.filter((s) => s.category !== "gst").map((s) => ({ description: costCategoryLabel(s.category), amount: Number(s.amount), tax: 0 }));
  if (!lines.length) return `${inv.number}: the invoice has no costs to bill.`;
  const base = lines.reduce((a, l) => a + l.amount, 0);
  let left = Math.round(gst * 100);
  lines.forEach((l, i) => {
    const share = i === lines.length - 1 ? left : base ? Math.round((gst * 100 * l.amount) / base) : 0;
    l.tax = share / 100;
    left -= share;
  });
  return { supplierUid: inv.supplier!, number: inv.number, date: inv.date, lines };
}
