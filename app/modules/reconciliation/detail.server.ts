/**
 * One reconciliation as the detail screen and GET/PUT /api/reconciliations/{id} read and save it
 * (spec 3 "Reconciliation detail", sections 3, 4 and 8; issue 19 item 3). Reads are scoped by
 * financeScope (another customer's reconciliation is as missing as none); saving, reset and
 * re-running are invoice admin actions, as reconciling is.
 */
import { and, asc, eq, inArray } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { bulkUpdate } from "./bulk.server";
import { addressJson } from "../addresses/address-json";
import { addresses, consignments, invoiceCosts, invoiceDetails, reconciliationNotes, reconciliations, services, users } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { canSeeBuyCosts } from "../auth/roles";
import { authorize } from "../auth/guard.server";
import { canAdministerInvoices, financeScope } from "../invoices/access";
import { getLine, lineJson } from "../invoices/details.server";
import { duplicateOfLine } from "../invoices/duplicates.server";
import { sellFor, type SellResult } from "../invoicing/sell";
import { toCents } from "../invoicing/money";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { REASON_CATEGORIES } from "./compare";
import { RERATE_LABELS, rerateReason, type RerateStatus } from "./rerate";
import { billedTotals, chargedMargin } from "./sell-view";
import { checkSave, RECONCILIATION_MESSAGES, STATE_LABELS, updateSchema, type ReconciliationState } from "./states";

type Row = typeof reconciliations.$inferSelect;

const WHAT = "Reconciliation";

/** The reconciliation `id` if `user` may see it (its customer's, or staff), else 404. */
export async function visibleReconciliation(db: DbOrTx, user: CurrentUser, id: number, options: { lock?: boolean } = {}): Promise<Row> {
  const scope = financeScope(user);
  const q = db
    .select()
    .from(reconciliations)
    .where(and(eq(reconciliations.id, id), scope.kind === "all" ? undefined : eq(reconciliations.customerId, scope.customerId)));
  const [row] = options.lock ? await q.for("update") : await q;
  if (!row) throw notFound(WHAT);
  return row;
}

type RatingLine = { category: string; description: string; amount: number };
interface StoredRating {
  buy?: RatingLine[];
  sell?: RatingLine[];
  total_buy?: number;
  total_sell?: number;
  charge_weight?: number;
  from_zone?: string | null;
  to_zone?: string | null;
  markup?: number;
  surcharge_markup?: number;
  rate_code?: string | null;
  dead_weight?: number;
  cubic_weight?: number;
  volume?: number;
  items?: number;
}

const lines = (v: unknown): RatingLine[] =>
  Array.isArray(v) ? (v as RatingLine[]).filter((l) => l && typeof l.category === "string").map((l) => ({ category: l.category, description: String(l.description ?? l.category), amount: Number(l.amount) || 0 })) : [];
const sumDollars = (ls: RatingLine[]) => ls.reduce((a, l) => a + toCents(l.amount), 0) / 100;

/** A rating (the stored one or a re-rate) as the panels show it: costs, totals and rating info. */
export function ratingPanel(raw: unknown) {
  if (!raw || typeof raw !== "object") return null;
  const r = raw as StoredRating;
  const buy = lines(r.buy);
  const sell = lines(r.sell);
  return {
    buy_costs: buy,
    sell_costs: sell,
    total_buy_cost: sumDollars(buy.filter((l) => l.category !== "gst")),
    total_sell_cost: sumDollars(sell.filter((l) => l.category !== "gst")),
    rating_detail: {
      charge_weight: r.charge_weight ?? null,
      dead_weight: r.dead_weight ?? null,
      cubic_weight: r.cubic_weight ?? null,
      volume: r.volume ?? null,
      items: r.items ?? null,
      from_zone: r.from_zone ?? null,
      to_zone: r.to_zone ?? null,
      rate_code: r.rate_code ?? null,
      markup: r.markup ?? 0,
      surcharge_markup: r.surcharge_markup ?? 0,
    },
  };
}


async function consignmentJson(db: DbOrTx, consignmentId: number | null) {
  if (consignmentId == null) return null;
  const [c] = await db
    .select({ c: consignments, service_name: services.name })
    .from(consignments)
    .leftJoin(services, eq(services.id, consignments.serviceId))
    .where(eq(consignments.id, consignmentId));
  if (!c) return null;
  const ids = [c.c.senderAddressId, c.c.receiverAddressId].filter((v): v is number => v != null);
  const found = ids.length ? await db.select().from(addresses).where(inArray(addresses.id, ids)) : [];
  const panel = ratingPanel(c.c.ratingDetail);
  const out = {
    id: c.c.id,
    consignment_number: c.c.consignmentNumber,
    state: c.c.state,
    service_id: c.c.serviceId,
    service_name: c.service_name,
    despatch_date: c.c.despatchDate,
    total_weight: Number(c.c.totalWeight),
    total_volume: Number(c.c.totalVolume),
    item_count: c.c.itemCount,
    sender_address: addressJson(found.find((a) => a.id === c.c.senderAddressId)),
    receiver_address: addressJson(found.find((a) => a.id === c.c.receiverAddressId)),
    buy_costs: panel?.buy_costs ?? [],
    sell_costs: panel?.sell_costs ?? [],
    total_buy_cost: panel?.total_buy_cost ?? 0,
    total_sell_cost: panel?.total_sell_cost ?? 0,
    rating_detail: panel?.rating_detail ?? null,
  };
  // the stored rating whole, for the sell side; never answered (the panel above is its shown part)
  return { out, rating: c.c.ratingDetail };
}

