import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation, type ShouldRevalidateFunction } from "@remix-run/react";
import { LineDetailDialog } from "~/components/finance/LineDetailDialog";
import { CostEditor } from "~/components/reconciliation-detail/CostEditor";
import { DetailPanel } from "~/components/reconciliation-detail/DetailPanel";
import { NotesAndActions } from "~/components/reconciliation-detail/NotesAndActions";
import { requireFinanceUser } from "~/modules/invoices/guard.server";
import { backPath, listFromReferer, RECONCILIATIONS_LIST } from "~/modules/reconciliation/back-link";
import { saveCosts } from "~/modules/reconciliation/costs.server";
import { costsFromForm } from "~/modules/reconciliation/costs-form";
import { getReconciliation, resetReconciliation, saveReconciliation } from "~/modules/reconciliation/detail.server";
import { rerunReconciliation } from "~/modules/reconciliation/rerate.server";
import { RECONCILIATION_MESSAGES } from "~/modules/reconciliation/states";
import { AppError } from "~/utils/errors";
import { readForm } from "~/utils/http.server";
import { throwIfAccessError } from "~/utils/ui.server";
import { idParam } from "~/utils/validation";

export const meta: MetaFunction = () => [{ title: "Reconciliation · FreightDesk" }];

/** The detail, the BUY/SELL view and the Invoice Detail modal (?costs=1), all in the URL; a failed load goes back to the list. */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const url = new URL(request.url);
  const q = url.searchParams;
  // came from a list without saying so: keep that list's URL (filters, tab, page) for Back
  if (!q.has("back")) {
    const from = listFromReferer(request.headers.get("referer"), url.origin);
    if (from) {
      q.set("back", from);
      throw redirect(`${url.pathname}?${q.toString()}`);
    }
  }
  let rec;
  try {
    rec = await getReconciliation(context.db, user, idParam(params.id, "Reconciliation id"));
  } catch (e) {
    // not one of theirs, or not there: back to the list (spec 3); not allowed at all: the shell's 403
    if (e instanceof AppError && e.code !== "forbidden") throw redirect(RECONCILIATIONS_LIST);
    throwIfAccessError(e);
    throw e;
  }
  return { rec, clock: { timeZone: user.clock.timeZone, dateFormat: user.clock.dateFormat }, view: q.get("view") === "sell" ? ("sell" as const) : ("buy" as const), back: backPath(q.get("back")), costsOpen: q.get("costs") === "1" };
}

type ActionData = { intent?: string; message?: string; ok?: boolean; errors?: Record<string, string[]> };

