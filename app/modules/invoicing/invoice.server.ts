/**
 * Invoicing (issue 19 point 5, decision 020-invoicing): reconciled payable lines billed to their
 * customers as receivable invoices. startInvoicing checks the ids and queues the job; the job
 * groups the invoiceable lines by the customer's invoice_allocate_by, writes each invoice in its
 * own transaction (gapless number, sell lines, GST shared among the lines), then renders its PDF
 * and e-mails it (pdf.server.ts). Running it again bills nothing twice: a line is billed once,
 * by the unique source_detail_id.
 */
import { eq, inArray, sql } from "drizzle-orm";
import { z } from "zod";
import type { Db, DbOrTx } from "../../../db/client.server";
import { invoiceDetails, invoices, reconciliationNotes, sites } from "../../../db/schema";
import type { CostCategory } from "../../../db/schema/finance";
import type { PostalAddress } from "../../../db/schema/tenancy";
import type { JobQueue } from "../jobs/queue";
import type { CurrentUser } from "../auth/current-user.server";
import { assertWriter } from "../allocation/rules.server";
import { todayIn } from "../calendar/site-time";
import { financeScope } from "../invoices/access";
import type { Mailer } from "../mail/mailer.server";
import type { Renderer } from "../printing/renderer.server";
import { AppError } from "../../utils/errors";
import { rowsOf } from "../../utils/sql-rows";
import { parseOrThrow } from "../../utils/validation";
import { invoiceGst } from "./gst";
import { billingAddressOf, groupKeyOf, type BillingSite } from "./grouping";
import { BILLED_MESSAGES, billedAlready, billedOn, claimCharges, refusals } from "./billed-once.server";
import { invoiceableIds } from "./invoiceable.server";
import { lineCharges, loadCosts, loadLines, sellOfLine, type CostsOf, type Loaded } from "./invoice-lines.server";
import { centsToAmount } from "./money";
import { deliverInvoice } from "./pdf.server";
import { receivableInvoiceJson } from "./receivable.server";
import { emitEvent } from "../webhooks/index.server";

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

/**
 * POST /api/invoices { invoice_detail_ids, rebill?, note? }: `rebill` bills again a charge a
 * customer invoice already bills (decision 021), and needs a note saying why.
 */
export const invoicingInput = z
  .object({
    invoice_detail_ids: z.array(z.coerce.number().int().positive("Must be an id"), INVOICING_MESSAGES.chooseLines).min(1, INVOICING_MESSAGES.chooseLines).max(10_000, "At most 10000 lines at once"),
    rebill: z.preprocess((v) => (v === "true" || v === "on" || v === "1" ? true : v === "false" || v === "" || v == null ? false : v), z.boolean("Must be true or false")),
    note: z.preprocess((v) => (v == null ? undefined : v), z.string().trim().max(255, "A note is at most 255 characters.").optional()),
  })
  .refine((v) => !v.rebill || !!v.note, { path: ["note"], message: BILLED_MESSAGES.noteRequired });
export const invoicingPayload = z.object({
  invoiceDetailIds: z.array(z.number().int().positive()).min(1),
  userId: z.number().int().positive().nullable(),
  /** an invoice admin's rebill, with its note (decision 021); a schedule never rebills */
  rebill: z.object({ note: z.string().min(1) }).nullish(),
});

export interface InvoicingResult {
  /** the invoices made: id, number, customer, lines, whether e-mailed, and why not */
  invoices: Array<{ id: number; invoice_number: string; customer_name: string; lines: number; total: string; emailed: boolean; pdf: boolean; problem: string | null }>;
  /** asked for but no longer invoiceable when the job ran (billed meanwhile, or reset) */
  skipped: number;
  /** lines not billed because a customer invoice bills their charge already, by name (decision 021) */
  refused: Array<{ invoice_detail_id: number; message: string }>;
}