async function customerInvoiceLine(db: DbOrTx, id: number | null) {
  if (id == null) return null;
  const [d] = await db.select().from(invoiceDetails).where(eq(invoiceDetails.id, id));
  if (!d) return null;
  const costs = await db.select().from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, id)).orderBy(asc(invoiceCosts.id));
  return { ...lineJson(d), costs: costs.map((c) => ({ id: c.id, category: c.category, description: c.description, amount: Number(c.amount) })) };
}

export async function notesOf(db: DbOrTx, reconciliationId: number) {
  const rows = await db
    .select({ id: reconciliationNotes.id, text: reconciliationNotes.text, user_id: reconciliationNotes.userId, user_name: users.fullName, timestamp: reconciliationNotes.createdAt })
    .from(reconciliationNotes)
    .leftJoin(users, eq(users.id, reconciliationNotes.userId))
    .where(eq(reconciliationNotes.reconciliationId, reconciliationId))
    .orderBy(asc(reconciliationNotes.createdAt), asc(reconciliationNotes.id));
  return rows.map((n) => ({ ...n, created_by: n.user_name, timestamp: n.timestamp.toISOString() }));
}

/** What the customer is charged for the line with `chargeFromConsignment` (sell.ts, shared with invoicing). */
export function sellOf(rating: unknown, costs: Array<{ category: string; description: string; amount: number | string }>, chargeFromConsignment: boolean): SellResult {
  const r = rating && typeof rating === "object" ? (rating as StoredRating) : null;
  return sellFor({ chargeFromConsignment, rating: r ? { buy: lines(r.buy), sell: lines(r.sell), markup: r.markup, surcharge_markup: r.surcharge_markup } : null, invoiceCosts: costs });
}

const dollars = (cents: number) => cents / 100;

/**
 * GET /api/reconciliations/{id}: everything the detail screen shows (spec 3 section 3
 * "Reconciliation"). A reconciliation is the comparison of buy costs: reading one needs what seeing
 * buy costs needs (staff, or can_reconcile, which also gates the menu entry; spec 3 section 1).
 */
export async function getReconciliation(db: DbOrTx, user: CurrentUser, id: number) {
  authorize(user, canSeeBuyCosts);
  const r = await visibleReconciliation(db, user, id);
  const [line] = await db.select({ invoiceId: invoiceDetails.invoiceId }).from(invoiceDetails).where(eq(invoiceDetails.id, r.invoiceDetailId));
  if (!line) throw notFound(WHAT);
  const [invoiceDetail, consignment, customerInvoiceDetail, notes, duplicateOf] = await Promise.all([
    getLine(db, user, line.invoiceId, r.invoiceDetailId),
    consignmentJson(db, r.consignmentId),
    customerInvoiceLine(db, r.customerInvoiceDetailId),
    notesOf(db, r.id),
    duplicateOfLine(db, r.invoiceDetailId),
  ]);
  // the rating invoicing bills from (its re-rate, else the consignment's), so the view agrees with the invoice
  const sell = sellOf(r.rerateDetail ?? consignment?.rating, invoiceDetail.costs, r.chargeFromConsignment);
  const charged = customerInvoiceDetail ? billedTotals(customerInvoiceDetail) : { source: "sell" as const, excluding_gst: sell.total, gst: null, including_gst: null };
  const margin = chargedMargin(charged.excluding_gst, toCents(r.invoiced));
  const status = (r.rerateStatus ?? "rerate_error") as RerateStatus;
  return {
    id: r.id,
    state: r.state,
    state_label: STATE_LABELS[r.state],
    version: r.version,
    invoice_detail: invoiceDetail,
    customer_invoice_detail: customerInvoiceDetail,
    consignment: consignment?.out ?? null,
    notes,
    reconciliation_options: { charge_from_consignment: r.chargeFromConsignment, rerate_required: r.rerateRequired, not_rerated: r.rerateDetail == null },
    discrepancy_amount: Number(r.discrepancyAmount),
    /** what the customer is (or will be) charged without GST, less the carrier's charge without GST */
    margin: dollars(margin.margin),
    margin_percent: margin.margin_percent,
    /** the customer's charge, each total saying what it includes (GST is known once billed) */
    charged: { source: charged.source, excluding_gst: dollars(charged.excluding_gst), gst: charged.gst == null ? null : dollars(charged.gst), including_gst: charged.including_gst == null ? null : dollars(charged.including_gst) },
    rated_buy: Number(r.ratedBuy),
    rated_sell: Number(r.ratedSell),
    invoiced: Number(r.invoiced),
    categories: r.categories.map((c) => ({ category: c.category, rated: dollars(c.rated), invoiced: dollars(c.invoiced), difference: dollars(c.difference) })),
    reason_categories: REASON_CATEGORIES.filter((c) => r.reasonCategories.includes(c)),
    reconciliation_reasons: r.reasonCategories.map((reason) => (reason === "duplicate" && duplicateOf ? { reason, ...duplicateOf } : { reason })),
    /** the other carrier invoice's line this one possibly duplicates (decision 021) */
    duplicate_of: duplicateOf,
    /** what the customer is charged now (sell.ts), in dollars */
    sell: { charged_from: sell.charged_from, credit: sell.credit, fallback: sell.fallback, total: dollars(sell.total), lines: sell.lines.map((l) => ({ ...l, amount: dollars(l.amount) })) },
    preview: r.preview ?? null,
    rerate: {
      status,
      label: RERATE_LABELS[status],
      error: rerateReason(status, r.rerateError, r.consignmentId != null),
      disabled: status === "rerate_error",
      ...(ratingPanel(r.rerateDetail) ?? { buy_costs: [], sell_costs: [], total_buy_cost: 0, total_sell_cost: 0, rating_detail: null }),
    },
    can_edit: canAdministerInvoices(user),
    can_rerun: canAdministerInvoices(user) && r.state !== "reconciled",
  };
}
export type ReconciliationDetail = Awaited<ReturnType<typeof getReconciliation>>;

