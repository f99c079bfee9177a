/**
 * The loader and action behind both list screens, /reconciliations and
 * /invoices/{invoice_id}/reconciliations (spec 3 section 2 "Reconciliations list"), so the two
 * routes stay a line each. Reads go through list.server.ts, bulk actions through bulk.server.ts,
 * the page size through the user options (reconciliation_per_page).
 */
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { inArray, and, sql } from "drizzle-orm";
import { invoiceDetails, reconciliations } from "../../../db/schema";
import { AppError } from "../../utils/errors";
import { readPageForm } from "../../utils/http.server";
import { throwIfAccessError } from "../../utils/ui.server";
import { idParam } from "../../utils/validation";
import { canAdministerInvoices, financeScope } from "../invoices/access";
import { requireFinanceUser } from "../invoices/guard.server";
import { getInvoice } from "../invoices/list.server";
import { updateUserOptions } from "../users/options.server";
import { bulkUpdate, type BulkOutcome } from "./bulk.server";
import { listChoices, listMeta, listQueryOf, listReconciliations, parseListQuery } from "./list.server";
import { startInvoicing } from "../invoicing/invoice.server";
import { RECONCILIATION_MESSAGES } from "./states";

/** Invoice (reconciled tab only) starts the invoicing job; the other four are bulk updates. */
const LIST_ACTIONS = ["invoice", "dispute", "accept", "use_consignment_costs", "reset"] as const;
type PageAction = (typeof LIST_ACTIONS)[number];

export async function listPageLoader(context: AppLoadContext, request: Request, invoiceParam?: string) {
  const { user } = await requireFinanceUser(context, request);
  const url = new URL(request.url);
  try {
    const invoice = invoiceParam === undefined ? null : await getInvoice(context.db, user, idParam(invoiceParam, "Invoice id"));
    const raw: Record<string, unknown> = { ...listQueryOf(url.searchParams), ...(invoice ? { invoice_id: invoice.id } : {}) };
    let errors: Record<string, string[]> = {};
    let query: Record<string, unknown> = raw;
    try {
      parseListQuery(user, raw);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      // the filters as typed are wrong: say so, and show the tab unfiltered below
      errors = e.fieldErrors;
      query = { state: ["reconciling", "disputed", "reconciled"].includes(String(raw.state)) ? raw.state : undefined, ...(invoice ? { invoice_id: invoice.id } : {}) };
    }
    const q = parseListQuery(user, query);
    const [page, meta, choices] = await Promise.all([listReconciliations(context.db, user, query), listMeta(context.db, user, query), listChoices(context.db, user)]);
    return {
      page,
      meta,
      choices,
      errors,
      query: { ...q, reasons: q.reasons },
      invoice: invoice ? { id: invoice.id, invoice_number: invoice.invoice_number } : null,
      canAct: canAdministerInvoices(user),
      customerScoped: financeScope(user).kind === "customer",
    };
  } catch (e) {
    throwIfAccessError(e);
    if (e instanceof AppError) throw data({ message: e.message }, { status: e.status });
    throw e;
  }
}

export type ListPageAction =
  | { kind: "confirm"; action: PageAction; ids: number[] }
  | { kind: "done"; outcome: BulkOutcome; lines: Record<number, string | null> }
  | { kind: "error"; message: string; action?: PageAction; ids?: number[]; errors?: Record<string, string[]> };

/**
 * intent=per_page saves the page size; intent=confirm opens the note dialog for a bulk button
 * (rendered by the server, so it works before JavaScript); intent=bulk does it.
 */
export async function listPageAction(context: AppLoadContext, request: Request) {
  const { user } = await requireFinanceUser(context, request);
  const form = await readPageForm(request);
  const intent = String(form.get("intent") ?? "");
  const url = new URL(request.url);
  const action = LIST_ACTIONS.find((a) => a === form.get("action"));
  const ids = form.getAll("ids").map(Number).filter((n) => Number.isInteger(n) && n > 0);
  try {
    if (intent === "per_page") {
      await updateUserOptions(context.db, user, user.id, { options: { reconciliation_per_page: form.get("per_page") } });
      url.searchParams.delete("page");
      return redirect(url.pathname + url.search);
    }
    if (!action) throw new AppError("bad_request", "Unknown action");
    if (intent === "confirm") {
      if (!ids.length) return data({ kind: "error", message: RECONCILIATION_MESSAGES.chooseSome } satisfies ListPageAction, { status: 422 });
      return { kind: "confirm", action, ids } satisfies ListPageAction;
    }
    if (intent === "bulk") {
      if (action !== "invoice") {
        const outcome = await bulkUpdate(context.db, user, action, { ids, note: action === "reset" ? undefined : String(form.get("note") ?? "") }, { mailer: context.mailer });
        return { kind: "done", outcome, lines: await consignmentNumbers(context, user, [...outcome.done.map((d) => d.id), ...outcome.refused.map((r) => r.id)]) } satisfies ListPageAction;
      }
      // the chosen reconciliations' carrier lines, as the user may see them, go to invoicing;
      // the job checks again that each is still invoiceable (reconciled and not yet billed)
      const { job_id } = await startInvoicing(context.db, context.queue, user, { invoice_detail_ids: await invoiceLinesOf(context, user, ids) });
      url.searchParams.set("invoice_job", job_id);
      return redirect(url.pathname + url.search);
    }
    throw new AppError("bad_request", "Unknown action");
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    const message = action === "reset" ? RECONCILIATION_MESSAGES.failedToResetList(e.message) : e.message;
    // a refused note keeps the dialog open with its message
    return data({ kind: "error", message, action, ids, errors: e.fieldErrors } satisfies ListPageAction, { status: e.status });
  }
}

/** The carrier invoice lines of the reconciliations `ids` the user may see. */
async function invoiceLinesOf(context: AppLoadContext, user: Awaited<ReturnType<typeof requireFinanceUser>>["user"], ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const scope = financeScope(user);
  const rows = await context.db
    .select({ id: reconciliations.invoiceDetailId })
    .from(reconciliations)
    .where(and(inArray(reconciliations.id, ids), scope.kind === "customer" ? sql`${reconciliations.customerId} = ${scope.customerId}` : undefined));
  return rows.map((r) => r.id);
}

/** The consignment numbers of the lines a bulk action answered about, for its per-line result. */
async function consignmentNumbers(context: AppLoadContext, user: Awaited<ReturnType<typeof requireFinanceUser>>["user"], ids: number[]): Promise<Record<number, string | null>> {
  if (!ids.length) return {};
  const scope = financeScope(user);
  const rows = await context.db
    .select({ id: reconciliations.id, number: invoiceDetails.consignmentNumber })
    .from(reconciliations)
    .innerJoin(invoiceDetails, sql`${invoiceDetails.id} = ${reconciliations.invoiceDetailId}`)
    .where(and(inArray(reconciliations.id, ids), scope.kind === "customer" ? sql`${reconciliations.customerId} = ${scope.customerId}` : undefined));
  return Object.fromEntries(rows.map((r) => [r.id, r.number]));
}
