/**
 * Payable invoices as the list, the invoice page and /api read them (issue 18 items 3 and 4;
 * spec 3 "Invoices payable"). Every query is scoped by financeScope: staff see every invoice, a
 * customer's finance user only the invoices holding their lines, counted over their lines alone.
 */
import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from "drizzle-orm";
import { invoiceEmissions, type InvoiceEmissions } from "../emissions/emissions.server";
import type { DbOrTx } from "../../../db/client.server";
import { carrierInvoiceConfigs, carriers, customers, invoices } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { userToday } from "../calendar/site-time";
import { notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { financeScope, type FinanceScope } from "./access";
import { carrierAudit, invoiceAudit, type AuditFigures, type CarrierAudit } from "./audit.server";
import { possibleDuplicateText } from "./duplicates.server";
import { INVOICE_ID, invoiceFileNameSql, invoiceScopeSql, invoiceStateSql, invoiceTotalSql, lineScopeSql } from "./scope.server";
import { invoiceFilterSchema, INVOICE_MESSAGES, listedDates, type DateFilter, type PayableStateFilter } from "./schemas";

export { INVOICE_ID, invoiceScopeSql, lineScopeSql } from "./scope.server";

const count = (scope: FinanceScope, where: SQL) => sql<number>`(select count(*)::int from invoice_details d where d.invoice_id = ${INVOICE_ID} and ${lineScopeSql(scope)} and ${where})`;

/**
 * One invoice's columns with state, total, counts and cost over the lines the caller may see (a
 * customer's user reads a shared carrier invoice as their own lines give it); the carrier's file
 * name only for those who may download it.
 */
function invoiceColumns(scope: FinanceScope) {
  return {
    id: invoices.id,
    state: invoiceStateSql(scope),
    accountingType: invoices.accountingType,
    invoiceNumber: invoices.invoiceNumber,
    invoiceDate: invoices.invoiceDate,
    total: invoiceTotalSql(scope),
    carrierId: invoices.carrierId,
    carrierName: carriers.name,
    carrierCode: carriers.code,
    customerName: customers.name,
    originalFileName: invoiceFileNameSql(scope),
    exportedAt: invoices.exportedAt,
    linesCount: count(scope, sql`true`),
    allocatedCount: count(scope, sql`d.state in ('allocated', 'exported')`),
    unallocatedCount: count(scope, sql`d.state in ('unallocated', 'allocation_failure')`),
    invoicedCount: count(scope, sql`d.state = 'invoiced'`),
    totalCost: sql<string>`(select coalesce(sum(d.total_cost), 0)::text from invoice_details d where d.invoice_id = ${INVOICE_ID} and ${lineScopeSql(scope)})`,
    duplicateOfId: invoices.duplicateOfInvoiceId,
    duplicateOfNumber: sql<string | null>`(select o.invoice_number from invoices o where o.id = ${sql.raw(`"invoices"."duplicate_of_invoice_id"`)})`,
  };
}
type InvoiceRow = { [K in keyof ReturnType<typeof invoiceColumns>]: unknown } & Record<string, unknown>;

export interface InvoiceJson {
  id: number;
  state: string;
  accounting_type: string;
  invoice_number: string | null;
  invoice_date: string | null;
  total: number;
  total_cost: number;
  carrier_id: number | null;
  carrier_name: string | null;
  carrier_code: string | null;
  customer: string | null;
  original_file_name: string | null;
  exported_at: string | null;
  invoice_details_count: number;
  invoice_details_allocated_count: number;
  invoice_details_unallocated_count: number;
  invoice_details_invoiced_count: number;
  /** set at import when most of its lines stand on that other carrier invoice (decision 021) */
  possible_duplicate_of: { invoice_id: number; invoice_number: string | null; message: string } | null;
  /** the audit figure (GET /api/invoices/{id} and the invoice page): its lines found on another carrier invoice */
  duplicates_caught?: { count: number; amount: number };
  /** the audit's figures over the reader's lines (GET /api/invoices/{id} and the invoice page; decision 029) */
  audit?: AuditFigures;
  /** a receivable invoice's consignments' kg CO2e (docs/decisions/041): a total line, not a charge */
  emissions?: InvoiceEmissions;
}

function toJson(r: InvoiceRow): InvoiceJson {
  return {
    id: r.id as number,
    state: r.state as string,
    accounting_type: r.accountingType as string,
    invoice_number: (r.invoiceNumber as string | null) ?? null,
    invoice_date: (r.invoiceDate as string | null) ?? null,
    total: Number(r.total),
    total_cost: Number(r.totalCost),
    carrier_id: (r.carrierId as number | null) ?? null,
    carrier_name: (r.carrierName as string | null) ?? null,
    carrier_code: (r.carrierCode as string | null) ?? null,
    customer: (r.customerName as string | null) ?? null,
    original_file_name: (r.originalFileName as string | null) ?? null,
    exported_at: r.exportedAt ? new Date(r.exportedAt as string).toISOString() : null,
    invoice_details_count: Number(r.linesCount),
    invoice_details_allocated_count: Number(r.allocatedCount),
    invoice_details_unallocated_count: Number(r.unallocatedCount),
    invoice_details_invoiced_count: Number(r.invoicedCount),
    possible_duplicate_of: r.duplicateOfId == null ? null : { invoice_id: r.duplicateOfId as number, invoice_number: (r.duplicateOfNumber as string | null) ?? null, message: possibleDuplicateText((r.duplicateOfNumber as string | null) ?? null) },
  };
}

/** Which state counter an invoice falls under (allocation_failure waits like unallocated), over the scope's lines. */
const stateSqlFor = (scope: FinanceScope): Record<Exclude<PayableStateFilter, "all">, SQL> => {
  const state = invoiceStateSql(scope);
  return {
    unallocated: sql`${state} not in ('allocated', 'exported')`,
    allocated: sql`${state} = 'allocated'`,
    exported: sql`${state} = 'exported'`,
  };
};

export const LIST_LIMIT = 500;

export interface InvoiceList {
  filters: { carrier_id: string; customer_id: string; date: DateFilter; from: string; to: string; state: PayableStateFilter };
  counts: Record<PayableStateFilter, number>;
  totals: { cost: number; consignments: number };
  groups: Array<{ carrier_id: number | null; carrier_name: string; invoices: InvoiceJson[]; total_cost: number; consignments: number }>;
  /** per carrier, the audit's figures over every invoice the filter picks, whatever its state (decision 029) */
  audit: CarrierAudit[];
  invoices: InvoiceJson[];
  truncated: boolean;
  message: string | null;
}

/**
 * The payable list: filters, state counters over the filtered invoices, totals of cost and
 * consignments, and the invoices grouped per carrier. With no state asked, it shows the
 * unallocated ones, or all when none is (spec 3 section 4).
 */
export async function listPayable(db: DbOrTx, user: CurrentUser, raw: Record<string, unknown>, options: { only?: number[] } = {}): Promise<InvoiceList> {
  const f = parseOrThrow(invoiceFilterSchema, raw);
  const scope = financeScope(user);
  const stateSql = stateSqlFor(scope);
  const date = f.date ?? "fortnight";
  const range = listedDates(date, userToday(user), { from: f.from, to: f.to });
  // right after an import: the invoices it made whatever their dates and states (issue 29 #7), still within the scope
  const only = options.only;
  const base = and(
    eq(invoices.accountingType, "payable"),
    invoiceScopeSql(scope),
    only ? inArray(invoices.id, only.length ? only : [0]) : undefined,
    f.carrier_id ? eq(invoices.carrierId, f.carrier_id) : undefined,
    // within the scope's lines: a customer's user cannot learn which invoices hold another's
    f.customer_id ? sql`exists (select 1 from invoice_details d where d.invoice_id = ${INVOICE_ID} and ${lineScopeSql(scope)} and d.customer_id = ${f.customer_id})` : undefined,
    only ? undefined : gte(invoices.invoiceDate, range.from),
    only || range.through == null ? undefined : lte(invoices.invoiceDate, range.through),
  );
  const [c] = await db
    .select({
      all: sql<number>`count(*)::int`,
      unallocated: sql<number>`count(*) filter (where ${stateSql.unallocated})::int`,
      allocated: sql<number>`count(*) filter (where ${stateSql.allocated})::int`,
      exported: sql<number>`count(*) filter (where ${stateSql.exported})::int`,
    })
    .from(invoices)
    .where(base);
  const counts = { all: Number(c!.all), unallocated: Number(c!.unallocated), allocated: Number(c!.allocated), exported: Number(c!.exported) };
  const state = only ? (f.state ?? "all") : (f.state ?? (counts.unallocated > 0 ? "unallocated" : "all"));
  const rows = await db
    .select(invoiceColumns(scope))
    .from(invoices)
    .leftJoin(carriers, eq(carriers.id, invoices.carrierId))
    .leftJoin(customers, eq(customers.id, invoices.customerId))
    .where(and(base, state === "all" ? undefined : stateSql[state]))
    .orderBy(asc(sql`lower(${carriers.name})`), desc(invoices.invoiceDate), desc(invoices.id))
    .limit(LIST_LIMIT + 1);
  const list = rows.slice(0, LIST_LIMIT).map(toJson);
  const groups = new Map<string, InvoiceList["groups"][number]>();
  for (const inv of list) {
    const key = String(inv.carrier_id);
    const g = groups.get(key) ?? { carrier_id: inv.carrier_id, carrier_name: inv.carrier_name ?? "No carrier", invoices: [], total_cost: 0, consignments: 0 };
    g.invoices.push(inv);
    g.total_cost += inv.total_cost;
    g.consignments += inv.invoice_details_count;
    groups.set(key, g);
  }
  const round = (n: number) => Math.round(n * 100) / 100;
  const grouped = [...groups.values()].map((g) => ({ ...g, total_cost: round(g.total_cost) }));
  const audit = counts.all ? await carrierAudit(db, scope, base ?? sql`true`) : [];
  return {
    filters: { carrier_id: f.carrier_id ? String(f.carrier_id) : "", customer_id: f.customer_id ? String(f.customer_id) : "", date, from: range.from, to: range.to, state },
    counts,
    totals: { cost: round(list.reduce((s, i) => s + i.total_cost, 0)), consignments: list.reduce((s, i) => s + i.invoice_details_count, 0) },
    groups: grouped,
    audit,
    invoices: list,
    truncated: rows.length > LIST_LIMIT,
    message: list.length ? null : INVOICE_MESSAGES.noInvoices,
  };
}

/** One invoice the caller may see (payable or receivable); 404 otherwise. */
export async function getInvoice(db: DbOrTx, user: CurrentUser, id: number): Promise<InvoiceJson> {
  const scope = financeScope(user);
  const [row] = await db
    .select(invoiceColumns(scope))
    .from(invoices)
    .leftJoin(carriers, eq(carriers.id, invoices.carrierId))
    .leftJoin(customers, eq(customers.id, invoices.customerId))
    .where(and(eq(invoices.id, id), invoiceScopeSql(scope)));
  if (!row) throw notFound("Invoice");
  const json = toJson(row);
  if (json.accounting_type === "receivable") return { ...json, emissions: await invoiceEmissions(db, id) };
  if (json.accounting_type !== "payable") return json;
  const audit = await invoiceAudit(db, scope, id);
  return { ...json, duplicates_caught: audit.duplicates_caught, audit };
}

/** Invoices of the given ids the caller may see, for the bulk actions. */
export async function visibleInvoiceIds(db: DbOrTx, user: CurrentUser, ids: number[]): Promise<number[]> {
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(inArray(invoices.id, ids), invoiceScopeSql(financeScope(user))));
  return rows.map((r) => r.id);
}

/** The filter choices: carriers and customers (staff only: a customer's user has one). */
export async function filterChoices(db: DbOrTx, user: CurrentUser) {
  const carrierRows = await db.select({ id: carriers.id, name: carriers.name }).from(carriers).orderBy(asc(sql`lower(${carriers.name})`));
  const customerRows =
    financeScope(user).kind === "all"
      ? await db
          .select({ id: customers.id, name: customers.name })
          .from(customers)
          .orderBy(asc(sql`lower(${customers.name})`))
          .limit(1000)
      : [];
  return { carriers: carrierRows, customers: customerRows };
}

/** The Import dialog's templates: each carrier invoice config with its carrier's name. */
export async function importTemplates(db: DbOrTx) {
  return db
    .select({ id: carrierInvoiceConfigs.id, name: carrierInvoiceConfigs.name, carrierName: carriers.name })
    .from(carrierInvoiceConfigs)
    .innerJoin(carriers, eq(carriers.id, carrierInvoiceConfigs.carrierId))
    .orderBy(asc(sql`lower(${carrierInvoiceConfigs.name})`));
}