/** A stale version: 409 with error_code stale and 'Unable to save. {message}'. */
export const staleError = () => new AppError("stale", RECONCILIATION_MESSAGES.unableToSave(RECONCILIATION_MESSAGES.stale), { base: [RECONCILIATION_MESSAGES.unableToSave(RECONCILIATION_MESSAGES.stale)] });

/**
 * PUT /api/reconciliations/{id}: Save (a note), Save + Accept (state reconciled, a note, only
 * where accept may start), or the Charge From toggle alone (the choice and its preview, no note).
 */
export async function saveReconciliation(db: DbOrTx, user: CurrentUser, id: number, raw: unknown) {
  authorize(user, canAdministerInvoices);
  const input = parseOrThrow(updateSchema, raw);
  // one transaction with the row locked: two people saving the same version cannot both pass the
  // version check and both write (the second waits, then sees the raised version and gets 409)
  await db.transaction(async (tx) => {
    const r = await visibleReconciliation(tx, user, id, { lock: true });
    if (input.version !== r.version) throw staleError();
    const check = checkSave(input, r.state);
    if (!check.ok) throw new AppError("invalid", Object.values(check.errors)[0]![0]!, check.errors);
    const set: Partial<typeof reconciliations.$inferInsert> = { version: r.version + 1, updatedAt: new Date(), state: check.to };
    if (check.to === "reconciled" && r.state !== "reconciled") set.reconciledAt = new Date();
    if (input.charge_from_consignment !== undefined) {
      set.chargeFromConsignment = input.charge_from_consignment;
      set.preview = await previewOf(tx, r, input.charge_from_consignment);
    }
    await tx.update(reconciliations).set(set).where(eq(reconciliations.id, id));
    if (input.note) await tx.insert(reconciliationNotes).values({ reconciliationId: id, userId: user.id, text: input.note });
  });
  return getReconciliation(db, user, id);
}

/** The Charge From preview: what the customer would be charged with that choice, in dollars. */
async function previewOf(db: DbOrTx, r: Row, chargeFromConsignment: boolean) {
  const [c] = r.consignmentId == null ? [] : await db.select({ rating: consignments.ratingDetail }).from(consignments).where(eq(consignments.id, r.consignmentId));
  const costs = await db.select({ category: invoiceCosts.category, description: invoiceCosts.description, amount: invoiceCosts.amount }).from(invoiceCosts).where(eq(invoiceCosts.invoiceDetailId, r.invoiceDetailId));
  const s = sellOf(r.rerateDetail ?? c?.rating ?? null, costs, chargeFromConsignment);
  return { charge_from_consignment: chargeFromConsignment, charged_from: s.charged_from, fallback: s.fallback, total: dollars(s.total), lines: s.lines.map((l) => ({ ...l, amount: dollars(l.amount) })) };
}

/**
 * Reset on the detail (spec 3 section 4): from disputed or reconciled back to reconciling, its
 * reasons and notes deleted, as the bulk reset does for many (TRANSITIONS.reset). Refused:
 * 'Failed to reset reconciliation'.
 */
export async function resetReconciliation(db: DbOrTx, user: CurrentUser, id: number) {
  // unseen ids are a 404, as every detail call; then the bulk reset's own rules for one line
  await visibleReconciliation(db, user, id);
  const outcome = await bulkUpdate(db, user, "reset", { ids: [id] });
  const refused = outcome.refused[0];
  if (refused) throw new AppError("conflict", RECONCILIATION_MESSAGES.failedToReset, { base: [`${RECONCILIATION_MESSAGES.failedToReset}: ${refused.message}`] });
  return getReconciliation(db, user, id);
}

export type { ReconciliationState };