/** Save, Save + Accept, Charge From, Reset, Re Run and the modal's cost save: each one call of the reconciliation module. */
export async function action({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireFinanceUser(context, request);
  const id = idParam(params.id, "Reconciliation id");
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const version = form.get("version");
  const note = String(form.get("note") ?? "");
  try {
    if (intent === "save") await saveReconciliation(context.db, user, id, { version, note });
    else if (intent === "accept") await saveReconciliation(context.db, user, id, { version, note, state: "reconciled" });
    else if (intent === "charge_from") await saveReconciliation(context.db, user, id, { version, charge_from_consignment: form.get("charge_from_consignment") });
    else if (intent === "reset") await resetReconciliation(context.db, user, id);
    else if (intent === "rerun") await rerunReconciliation(context.db, user, id);
    else if (intent === "save_costs") await saveCosts(context.db, user, id, { version, costs: costsFromForm(form), cost_note: form.get("cost_note") });
    else throw new AppError("bad_request", "Unknown action");
    const done: Record<string, string> = { save: "Saved.", accept: "Saved and accepted.", charge_from: "Charge From saved.", reset: "Reconciliation reset.", rerun: "Reconciliation compared again.", save_costs: "Costs saved." };
    return { intent, message: done[intent], ok: true } satisfies ActionData;
  } catch (e) {
    throwIfAccessError(e);
    if (!(e instanceof AppError)) throw e;
    // the spec's messages: reset and re-run carry their own; a save's failure is 'Unable to save. {message}'
    const message = intent === "reset" || intent === "rerun" || e.code === "stale" || e.fieldErrors.notable || intent === "save_costs" ? (e.fieldErrors.base?.[0] ?? e.message) : RECONCILIATION_MESSAGES.unableToSave(e.message);
    return data({ intent, message, ok: false, errors: e.fieldErrors } satisfies ActionData, { status: e.status });
  }
}

/**
 * After any action the reconciliation is read again, a refused one too: a stale save must show
 * what the other person saved and take its version, so the next try can succeed.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ actionResult, defaultShouldRevalidate }) => (actionResult ? true : defaultShouldRevalidate);

const money = (n: number | null | undefined) => (n == null ? "—" : `$${n.toFixed(2)}`);

export default function ReconciliationDetailPage() {
  const { rec, clock, view, back, costsOpen } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionData | undefined;
  const busy = useNavigation().state !== "idle";
  const base = `/reconciliation/${rec.id}`;
  const href = (changes: Record<string, string | null>) => {
    const p = new URLSearchParams({ ...(view === "sell" ? { view } : {}), ...(back !== RECONCILIATIONS_LIST ? { back } : {}) });
    for (const [k, v] of Object.entries(changes)) {
      if (v == null) p.delete(k);
      else p.set(k, v);
    }
    const s = p.toString();
    return s ? `${base}?${s}` : base;
  };
  const sell = view === "sell";
  const c = rec.consignment;
  const d = rec.invoice_detail;
  const number = d.consignment_number ?? c?.consignment_number ?? "(none)";
  const pageErrors = result && !result.ok && result.intent !== "save_costs" ? result : undefined;
  const noteError = pageErrors?.errors?.notable ?? pageErrors?.errors?.note;
  const ratingInfo = (r: { charge_weight: number | null; from_zone: string | null; to_zone: string | null; markup: number; surcharge_markup: number } | null | undefined): Array<[string, string | null]> => [
    ["Charge weight", r?.charge_weight == null ? null : String(r.charge_weight)],
    ["From zone", r?.from_zone ?? null],
    ["To zone", r?.to_zone ?? null],
    ["Markup", r ? `${r.markup}%` : null],
    ["Surcharge markup", r ? `${r.surcharge_markup}%` : null],
  ];
  const invoiceAddress = (side: "sender" | "receiver") => ({ name: d[`${side}_name`], locality: d[`${side}_locality`], region: d[`${side}_region`], postcode: d[`${side}_postcode`] });
  return (
    <div className="space-y-4" data-testid="reconciliation-detail">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold" data-testid="reconciliation-title">
          {rec.state_label} reconciliation: consignment {number}, margin {rec.margin_percent == null ? "—" : `${rec.margin_percent.toFixed(2)}%`}
        </h1>
        <nav aria-label="Buy or sell" className="flex gap-1">
          <Link to={href({ view: null })} aria-current={!sell ? "page" : undefined} className={`rounded border px-3 py-1 text-sm ${!sell ? "border-sky-600 bg-sky-50 font-semibold" : "border-slate-300"}`}>
            BUY
          </Link>
          <Link to={href({ view: "sell" })} aria-current={sell ? "page" : undefined} className={`rounded border px-3 py-1 text-sm ${sell ? "border-sky-600 bg-sky-50 font-semibold" : "border-slate-300"}`}>
            SELL
          </Link>
        </nav>
      </div>
      {result?.message && !(result.intent === "save_costs" && costsOpen) ? (
        <div role={result.ok ? "status" : "alert"} className={`rounded border px-3 py-2 text-sm ${result.ok ? "border-green-300 bg-green-50" : "border-red-300 bg-red-50"}`} data-testid="reconciliation-message">
          {result.message}
        </div>
      ) : null}
      <dl className="card grid grid-cols-2 gap-2 text-sm md:grid-cols-5">
        <div>
          <dt className="text-slate-500">Invoiced (excluding GST)</dt>
          <dd className="tabular-nums">{money(rec.invoiced)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Rated buy (excluding GST)</dt>
          <dd className="tabular-nums">{money(rec.rated_buy)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Discrepancy</dt>
          <dd className="tabular-nums">{money(rec.discrepancy_amount)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Margin (excluding GST)</dt>
          <dd className="tabular-nums">{money(rec.margin)}</dd>
        </div>
        <div>
          <dt className="text-slate-500">Issues</dt>
          <dd>{rec.reason_categories.length ? rec.reason_categories.map((r) => r.replaceAll("_", " ")).join(", ") : "None"}</dd>
          {rec.duplicate_of ? (
            <dd className="font-semibold text-amber-800" data-testid="duplicate-of">
              Possible duplicate of{" "}
              <Link to={`/invoice/${rec.duplicate_of.invoice_id}`} className="underline">
                invoice {rec.duplicate_of.invoice_number ?? "—"} line {rec.duplicate_of.line_number}
              </Link>
            </dd>
          ) : null}
        </div>
      </dl>
      <div className="grid gap-4 lg:grid-cols-3">
        <DetailPanel
          title="Consignment"
          testId="panel-consignment"
          costs={c ? (sell ? c.sell_costs : c.buy_costs) : []}
          total={c ? (sell ? c.total_sell_cost : c.total_buy_cost) : 0}
          info={ratingInfo(c?.rating_detail)}
          sender={c?.sender_address ?? null}
          receiver={c?.receiver_address ?? null}
          status={c ? <p className="text-sm">{c.service_name ?? "No service"}</p> : <p className="text-sm text-amber-800">No consignment found</p>}
        />
        {sell ? (
          <DetailPanel
            title={rec.customer_invoice_detail ? "Customer invoice" : "Customer charge"}
            testId="panel-customer-invoice"
            costs={rec.customer_invoice_detail ? rec.customer_invoice_detail.costs : rec.sell.lines}
            total={rec.charged.excluding_gst}
            totals={
              rec.charged.gst != null && rec.charged.including_gst != null
                ? [
                    ["Total (excluding GST)", rec.charged.excluding_gst],
                    ["GST", rec.charged.gst],
                    ["Total (including GST)", rec.charged.including_gst],
                  ]
                : undefined
            }
            info={ratingInfo(c?.rating_detail)}
            sender={invoiceAddress("sender")}
            receiver={invoiceAddress("receiver")}
          >
            <Form method="post" replace preventScrollReset className="flex items-center gap-2 text-sm" aria-label="Charge From">
              <input type="hidden" name="intent" value="charge_from" />
              <input type="hidden" name="version" value={rec.version} />
              <span id="charge-from-label">Charge From</span>
              <div role="group" aria-labelledby="charge-from-label" className="flex gap-1">
                {[
                  ["true", "Consignment"],
                  ["false", "Invoice"],
                ].map(([v, label]) => {
                  // a credit is always charged from the invoice (sell.ts), whatever the option says
                  const on = rec.sell.credit ? v === "false" : String(rec.reconciliation_options.charge_from_consignment) === v;
                  return (
                    <button key={v} type="submit" name="charge_from_consignment" value={v} aria-pressed={on} disabled={!rec.can_edit || busy || rec.sell.credit} className={`rounded border px-2 py-1 ${on ? "border-sky-600 bg-sky-50 font-semibold" : "border-slate-300"}`}>
                      {label}
                    </button>
                  );
                })}
              </div>
              {rec.sell.credit ? <span className="text-slate-600">A credit: charged from the invoice, in proportion to the rated sell.</span> : null}
            </Form>
          </DetailPanel>
        ) : (
          <DetailPanel
            title="Invoice"
            testId="panel-invoice"
            costs={d.costs}
            total={d.costs.filter((k) => k.category !== "gst").reduce((a, k) => a + Math.round(k.amount * 100), 0) / 100}
            info={[
              ["Charge weight", d.total_charge_weight == null ? null : String(d.total_charge_weight)],
              ["From zone", d.sender_zone],
              ["To zone", d.receiver_zone],
              ["Service", d.service_name ?? (d.unquoted ? "Unquoted" : d.service_description)],
              ["Total cost", money(d.total_cost)],
            ]}
            sender={invoiceAddress("sender")}
            receiver={invoiceAddress("receiver")}
          />
        )}
        <DetailPanel
          title="Re-rating"
          testId="panel-rerate"
          disabled={rec.rerate.disabled}
          costs={sell ? rec.rerate.sell_costs : rec.rerate.buy_costs}
          total={sell ? rec.rerate.total_sell_cost : rec.rerate.total_buy_cost}
          info={ratingInfo(rec.rerate.rating_detail)}
          sender={invoiceAddress("sender")}
          receiver={invoiceAddress("receiver")}
          status={
            <p className="text-sm" data-testid="rerate-status">
              <span className="font-medium">{rec.rerate.label}</span>
              {rec.rerate.error ? <span className="block text-amber-800">{rec.rerate.error}</span> : null}
            </p>
          }
        />
      </div>
      <NotesAndActions rec={rec} noteError={noteError} saved={result?.ok ? result : null} busy={busy} invoiceDetailHref={href({ costs: "1" })} back={back} clock={clock} />
      {costsOpen ? (
        <LineDetailDialog
          line={d}
          // the reconciliation variant shows the line read only: no selects to fill
          choices={{ customers: [], sites: [], services: [] }}
          hrefFor={() => href({ costs: "1" })}
          closeHref={href({ costs: null })}
          canEdit={false}
          errors={{}}
          redirectTo={href({})}
          returnFocusId="invoice-detail-button"
          costEditor={
            <>
              {/* a refusal a field already says (the cost lines' or the note's) is not said twice */}
              {result?.intent === "save_costs" && result.message && !(!result.ok && Object.values(result.errors ?? {}).some((m) => m?.includes(result.message ?? ""))) ? (
                <p role={result.ok ? "status" : "alert"} className={`rounded border px-3 py-2 text-sm ${result.ok ? "border-green-300 bg-green-50" : "border-red-300 bg-red-50"}`} data-testid="costs-message">
                  {result.message}
                </p>
              ) : null}
              <CostEditor key={rec.version} costs={d.costs} version={rec.version} errors={result?.intent === "save_costs" && !result.ok ? (result.errors ?? {}) : {}} closeHref={href({ costs: null })} canEdit={rec.can_edit} />
            </>
          }
        />
      ) : null}
    </div>
  );
}
