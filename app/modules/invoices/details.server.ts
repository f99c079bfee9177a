/**
 * Invoice lines (invoice details) as the invoice page, the detail modal and /api read and edit
 * them (issue 18 item 4; spec 3 "Invoice page", "Invoice detail modal"). Reads are scoped by
 * financeScope; editing a line is an invoice admin action.
 */
import { and, asc, count, desc, eq, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, customers, invoiceCosts, invoiceDetails, invoices, services, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { canAdministerInvoices, financeScope, type FinanceScope } from "./access";
import { scopedLineNumbers, visibleCustomers } from "./scope.server";
import { refreshInvoiceState } from "./actions.server";
import { invoiceableSql } from "../invoicing/invoiceable.server";
import { INVOICE_MESSAGES, lineSearchSchema, lineUpdateSchema, type LineStateFilter } from "./schemas";

type Line = typeof invoiceDetails.$inferSelect;

const lineScope = (scope: FinanceScope): SQL | undefined => (scope.kind === "all" ? undefined : eq(invoiceDetails.customerId, scope.customerId));

const STATE_FILTER: Record<Exclude<LineStateFilter, "all">, SQL> = {
  allocated: sql`${invoiceDetails.state} in ('allocated', 'exported')`,
  unallocated: sql`${invoiceDetails.state} in ('unallocated', 'allocation_failure')`,
  invoiced: sql`${invoiceDetails.state} = 'invoiced'`,
};
const stateWhere = (state: string | undefined): SQL | undefined =>
  // invoiceable is derived, not stored (decision 020-invoicing): reconciled and not yet billed
  state === "invoiceable" ? invoiceableSql : !state || state === "all" ? undefined : state in STATE_FILTER ? STATE_FILTER[state as keyof typeof STATE_FILTER] : eq(invoiceDetails.state, state);

const num = (v: string | null) => (v == null ? null : Number(v));

export function lineJson(d: Line, extra: { carrier_name?: string | null; carrier_code?: string | null; customer_name?: string | null; site_name?: string | null; service_name?: string | null } = {}) {
  return {
    id: d.id,
    invoice_id: d.invoiceId,
    line_number: d.lineNumber,
    state: d.state,
    carrier_id: d.carrierId,
    carrier_code: extra.carrier_code ?? null,
    carrier_name: extra.carrier_name ?? null,
    customer_id: d.customerId,
    customer_name: extra.customer_name ?? null,
    site_id: d.siteId,
    site_name: extra.site_name ?? null,
    service_id: d.serviceId,
    service_name: extra.service_name ?? null,
    unquoted: d.unquoted,
    consignment_id: d.consignmentId,
    consignment_number: d.consignmentNumber,
    sender_name: d.senderName,
    sender_locality: d.senderLocality,
    sender_postcode: d.senderPostcode,
    sender_region: d.senderRegion,
    sender_zone: d.senderZone,
    receiver_name: d.receiverName,
    receiver_locality: d.receiverLocality,
    receiver_postcode: d.receiverPostcode,
    receiver_region: d.receiverRegion,
    receiver_zone: d.receiverZone,
    account_number: d.accountNumber,
    parent_account_number: d.parentAccountNumber,
    payer: d.payer,
    reference: d.reference,
    service_description: d.serviceDescription,
    despatch_date: d.despatchDate,
    total_quantity: d.totalQuantity,
    total_weight_in_uom: num(d.totalWeightInUom),
    total_charge_weight: num(d.totalChargeWeight),
    total_volume_in_uom_cubed: num(d.totalVolumeInUomCubed),
    total_cost: Number(d.totalCost),
    dangerous_goods: d.dangerousGoods,
    allocated_by: d.allocatedBy,
    allocation_error: d.allocationError,
  };
}
export type LineJson = ReturnType<typeof lineJson>;

const joined = {
  d: invoiceDetails,
  carrier_name: carriers.name,
  carrier_code: carriers.code,
  customer_name: customers.name,
  site_name: sites.name,
  service_name: services.name,
};

/**
 * GET /api/invoice_details and the invoice page's table: lines by invoice, state and
 * accounting type, a page at a time, with the counters of the invoice page (over the same scope).
 */
export async function searchLines(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>) {
  const q = parseOrThrow(lineSearchSchema, raw);
  const scope = financeScope(user);
  const base = and(
    lineScope(scope),
    q.invoice_id ? eq(invoiceDetails.invoiceId, q.invoice_id) : undefined,
    q.accounting_type ? sql`exists (select 1 from invoices i where i.id = ${invoiceDetails.invoiceId} and i.accounting_type = ${q.accounting_type})` : undefined,
  );
  const where = and(base, stateWhere(q.state));
  const [counts] = await db
    .select({
      all: sql<number>`count(*)::int`,
      allocated: sql<number>`count(*) filter (where ${STATE_FILTER.allocated})::int`,
      unallocated: sql<number>`count(*) filter (where ${STATE_FILTER.unallocated})::int`,
      invoiced: sql<number>`count(*) filter (where ${STATE_FILTER.invoiced})::int`,
    })
    .from(invoiceDetails)
    .where(base);
  const [{ total }] = (await db.select({ total: count() }).from(invoiceDetails).where(where)) as [{ total: number }];
  const column = { line_number: invoiceDetails.lineNumber, consignment_number: invoiceDetails.consignmentNumber, receiver_name: invoiceDetails.receiverName, despatch_date: invoiceDetails.despatchDate, total_cost: invoiceDetails.totalCost, state: invoiceDetails.state }[q.order_by];
  const dir = q.order_direction === "desc" ? desc : asc;
  const rows = await db
    .select(joined)
    .from(invoiceDetails)
    .leftJoin(carriers, eq(carriers.id, invoiceDetails.carrierId))
    .leftJoin(customers, eq(customers.id, invoiceDetails.customerId))
    .leftJoin(sites, eq(sites.id, invoiceDetails.siteId))
    .leftJoin(services, eq(services.id, invoiceDetails.serviceId))
    .where(where)
    .orderBy(dir(column), dir(invoiceDetails.id))
    .limit(q.per_page)
    .offset((q.page - 1) * q.per_page);
  const totalPages = Math.max(1, Math.ceil(Number(total) / q.per_page));
  // a customer's user numbers their own lines of a shared invoice, with no gaps for others'
  const numbers = await scopedLineNumbers(db, scope, rows.map(({ d }) => d));
  return {
    invoice_details: rows.map(({ d, ...extra }) => ({ ...lineJson(d, extra), line_number: numbers?.get(d.id) ?? d.lineNumber })),
    pagination: { current_page: q.page, total_pages: totalPages, total_records: Number(total), per_page: q.per_page },
    meta: { counts: { all: Number(counts!.all), allocated: Number(counts!.allocated), unallocated: Number(counts!.unallocated), invoiced: Number(counts!.invoiced) } },
    message: rows.length ? null : INVOICE_MESSAGES.noLines,
  };
}

/**
 * One line with its costs and its place among its invoice's lines (by line number) that the
 * caller may see, for the modal's paging: 'n of total', first, previous, next, last.
 */
export async function getLine(db: DbOrTx, user: CurrentUser, invoiceId: number, id: number) {
  const scope = financeScope(user);
  const [row] = await db
    .select(joined)
    .from(invoiceDetails)
    .leftJoin(carriers, eq(carriers.id, invoiceDetails.carrierId))
    .leftJoin(customers, eq(customers.id, invoiceDetails.customerId))
    .leftJoin(sites, eq(sites.id, invoiceDetails.siteId))
    .leftJoin(services, eq(services.id, invoiceDetails.serviceId))
    .where(and(eq(invoiceDetails.id, id), eq(invoiceDetails.invoiceId, invoiceId), lineScope(scope)));
  if (!row) throw notFound("Invoice detail");
  const costs = await db.select().from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, id)).orderBy(asc(invoiceCosts.id));
  const order = await db
    .select({ id: invoiceDetails.id })
    .from(invoiceDetails)
    .where(and(eq(invoiceDetails.invoiceId, invoiceId), lineScope(scope)))
    .orderBy(asc(invoiceDetails.lineNumber), asc(invoiceDetails.id));
  const ids = order.map((o) => o.id);
  const at = ids.indexOf(id);
  return {
    ...lineJson(row.d, row),
    // the line's place among the reader's lines is its number for a customer's user (scopedLineNumbers)
    line_number: scope.kind === "all" ? row.d.lineNumber : at + 1,
    costs: costs.map((c) => ({ id: c.id, category: c.category, description: c.description, amount: Number(c.amount) })),
    position: { index: at + 1, total: ids.length, first: ids[0]!, last: ids[ids.length - 1]!, previous: at > 0 ? ids[at - 1]! : null, next: at < ids.length - 1 ? ids[at + 1]! : null },
  };
}
export type LineDetail = Awaited<ReturnType<typeof getLine>>;

