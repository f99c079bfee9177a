/**
 * Invoicing (issue 19 point 5, decision 020-invoicing): reconciled payable lines billed to their
 * customers as receivable invoices. startInvoicing checks the ids and queues the job; the job
 * groups the invoiceable lines by the customer's invoice_allocate_by, writes each invoice in its
 * own transaction (gapless number, sell lines, GST shared among the lines), then renders its PDF
 * and e-mails it (pdf.server.ts). Running it again bills nothing twice: a line is billed once,
 * by the unique source_detail_id.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { consignments, customers, invoiceCosts, invoiceDetails, invoices, reconciliations, sites } from "../../../db/schema";
import type { CostCategory } from "../../../db/schema/finance";
import type { PostalAddress } from "../../../db/schema/tenancy";
import type { JobQueue } from "../../../queues/queue.server";
import type { CurrentUser } from "../auth/current-user.server";
import { assertWriter } from "../allocation/rules.server";
import { todayIn } from "../calendar/site-time";
import { financeScope } from "../invoices/access";
import type { Mailer } from "../mail/mailer.server";
import type { Renderer } from "../printing/renderer.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { invoiceGst } from "./gst";
import { billingAddressOf, groupKeyOf, type BillingSite } from "./grouping";
import { invoiceableIds, invoiceableSql } from "./invoiceable.server";
import { centsToAmount } from "./money";
import { deliverInvoice } from "./pdf.server";
import { sellFor, type SellSource } from "./sell";

export const INVOICING_JOB = "invoices.invoice";
export const INVOICING_MESSAGES = {
  done: "Invoicing complete",
  error: "Invoicing error",
  chooseLines: "Choose at least one line.",
  noneInvoiceable: "None of those lines can be invoiced: they are not reconciled, already invoiced or not yours.",
};
/** the sequence customer invoices are numbered from (invoice_number_sequences.name) */
export const RECEIVABLE_SEQUENCE = "receivable";
export const formatInvoiceNumber = (n: number) => `INV-${String(n).padStart(6, "0")}`;

/** POST /api/invoices { invoice_detail_ids } */
export const invoicingInput = z.object({
  invoice_detail_ids: z.array(z.coerce.number().int().positive("Must be an id"), INVOICING_MESSAGES.chooseLines).min(1, INVOICING_MESSAGES.chooseLines).max(10_000, "At most 10000 lines at once"),
});
export const invoicingPayload = z.object({
  invoiceDetailIds: z.array(z.number().int().positive()).min(1),
  userId: z.number().int().positive().nullable(),
});

export interface InvoicingResult {
  /** the invoices made: id, number, customer, lines, whether e-mailed, and why not */
  invoices: Array<{ id: number; invoice_number: string; customer_name: string; lines: number; total: string; emailed: boolean; pdf: boolean; problem: string | null }>;
  /** asked for but no longer invoiceable when the job ran (billed meanwhile, or reset) */
  skipped: number;
}

export function invoicingMessage(r: InvoicingResult): string {
  const lines = r.invoices.reduce((a, i) => a + i.lines, 0);
  const parts = [`${r.invoices.length} invoice${r.invoices.length === 1 ? "" : "s"} for ${lines} line${lines === 1 ? "" : "s"}`];
  if (r.skipped) parts.push(`${r.skipped} line${r.skipped === 1 ? "" : "s"} no longer invoiceable, skipped`);
  const head = invoicingErrors(r).length ? INVOICING_MESSAGES.error : INVOICING_MESSAGES.done;
  const notes = r.invoices.filter((i) => i.problem).map((i) => `${i.invoice_number}: ${i.problem}`);
  return `${head}: ${parts.join("; ")}.${notes.length ? ` ${notes.join(" ")}` : ""}`;
}

/** what went wrong although the invoices were made: a PDF that could not be rendered or sent */
export const invoicingErrors = (r: InvoicingResult) => r.invoices.filter((i) => !i.pdf).map((i) => `${i.invoice_number}: ${i.problem ?? "no PDF"}`);

