/**
 * Receivable invoices as /invoices_receivable and its Send invoice modal read them (issue 19
 * point 5; spec 3 "Invoices receivable"). Scoped by financeScope: staff see every customer's, a
 * customer's finance user their own customer's invoices and invoiceable lines only.
 */
import { and, asc, desc, eq, gte, ilike, lte, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { customers, invoiceDetails, invoices } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { userToday } from "../calendar/site-time";
import { financeScope } from "../invoices/access";
import { invoiceScopeSql, LIST_LIMIT } from "../invoices/list.server";
import { DATE_FILTERS, INVOICE_MESSAGES, listedDates, type DateFilter } from "../invoices/schemas";
import { parseOrThrow } from "../../utils/validation";
import { invoiceableSql, scopeSql } from "./invoiceable.server";

import { RECEIVABLE_MESSAGES, RECEIVABLE_STATES } from "./receivable";

const blank = (v: unknown) => v === "" || v == null;
const optionalId = z.preprocess((v) => (blank(v) || v === "all" ? undefined : v), z.coerce.number().int().positive("Must be an id").optional());
const optionalIso = z.preprocess((v) => (blank(v) ? undefined : v), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Must be a date (YYYY-MM-DD)").optional());

/** The list's filters as they stand in the URL: customer, date (default fortnight) and state. */
export const receivableFilterSchema = z.object({
  customer_id: optionalId,
  date: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(DATE_FILTERS, "Must be one of " + DATE_FILTERS.join(", ")).optional()),
  from: optionalIso,
  to: optionalIso,
  state: z.preprocess((v) => (blank(v) ? undefined : v), z.enum(RECEIVABLE_STATES, "Must be all or invoiced").optional()),
});

export interface ReceivableInvoice {
  id: number;
  invoice_number: string | null;
  invoice_date: string | null;
  state: string;
  customer_id: number | null;
  customer: string;
  subtotal: number;
  gst: number;
  total: number;
  lines: number;
  has_pdf: boolean;
  emailed_at: string | null;
}

/** One receivable invoice as the list (and the invoice.created webhook, docs/decisions/039) gives it. */
export const receivableInvoiceJson = (i: typeof invoices.$inferSelect, customer: string | null, lines: number): ReceivableInvoice => ({
  id: i.id,
  invoice_number: i.invoiceNumber,
  invoice_date: i.invoiceDate,
  state: i.state,
  customer_id: i.customerId,
  customer: customer ?? "",
  subtotal: Number(i.subtotal ?? 0),
  gst: Number(i.gst ?? 0),
  total: Number(i.total),
  lines: Number(lines),
  has_pdf: Boolean(i.pdfPath),
  emailed_at: i.emailedAt?.toISOString() ?? null,
});

/** The receivable list: counters all and invoiced, invoices grouped per customer. */
export async function listReceivable(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>) {
  const f = parseOrThrow(receivableFilterSchema, raw);
  const date: DateFilter = f.date ?? "fortnight";
  const range = listedDates(date, userToday(user), { from: f.from, to: f.to });
  const scope = financeScope(user);
  const base = and(
    eq(invoices.accountingType, "receivable"),
    // a customer's user: only their own customer's invoices
    scope.kind === "all" ? undefined : eq(invoices.customerId, scope.customerId),
    invoiceScopeSql(scope),
    f.customer_id ? eq(invoices.customerId, f.customer_id) : undefined,
    gte(invoices.invoiceDate, range.from),
    range.through == null ? undefined : lte(invoices.invoiceDate, range.through),
  );
  const [c] = await db
    .select({ all: sql<number>`count(*)::int`, invoiced: sql<number>`count(*) filter (where ${invoices.state} = 'invoiced')::int` })
    .from(invoices)
    .where(base);
  const state = f.state ?? "all";
  const rows = await db
    .select({
      i: invoices,
      customer: customers.name,
      lines: sql<number>`(select count(*)::int from invoice_details d where d.invoice_id = ${sql.raw(`"invoices"."id"`)})`,
    })
    .from(invoices)
    .leftJoin(customers, eq(customers.id, invoices.customerId))
    .where(and(base, state === "invoiced" ? eq(invoices.state, "invoiced") : undefined))
    .orderBy(asc(sql`lower(${customers.name})`), desc(invoices.invoiceDate), desc(invoices.id))
    .limit(LIST_LIMIT + 1);
  const list: ReceivableInvoice[] = rows.slice(0, LIST_LIMIT).map((r) => receivableInvoiceJson(r.i, r.customer, r.lines));
  const groups = new Map<string, { customer_id: number | null; customer: string; invoices: ReceivableInvoice[]; total: number; consignments: number }>();
  for (const inv of list) {
    const key = String(inv.customer_id);
    const g = groups.get(key) ?? { customer_id: inv.customer_id, customer: inv.customer, invoices: [], total: 0, consignments: 0 };
    g.invoices.push(inv);
    g.total = Math.round((g.total + inv.total) * 100) / 100;
    g.consignments += inv.lines;
    groups.set(key, g);
  }
  return {
    filters: { carrier_id: "", customer_id: f.customer_id ? String(f.customer_id) : "", date, from: range.from, to: range.to, state },
    counts: { all: Number(c!.all), invoiced: Number(c!.invoiced) },
    groups: [...groups.values()],
    invoices: list,
    truncated: rows.length > LIST_LIMIT,
    message: list.length ? null : INVOICE_MESSAGES.noInvoices,
  };
}

export const INVOICEABLE_ORDER = ["consignment_number", "receiver_name", "despatch_date", "reference", "customer", "total_cost"] as const;
/** The Send invoice modal's filters and sort (in the URL, l_ prefixed on the page). */
export const invoiceableFilterSchema = z.object({
  consignment_number: z.string().trim().max(100).optional().catch(undefined),
  receiver_name: z.string().trim().max(100).optional().catch(undefined),
  despatch_date: optionalIso,
  reference: z.string().trim().max(100).optional().catch(undefined),
  order_by: z.preprocess((v) => (blank(v) ? "despatch_date" : v), z.enum(INVOICEABLE_ORDER)).catch("despatch_date"),
  order_direction: z.preprocess((v) => (blank(v) ? "asc" : v), z.enum(["asc", "desc"])).catch("asc"),
});
export type InvoiceableFilters = z.infer<typeof invoiceableFilterSchema>;

const like = (v: string) => `%${v.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** The invoiceable lines for the Send invoice modal: filtered, sorted, at most 500. */
export async function listInvoiceable(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>) {
  const f = parseOrThrow(invoiceableFilterSchema, raw);
  const where: Array<SQL | undefined> = [
    invoiceableSql,
    scopeSql(financeScope(user)),
    f.consignment_number ? ilike(invoiceDetails.consignmentNumber, like(f.consignment_number)) : undefined,
    f.receiver_name ? ilike(invoiceDetails.receiverName, like(f.receiver_name)) : undefined,
    f.reference ? ilike(invoiceDetails.reference, like(f.reference)) : undefined,
    f.despatch_date ? eq(invoiceDetails.despatchDate, f.despatch_date) : undefined,
  ];
  const column = {
    consignment_number: invoiceDetails.consignmentNumber,
    receiver_name: invoiceDetails.receiverName,
    despatch_date: invoiceDetails.despatchDate,
    reference: invoiceDetails.reference,
    customer: customers.name,
    total_cost: invoiceDetails.totalCost,
  }[f.order_by];
  const dir = f.order_direction === "desc" ? desc : asc;
  const rows = await db
    .select({ d: invoiceDetails, customer: customers.name, carrierInvoiceNumber: invoices.invoiceNumber, carrierInvoiceDate: invoices.invoiceDate })
    .from(invoiceDetails)
    .innerJoin(customers, eq(customers.id, invoiceDetails.customerId))
    .innerJoin(invoices, eq(invoices.id, invoiceDetails.invoiceId))
    .where(and(...where))
    .orderBy(dir(column), dir(invoiceDetails.id))
    .limit(LIST_LIMIT + 1);
  return {
    filters: f,
    lines: rows.slice(0, LIST_LIMIT).map(({ d, customer, carrierInvoiceNumber, carrierInvoiceDate }) => ({
      id: d.id,
      // which carrier bill the line came from: a carrier's duplicate bill shows as another number (decision 021)
      carrier_invoice_number: carrierInvoiceNumber,
      carrier_invoice_date: carrierInvoiceDate,
      possible_duplicate: d.duplicateOfDetailId != null,
      consignment_number: d.consignmentNumber,
      customer,
      receiver_name: d.receiverName,
      receiver_locality: d.receiverLocality,
      receiver_postcode: d.receiverPostcode,
      sender_name: d.senderName,
      reference: d.reference,
      despatch_date: d.despatchDate,
      service_description: d.serviceDescription,
      total_charge_weight: d.totalChargeWeight == null ? null : Number(d.totalChargeWeight),
      total_cost: Number(d.totalCost),
    })),
    truncated: rows.length > LIST_LIMIT,
    message: rows.length ? null : RECEIVABLE_MESSAGES.noInvoiceable,
  };
}
export type InvoiceableLine = Awaited<ReturnType<typeof listInvoiceable>>["lines"][number];