/**
 * The modal's selects: customers, the chosen customer's sites, the line carrier's services. A
 * customer's user sees the modal read only, and names no customer but their own.
 */
export async function lineChoices(db: DbOrTx, user: CurrentUser, customerId: number | null, carrierId: number | null) {
  const [customerRows, siteRows, serviceRows] = await Promise.all([
    visibleCustomers(db, financeScope(user)),
    customerId ? db.select({ id: sites.id, name: sites.name }).from(sites).where(eq(sites.customerId, customerId)).orderBy(asc(sql`lower(${sites.name})`)) : Promise.resolve([]),
    carrierId ? db.select({ id: services.id, name: services.name }).from(services).where(eq(services.carrierId, carrierId)).orderBy(asc(sql`lower(${services.name})`)) : Promise.resolve([]),
  ]);
  return { customers: customerRows, sites: siteRows, services: serviceRows };
}

const FIELD_COLUMNS = {
  sender_name: "senderName",
  sender_locality: "senderLocality",
  sender_region: "senderRegion",
  sender_postcode: "senderPostcode",
  sender_zone: "senderZone",
  receiver_name: "receiverName",
  receiver_locality: "receiverLocality",
  receiver_region: "receiverRegion",
  receiver_postcode: "receiverPostcode",
  receiver_zone: "receiverZone",
  account_number: "accountNumber",
  parent_account_number: "parentAccountNumber",
  payer: "payer",
  reference: "reference",
  service_description: "serviceDescription",
  despatch_date: "despatchDate",
  total_quantity: "totalQuantity",
  dangerous_goods: "dangerousGoods",
} as const;