export function invoicingMessage(r: InvoicingResult): string {
  const lines = r.invoices.reduce((a, i) => a + i.lines, 0);
  const parts = [`${r.invoices.length} invoice${r.invoices.length === 1 ? "" : "s"} for ${lines} line${lines === 1 ? "" : "s"}`];
  if (r.skipped) parts.push(`${r.skipped} line${r.skipped === 1 ? "" : "s"} no longer invoiceable, skipped`);
  if (r.refused.length) parts.push(`${new Set(r.refused.map((x) => x.invoice_detail_id)).size} refused: ${r.refused.map((x) => x.message).join(" ")}`);
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
  // a charge a customer invoice bills already is refused by name now, not found by the job
  const lines = await loadLines(db, ids);
  const costsOf = await loadCosts(db, lines);
  const refused = await refusals(db, lineCharges(lines, lines.map((l) => sellOfLine(l, costsOf))), input.rebill);
  if (refused.length) {
    const messages = [...new Set(refused.map((r) => r.message))];
    throw new AppError("invalid", messages[0]!, { invoice_detail_ids: messages });
  }
  const payload: z.infer<typeof invoicingPayload> = { invoiceDetailIds: ids, userId: user.id, rebill: input.rebill ? { note: input.note! } : null };
  const { jobId } = await queue.enqueue(INVOICING_JOB, payload, { userId: user.id, customerId: user.customer.id });
  return { job_id: jobId };
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

/** A line another run billed first, or whose charge another line bills: its invoice is written again without it. */
class AlreadyBilled extends Error {
  constructor(
    readonly billed: number[],
    readonly charged: number[] = [],
  ) {
    super("already billed");
  }
}

/** What a customer's invoice line copies from the carrier's line it bills, as it is when billed. */
const COPIED: ReadonlyArray<keyof typeof invoiceDetails.$inferSelect> = [
  "carrierId",
  "customerId",
  "siteId",
  "serviceId",
  "unquoted",
  "consignmentId",
  "consignmentNumber",
  "senderName",
  "senderLocality",
  "senderPostcode",
  "senderRegion",
  "senderZone",
  "senderCountry",
  "receiverName",
  "receiverLocality",
  "receiverPostcode",
  "receiverRegion",
  "receiverZone",
  "accountNumber",
  "parentAccountNumber",
  "payer",
  "reference",
  "serviceDescription",
  "despatchDate",
  "totalQuantity",
  "totalWeightInUom",
  "totalChargeWeight",
  "totalVolumeInUomCubed",
  "dangerousGoods",
];
const COPIED_NAMES = sql.join(
  COPIED.map((k) => sql.identifier(invoiceDetails[k].name)),
  sql`, `,
);
const COPIED_FROM_SOURCE = sql.join(
  COPIED.map((k) => sql`src.${sql.identifier(invoiceDetails[k].name)}`),
  sql`, `,
);

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
async function writeInvoice(db: Db, group: Group, payload: z.infer<typeof invoicingPayload>, costsOf: CostsOf, refuse: (lines: Loaded[]) => void) {
  const userId = payload.userId;
  let lines = group.lines;
  for (;;) {
    if (!lines.length) return null;
    try {
      return await db.transaction(async (tx) => {
        const sells = lines.map((l) => sellOfLine(l, costsOf));
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
          .returning();
        // the lines copied inside the database from the lines they bill: a 250-line invoice is two
        // arrays, not 8,000 parameters (bench/invoicing.ts)
        const inserted = rowsOf<{ id: number; source: number }>(
          await tx.execute(sql`
            insert into invoice_details (${COPIED_NAMES}, invoice_id, line_number, state, source_detail_id, total_cost)
            select ${COPIED_FROM_SOURCE}, ${inv!.id}, x.n, 'invoiced', src.id, x.total
            from unnest(${`{${lines.map((l) => l.d.id).join(",")}}`}::int[], ${`{${lines.map((_, i) => centsToAmount(gst.lines[i]!.subtotal + gst.lines[i]!.gst)).join(",")}}`}::numeric[]) with ordinality as x(id, total, n)
            join invoice_details src on src.id = x.id
            order by x.n
            on conflict (source_detail_id) where source_detail_id is not null do nothing
            returning id, source_detail_id as source`),
        );
        if (inserted.length !== lines.length) {
          const got = new Set(inserted.map((r) => r.source));
          throw new AlreadyBilled(lines.filter((l) => !got.has(l.d.id)).map((l) => l.d.id));
        }
        const idOf = new Map(inserted.map((r) => [r.source!, r.id]));
        // the race with another run billing the same consignment's charge from another carrier line
        const rebill = payload.rebill ? { note: payload.rebill.note, userId } : null;
        const claim = await claimCharges(tx, lineCharges(lines, sells).map((c) => ({ ...c, detailId: idOf.get(c.lineId)! })), rebill);
        if (claim.taken.length) throw new AlreadyBilled([], claim.taken);
        if (rebill && claim.rebilled.length) await noteRebills(tx, lines.filter((l) => claim.rebilled.includes(l.d.id)), rebill);
        const costRows = lines.flatMap((l, i) => {
          const detailId = idOf.get(l.d.id)!;
          const rows = sells[i]!.lines.map((s) => ({ invoiceDetailId: detailId, category: s.category as CostCategory, description: s.description, amount: centsToAmount(s.amount) }));
          if (gst.tax_name) rows.push({ invoiceDetailId: detailId, category: "gst", description: gst.tax_name, amount: centsToAmount(gst.lines[i]!.gst) });
          return rows;
        });
        if (costRows.length)
          await tx.execute(sql`insert into invoice_costs (invoice_detail_id, category, description, amount)
            select x.detail, x.category, x.description, x.amount
            from json_to_recordset(${JSON.stringify(costRows.map((c) => ({ detail: c.invoiceDetailId, category: c.category, description: c.description, amount: c.amount })))}::json)
              as x(detail int, category text, description text, amount numeric)`);
        await tx.execute(sql`update reconciliations r set customer_invoice_detail_id = d.id, updated_at = now()
          from invoice_details d where d.invoice_id = ${inv!.id} and d.source_detail_id = r.invoice_detail_id`);
        const number = await takeInvoiceNumber(tx);
        await tx.update(invoices).set({ invoiceNumber: number }).where(eq(invoices.id, inv!.id));
        // with the invoice: a run that rolls back (a line billed meanwhile) announces nothing
        await emitEvent(tx, { type: "invoice.created", customerId: group.customerId, payload: receivableInvoiceJson({ ...inv!, invoiceNumber: number }, group.customerName, lines.length) });
        return { id: inv!.id, invoice_number: number, customer_name: group.customerName, lines: lines.length, total: centsToAmount(gst.total) };
      });
    } catch (e) {
      if (!(e instanceof AlreadyBilled)) throw e;
      const taken = new Set([...e.billed, ...e.charged]);
      const charged = new Set(e.charged);
      refuse(lines.filter((l) => charged.has(l.d.id)));
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
  const result: InvoicingResult = { invoices: [], skipped: new Set(payload.invoiceDetailIds).size - lines.length, refused: [] };
  if (!lines.length) return result;
  const costsOf = await loadCosts(db, lines);
  const groups = await groupLines(db, lines);
  const refusedLines: Loaded[] = [];
  let n = 0;
  for (const group of groups) {
    const before = refusedLines.length;
    const written = await writeInvoice(db, group, payload, costsOf, (ls) => refusedLines.push(...ls));
    n += 1;
    const refusedHere = refusedLines.length - before;
    if (!written) {
      result.skipped += group.lines.length - refusedHere;
      continue;
    }
    result.skipped += group.lines.length - written.lines - refusedHere;
    // after the commit: a PDF or an e-mail that fails leaves the invoice made, and says so
    const delivered = await deliverInvoice(services, written.id);
    result.invoices.push({ ...written, ...delivered });
    await progress(Math.round((n / groups.length) * 100), `Invoiced ${n} of ${groups.length} invoices`);
  }
  result.refused = await refusalsOf(db, refusedLines, costsOf);
  return result;
}

/** Names what a refused line's charges are billed on, now that the run that took them has committed. */
async function refusalsOf(db: Db, lines: Loaded[], costsOf: CostsOf): Promise<InvoicingResult["refused"]> {
  if (!lines.length) return [];
  const charges = lineCharges(lines, lines.map((l) => sellOfLine(l, costsOf)));
  const billed = await billedAlready(db, charges);
  return lines.map((l) => {
    const mine = charges.filter((c) => c.lineId === l.d.id);
    const named = mine.flatMap((c) => {
      const invoice = billedOn(billed, c);
      return invoice ? [BILLED_MESSAGES.alreadyBilled(c.consignment, c.category, invoice)] : [];
    });
    return { invoice_detail_id: l.d.id, message: named.join(" ") || BILLED_MESSAGES.chosenTwice(l.d.consignmentNumber ?? String(l.d.id), mine[0]?.category ?? "charge") };
  });
}

/** A rebill is recorded on the line's reconciliation too, where finance reads the line's story. */
async function noteRebills(tx: DbOrTx, lines: Loaded[], rebill: { note: string; userId: number | null }) {
  await tx.insert(reconciliationNotes).values(lines.map((l) => ({ reconciliationId: l.recId, userId: rebill.userId, text: BILLED_MESSAGES.rebillNote(rebill.note).slice(0, 255) })));
}