/**
 * POST /api/invoices and the screens' Invoice: invoice admins only. Ids the user cannot see, or
 * that are not invoiceable, are skipped; when none of them is invoiceable it is refused (422), so
 * a person is told at once rather than by an empty job (decision 020-invoicing).
 */
export async function startInvoicing(db: DbOrTx, queue: JobQueue, user: CurrentUser, raw: unknown): Promise<{ job_id: string }> {
  assertWriter(user);
  const input = parseOrThrow(invoicingInput, raw);
  const ids = await invoiceableIds(db, financeScope(user), [...new Set(input.invoice_detail_ids)]);
  if (!ids.length) throw new AppError("invalid", INVOICING_MESSAGES.noneInvoiceable, { invoice_detail_ids: [INVOICING_MESSAGES.noneInvoiceable] });
  const { jobId } = await queue.enqueue(INVOICING_JOB, { invoiceDetailIds: ids, userId: user.id }, { userId: user.id, customerId: user.customer.id });
  return { job_id: jobId };
}

type Loaded = Awaited<ReturnType<typeof loadLines>>[number];

async function loadLines(db: DbOrTx, ids: number[]) {
  return db
    .select({
      d: invoiceDetails,
      recId: reconciliations.id,
      chargeFromConsignment: reconciliations.chargeFromConsignment,
      rerateDetail: reconciliations.rerateDetail,
      ratingDetail: consignments.ratingDetail,
      customerName: customers.name,
      customerOptions: customers.options,
      customerBilling: customers.billingAddress,
    })
    .from(invoiceDetails)
    .innerJoin(reconciliations, eq(reconciliations.invoiceDetailId, invoiceDetails.id))
    .innerJoin(customers, eq(customers.id, invoiceDetails.customerId))
    .leftJoin(consignments, eq(consignments.id, invoiceDetails.consignmentId))
    .where(and(inArray(invoiceDetails.id, ids), invoiceableSql))
    .orderBy(asc(invoiceDetails.customerId), asc(invoiceDetails.despatchDate), asc(invoiceDetails.consignmentNumber), asc(invoiceDetails.id));
}

interface Group {
  customerId: number;
  customerName: string;
  groupKey: string;
  billingAddress: PostalAddress;
  invoiceDate: string;
  lines: Loaded[];
}

async function groupLines(db: DbOrTx, lines: Loaded[]): Promise<Group[]> {
  const customerIds = [...new Set(lines.map((l) => l.d.customerId!))];
  const siteRows = await db.select().from(sites).where(inArray(sites.customerId, customerIds));
  const byId = new Map(siteRows.map((s) => [s.id, s]));
  const groups = new Map<string, Group>();
  for (const l of lines) {
    const customerId = l.d.customerId!;
    const options = l.customerOptions ?? {};
    const key = groupKeyOf(options.invoice_allocate_by, { customerId, siteId: l.d.siteId, receiverRegion: l.d.receiverRegion });
    const mapKey = `${customerId}|${key}`;
    const existing = groups.get(mapKey);
    if (existing) {
      existing.lines.push(l);
      continue;
    }
    const site = l.d.siteId != null ? (byId.get(l.d.siteId) ?? null) : null;
    const billingAddress = billingAddressOf({
      from: options.billing_address_from,
      customer: { name: l.customerName, billingAddress: l.customerBilling },
      consignorSite: site as BillingSite | null,
      region: options.invoice_allocate_by === "REGION" ? l.d.receiverRegion : (site?.region ?? l.d.senderRegion),
      // a site of this customer only: another customer's site id in the option is not followed
      siteById: (id) => {
        const s = byId.get(id);
        return s && s.customerId === customerId ? (s as BillingSite) : null;
      },
    });
    groups.set(mapKey, { customerId, customerName: l.customerName, groupKey: key, billingAddress, invoiceDate: todayIn(site?.timezone ?? "Australia/Sydney"), lines: [l] });
  }
  return [...groups.values()];
}

/** A line another run billed first: its invoice is written again without it. */
class AlreadyBilled extends Error {
  constructor(readonly billed: number[]) {
    super("already billed");
  }
}