/**
 * Saves a payable line by hand (admin). Customer, site and service (or Unquoted) all set makes it
 * allocated by hand, which a re-run of allocation keeps; otherwise it waits as unallocated.
 */
export async function updateLine(db: DbOrTx, user: CurrentUser, invoiceId: number, id: number, raw: unknown): Promise<LineDetail> {
  authorize(user, canAdministerInvoices);
  const input = parseOrThrow(lineUpdateSchema, raw);
  await db.transaction(async (tx) => {
    // the invoice row is locked first so two lines saved at once cannot each see the other still
    // unallocated and leave the invoice's state behind its lines
    const [inv] = await tx.select({ id: invoices.id, type: invoices.accountingType }).from(invoices).where(eq(invoices.id, invoiceId)).for("update");
    const [line] = await tx.select().from(invoiceDetails).where(and(eq(invoiceDetails.id, id), eq(invoiceDetails.invoiceId, invoiceId)));
    if (!inv || !line) throw notFound("Invoice detail");
    if (inv.type !== "payable") throw new AppError("conflict", "Only payable lines are edited here.");
    if (line.state === "exported") throw new AppError("conflict", INVOICE_MESSAGES.lineExported);
    const set: Partial<typeof invoiceDetails.$inferInsert> = { updatedAt: new Date() };
    for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
      const v = input[field as keyof typeof input];
      if (v !== undefined) (set as Record<string, unknown>)[column] = v;
    }
    for (const k of ["total_weight_in_uom", "total_charge_weight", "total_volume_in_uom_cubed"] as const) {
      if (input[k] !== undefined) set[({ total_weight_in_uom: "totalWeightInUom", total_charge_weight: "totalChargeWeight", total_volume_in_uom_cubed: "totalVolumeInUomCubed" } as const)[k]] = input[k] == null ? null : String(input[k]);
    }
    if (input.total_cost !== undefined) set.totalCost = input.total_cost.toFixed(2);
    const customerId = input.customer_id !== undefined ? input.customer_id : line.customerId;
    const siteId = input.site_id !== undefined ? input.site_id : line.siteId;
    if (input.customer_id !== undefined) set.customerId = input.customer_id;
    if (input.site_id !== undefined) set.siteId = input.site_id;
    if (input.service_id !== undefined) {
      set.unquoted = input.service_id === "unquoted";
      set.serviceId = input.service_id === "unquoted" ? null : input.service_id;
    }
    const errors: Record<string, string[]> = {};
    if (customerId && !(await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId))).length) errors.customer_id = ["No such customer"];
    if (siteId) {
      const [site] = await tx.select({ customerId: sites.customerId }).from(sites).where(eq(sites.id, siteId));
      if (!site || site.customerId !== customerId) errors.site_id = ["The site must belong to the chosen customer"];
    }
    if (typeof set.serviceId === "number") {
      const [svc] = await tx.select({ carrierId: services.carrierId }).from(services).where(eq(services.id, set.serviceId));
      if (!svc || svc.carrierId !== line.carrierId) errors.service_id = ["The service must be one of the line's carrier"];
    }
    if (Object.keys(errors).length) throw new AppError("invalid", INVOICE_MESSAGES.notSaved, errors);
    const serviceSet = set.serviceId !== undefined ? set.serviceId != null || set.unquoted === true : line.serviceId != null || line.unquoted;
    if (customerId && siteId && serviceSet) {
      set.state = "allocated";
      set.allocatedBy = "manual";
      set.allocationError = null;
    } else if (line.state === "allocated") {
      set.state = "unallocated";
      set.allocatedBy = null;
    }
    await tx.update(invoiceDetails).set(set).where(eq(invoiceDetails.id, id));
    await refreshInvoiceState(tx, invoiceId);
  });
  return getLine(db, user, invoiceId, id);
}
