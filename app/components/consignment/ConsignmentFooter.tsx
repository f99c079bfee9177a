import { Link } from "@remix-run/react";
import { canPromoteQuote, formatVolume, formatWeight, returnDespatchButtons } from "~/modules/consignments/rules";
import type { ScreenData } from "~/modules/consignments/screen.server";
import { InfoButton } from "./InfoDialog";
import { PrintButton } from "./PrintButton";
import type { ConsignmentFormState } from "./useConsignmentFormState";

/** Keyboard shortcuts of the consignment screen, shown in its footer. */
export const SHORTCUTS = [
  { keys: "Alt+S", action: "Save" },
  { keys: "Alt+P", action: "Save and Print (consignments)" },
  { keys: "Alt+A", action: "Add item line (or Enter in the last weight)" },
  { keys: "Alt+R", action: "Go to the rates" },
] as const;

/** Totals of the item lines, in the site's units. */
export function ConsignmentSummary({ f }: { f: ConsignmentFormState }) {
  const { summary, som } = f;
  return (
    <section className="card grid grid-cols-2 gap-2 text-sm md:grid-cols-6" aria-label="Summary" data-testid="summary">
      <div>
        <div className="text-xs text-slate-500">Total weight</div>
        <div data-testid="summary-weight">{formatWeight(summary.weight, som)}</div>
      </div>
      <div>
        <div className="text-xs text-slate-500">Volume</div>
        <div data-testid="summary-volume">{formatVolume(summary.volume, som)}</div>
      </div>
      <div>
        <div className="text-xs text-slate-500">Items</div>
        <div>{summary.items}</div>
      </div>
      <div>
        <div className="text-xs text-slate-500">Packages</div>
        <div data-testid="summary-packages">{summary.packages}</div>
      </div>
      <div>
        <div className="text-xs text-slate-500">Hazardous items</div>
        <div>{summary.hazardousItems}</div>
      </div>
      <div>
        <div className="text-xs text-slate-500">Aggregate quantity</div>
        <div>{summary.aggregateQuantity}</div>
      </div>
    </section>
  );
}