const LINE_COPY = (d: Loaded["d"]) => ({
  carrierId: d.carrierId,
  customerId: d.customerId,
  siteId: d.siteId,
  serviceId: d.serviceId,
  unquoted: d.unquoted,
  consignmentId: d.consignmentId,
  consignmentNumber: d.consignmentNumber,
  senderName: d.senderName,
  senderLocality: d.senderLocality,
  senderPostcode: d.senderPostcode,
  senderRegion: d.senderRegion,
  senderZone: d.senderZone,
  senderCountry: d.senderCountry,
  receiverName: d.receiverName,
  receiverLocality: d.receiverLocality,
  receiverPostcode: d.receiverPostcode,
  receiverRegion: d.receiverRegion,
  receiverZone: d.receiverZone,
  accountNumber: d.accountNumber,
  parentAccountNumber: d.parentAccountNumber,
  payer: d.payer,
  reference: d.reference,
  serviceDescription: d.serviceDescription,
  despatchDate: d.despatchDate,
  totalQuantity: d.totalQuantity,
  totalWeightInUom: d.totalWeightInUom,
  totalChargeWeight: d.totalChargeWeight,
  totalVolumeInUomCubed: d.totalVolumeInUomCubed,
  dangerousGoods: d.dangerousGoods,
});

/** The next number of the gapless sequence: taken inside the invoice's transaction, given back if it rolls back. */
export async function takeInvoiceNumber(tx: DbOrTx): Promise<string> {
  const raw = (await tx.execute(
    sql`insert into invoice_number_sequences (name, last_value) values (${RECEIVABLE_SEQUENCE}, 1)
        on conflict (name) do update set last_value = invoice_number_sequences.last_value + 1 returning last_value`,
  )) as unknown as { rows?: Array<{ last_value: number }> } | Array<{ last_value: number }>;
  const rows = Array.isArray(raw) ? raw : (raw.rows ?? []);
  return formatInvoiceNumber(Number(rows[0]!.last_value));
}

/**
 * Writes one invoice and its lines. One transaction per invoice: the race it settles is two runs
 * (a person's and a schedule's) billing the same line; the unique source_detail_id lets one
 * through, and the other, finding its line taken, rolls back (giving its number back) and is
 * written again without that line. The number is taken last, so the sequence's row lock is held
 * only for the end of the transaction and invoices are numbered in commit order.
 */
async function writeInvoice(db: Db, group: Group, userId: number | null, costsOf: Map<number, Array<{ category: string; description: string; amount: string }>>) {
  let lines = group.lines;
  for (;;) {
    if (!lines.length) return null;
    try {
      return await db.transaction(async (tx) => {
        const sells = lines.map((l) =>
          sellFor({ chargeFromConsignment: l.chargeFromConsignment, rating: (l.rerateDetail ?? l.ratingDetail) as SellSource["rating"], invoiceCosts: costsOf.get(l.d.id) ?? [] }),
        );
        // sell lines are cents; invoiceGst reads amounts as dollars
        const gst = invoiceGst(group.billingAddress.country, sells.map((s) => ({ costs: s.lines.map((l) => ({ category: l.category, amount: centsToAmount(l.amount) })) })));
        const [inv] = await tx
          .insert(invoices)
          .values({
            accountingType: "receivable",
            state: "invoiced",
            customerId: group.customerId,
            invoiceDate: group.invoiceDate,
            subtotal: centsToAmount(gst.subtotal),
            gst: centsToAmount(gst.gst),
            total: centsToAmount(gst.total),
            billingAddress: group.billingAddress,
            groupKey: group.groupKey,
            createdById: userId,
          })
          .returning({ id: invoices.id });
        const inserted = await tx
          .insert(invoiceDetails)
          .values(lines.map((l, i) => ({ ...LINE_COPY(l.d), invoiceId: inv!.id, lineNumber: i + 1, state: "invoiced", sourceDetailId: l.d.id, totalCost: centsToAmount(gst.lines[i]!.subtotal + gst.lines[i]!.gst) })))
          .onConflictDoNothing({ target: invoiceDetails.sourceDetailId, where: sql`source_detail_id is not null` })
          .returning({ id: invoiceDetails.id, source: invoiceDetails.sourceDetailId });
        if (inserted.length !== lines.length) {
          const got = new Set(inserted.map((r) => r.source));
          throw new AlreadyBilled(lines.filter((l) => !got.has(l.d.id)).map((l) => l.d.id));
        }
        const idOf = new Map(inserted.map((r) => [r.source!, r.id]));
        const costRows = lines.flatMap((l, i) => {
          const detailId = idOf.get(l.d.id)!;
          const rows = sells[i]!.lines.map((s) => ({ invoiceDetailId: detailId, category: s.category as CostCategory, description: s.description, amount: centsToAmount(s.amount) }));
          if (gst.tax_name) rows.push({ invoiceDetailId: detailId, category: "gst", description: gst.tax_name, amount: centsToAmount(gst.lines[i]!.gst) });
          return rows;
        });
        if (costRows.length) await tx.insert(invoiceCosts).values(costRows);
        await tx.execute(sql`update reconciliations r set customer_invoice_detail_id = d.id, updated_at = now()
          from invoice_details d where d.invoice_id = ${inv!.id} and d.source_detail_id = r.invoice_detail_id`);
        const number = await takeInvoiceNumber(tx);
        await tx.update(invoices).set({ invoiceNumber: number }).where(eq(invoices.id, inv!.id));
        return { id: inv!.id, invoice_number: number, customer_name: group.customerName, lines: lines.length, total: centsToAmount(gst.total) };
      });
    } catch (e) {
      if (!(e instanceof AlreadyBilled)) throw e;
      const taken = new Set(e.billed);
      lines = lines.filter((l) => !taken.has(l.d.id));
    }
  }
}

/** The job: invoices `invoiceDetailIds` still invoiceable; progress per invoice. A run that throws ends 'Invoicing error: ...' (spec 3). */
export async function runInvoicing(
  services: { db: Db; mailer: Mailer; renderer: Renderer },
  payload: z.infer<typeof invoicingPayload>,
  progress: (pct: number, message: string) => Promise<void> = async () => {},
): Promise<InvoicingResult> {
  try {
    return await invoiceLines(services, payload, progress);
  } catch (e) {
    // the invoices committed before the failure stand; the job's message names the failure
    throw new Error(`${INVOICING_MESSAGES.error}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

async function invoiceLines(
  services: { db: Db; mailer: Mailer; renderer: Renderer },
  payload: z.infer<typeof invoicingPayload>,
  progress: (pct: number, message: string) => Promise<void> = async () => {},
): Promise<InvoicingResult> {
  const { db } = services;
  const lines = await loadLines(db, payload.invoiceDetailIds);
  const result: InvoicingResult = { invoices: [], skipped: new Set(payload.invoiceDetailIds).size - lines.length };
  if (!lines.length) return result;
  const costsOf = new Map<number, Array<{ category: string; description: string; amount: string }>>();
  for (let i = 0; i < lines.length; i += 1000) {
    const part = lines.slice(i, i + 1000).map((l) => l.d.id);
    const rows = await db.select({ detailId: invoiceCosts.invoiceDetailId, category: invoiceCosts.category, description: invoiceCosts.description, amount: invoiceCosts.amount }).from(invoiceCosts).where(inArray(invoiceCosts.invoiceDetailId, part)).orderBy(asc(invoiceCosts.id));
    for (const c of rows) {
      const list = costsOf.get(c.detailId) ?? [];
      list.push(c);
      costsOf.set(c.detailId, list);
    }
  }
  const groups = await groupLines(db, lines);
  let n = 0;
  for (const group of groups) {
    const written = await writeInvoice(db, group, payload.userId, costsOf);
    n += 1;
    if (!written) {
      result.skipped += group.lines.length;
      continue;
    }
    result.skipped += group.lines.length - written.lines;
    // after the commit: a PDF or an e-mail that fails leaves the invoice made, and says so
    const delivered = await deliverInvoice(services, written.id);
    result.invoices.push({ ...written, ...delivered });
    await progress(Math.round((n / groups.length) * 100), `Invoiced ${n} of ${groups.length} invoices`);
  }
  return result;
}