/** The actions: the failed despatch's charge account, then the footer's buttons (which ones show is footerButtons' rule) and the shortcuts. */
export function ConsignmentFooter({ f, data }: { f: ConsignmentFormState; data: ScreenData }) {
  const { c, v, buttons, saving, setClientAlerts } = f;
  return (
    <>
      {buttons.saveChargeAccount.visible && c ? (
        <section className="card flex items-end gap-2" aria-label="Charge account of a failed despatch">
          <div>
            <label className="label" htmlFor="failed_charge_account">
              Receiver account (charge account)
            </label>
            <input id="failed_charge_account" name="failed_charge_account" className="input" maxLength={30} defaultValue={c.charge_account ?? ""} />
          </div>
          <button type="submit" name="intent" value="charge_account" className="btn-primary" disabled={!buttons.saveChargeAccount.enabled} formNoValidate>
            Save
          </button>
        </section>
      ) : null}
      <footer className="flex flex-wrap items-center gap-2" data-testid="footer">
        {buttons.save.visible && (
          <button type="submit" name="intent" value="save" className="btn-primary" disabled={!buttons.save.enabled} aria-keyshortcuts="Alt+S">
            Save
          </button>
        )}
        {v.isQuote ? (
          <>
            <button type="submit" name="intent" value="delete" className="btn-danger" disabled={!c} formNoValidate>
              Delete
            </button>
            <button type="submit" name="intent" value="promote" className="btn" disabled={!(c && canPromoteQuote(c)) || saving} formNoValidate>
              Create Consignment
            </button>
          </>
        ) : null}
        {v.returnType && !v.isQuote
          ? (() => {
              const r = returnDespatchButtons(c ? { id: c.id, state: c.state, hasRate: Boolean(c.carrier_code), errors: c.errors, email: c.return_info?.email } : null);
              return (
                <>
                  {r.despatchPrint.visible && (
                    <button type="submit" name="intent" value="despatch_print" className="btn" disabled={!r.despatchPrint.enabled} formNoValidate>
                      Despatch + print
                    </button>
                  )}
                  {r.despatchEmail.visible && (
                    <button type="submit" name="intent" value="despatch_email" className="btn" disabled={!r.despatchEmail.enabled} formNoValidate>
                      Despatch + email
                    </button>
                  )}
                  {r.resendEmail.visible && (
                    <button type="submit" name="intent" value="resend_email" className="btn" formNoValidate>
                      Resend email
                    </button>
                  )}
                </>
              );
            })()
          : null}
        {buttons.saveAndPrint.visible && !v.returnType && (
          <button type="submit" name="intent" value={data.printButton} className="btn" disabled={!buttons.saveAndPrint.enabled} aria-keyshortcuts="Alt+P">
            {data.printButton === "save_print_new" ? "Save + Print + New" : "Save + Print Labels"}
          </button>
        )}
        {buttons.saveAndPrint.visible && !v.returnType && (
          <details className="relative" data-menu>
            <summary className="btn cursor-pointer list-none" aria-label="Save and Print options">
              ▾
            </summary>
            <div className="absolute bottom-full z-20 mb-1 min-w-48 rounded border border-slate-200 bg-white py-1 shadow-lg">
              {(
                [
                  ["save_print", "Save + Print Labels"],
                  ["save_print_new", "Save + Print + New"],
                ] as const
              ).map(([value, label]) => (
                <button key={value} type="submit" name="print_button" value={value} formNoValidate className="block w-full px-3 py-1 text-left text-sm hover:bg-slate-100">
                  {data.printButton === value ? "✓ " : ""}
                  {label}
                </button>
              ))}
            </div>
          </details>
        )}
        {buttons.redespatch.visible && c ? (
          <Link to={`${v.path}/${c.id}?redespatch=1`} className="btn" data-button="redespatch">
            Re-Despatch
          </Link>
        ) : null}
        {(
          [
            ["cancel", "Cancel", "cancel"],
            ["confirmCancel", "Confirm Cancel", "confirm_cancel"],
          ] as const
        ).map(([key, label, intent]) =>
          buttons[key].visible ? (
            <button key={key} type="submit" name="intent" value={intent} className="btn" disabled={!buttons[key].enabled} title={buttons[key].hint} data-button={key} formNoValidate>
              {label}
            </button>
          ) : null,
        )}
        {buttons.cancel.visible && !buttons.cancel.enabled && buttons.cancel.hint ? <span className="text-xs text-slate-500">{buttons.cancel.hint}</span> : null}
        {buttons.tracking.visible && c ? (
          <Link to={`/tracking/${c.id}`} className="btn" title={buttons.tracking.hint} data-button="tracking">
            Tracking
          </Link>
        ) : null}
        {buttons.enquiries.visible && c ? (
          <Link to={`/consignment/${c.id}/enquiries`} className="btn" title={buttons.enquiries.hint} data-button="enquiries">
            Enquiries
          </Link>
        ) : null}
        {buttons.reprint.visible && c ? (
          <a className="btn" href={`/print/${c.id}/labels`} target="_blank" rel="noreferrer">
            Reprint
          </a>
        ) : null}
        {buttons.printConnote.visible && c ? <PrintButton type="Connote" ids={[c.id]} label="Print connote" noun="consignment note" onAlert={(a) => setClientAlerts((list) => [...list, a])} /> : null}
        {c && c.print_dangerous_goods_documents && c.consignment_number && c.state !== "cancelled" ? (
          <PrintButton type="Connote" ids={[c.id]} label="DG documents" noun="dangerous goods document" document="dangerous_goods" onAlert={(a) => setClientAlerts((list) => [...list, a])} />
        ) : null}
        {buttons.info.visible && c ? <InfoButton consignmentId={c.id} /> : null}
        <Link to={data.variant === "consignment" ? "/" : v.path} className="btn">
          New
        </Link>
        <p className="ml-auto text-xs text-slate-500" data-testid="shortcuts">
          {SHORTCUTS.map((s) => (
            <span key={s.keys} className="mr-3">
              <kbd className="rounded border border-slate-300 bg-slate-50 px-1">{s.keys}</kbd> {s.action}
            </span>
          ))}
        </p>
      </footer>
    </>
  );
}
