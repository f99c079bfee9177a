import { Form, Link } from "@remix-run/react";
import { Alerts } from "~/components/Alerts";
import type { AccessSubject } from "~/modules/auth/roles";
import { TYPED_PLACES_FIELD } from "~/modules/consignments/form";
import type { ScreenData, ScreenOutcome } from "~/modules/consignments/screen.server";
import { AddressDialog } from "./AddressDialog";
import { CarrierSelection } from "./CarrierSelection";
import { ConsignmentDetails } from "./ConsignmentDetails";
import { ConsignmentFooter, ConsignmentSummary } from "./ConsignmentFooter";
import { DeliveryInformation } from "./DeliveryInformation";
import { AcknowledgeDialog, DespatchProgress, RedespatchDialog } from "./DespatchDialogs";
import { ItemLines } from "./ItemLines";
import { MergePanel } from "./MergeDialog";
import { PickupInformation } from "./PickupInformation";
import { PrintedLabels } from "./PrintedLabels";
import { useConsignmentFormState } from "./useConsignmentFormState";

export { SHORTCUTS } from "./ConsignmentFooter";

/**
 * The consignment screen of every variant (consignment, return, third party, their quotes). Its
 * state lives in useConsignmentFormState; each section of the form is its own component.
 */
export function ConsignmentForm({ data, outcome, user }: { data: ScreenData; outcome: ScreenOutcome | undefined; user: AccessSubject }) {
  const f = useConsignmentFormState({ data, outcome, user });
  const { c, v, site, country, today, pickup, setPickup, setSender, setReceiver, hydrated, editable, errorFor, alerts, clientAlerts, setClientAlerts, addressDialog, setAddressDialog, formRef, title } = f;

  return (
    <div className="space-y-4" data-testid="consignment-screen" data-hydrated={hydrated ? "true" : undefined}>
      <div className="flex items-center justify-between">
        <h1 className="text-xl font-semibold" data-testid="consignment-title">
          {title}
        </h1>
        <details className="relative" data-menu>
          <summary className="btn cursor-pointer list-none">New ▾</summary>
          <div className="absolute right-0 z-20 mt-1 min-w-48 rounded border border-slate-200 bg-white py-1 shadow-lg">
            <Link className="block px-3 py-1 text-sm hover:bg-slate-100" to="/">
              Consignment
            </Link>
            <Link className="block px-3 py-1 text-sm hover:bg-slate-100" to="/return">
              Return
            </Link>
            <Link className="block px-3 py-1 text-sm hover:bg-slate-100" to="/thirdparty">
              Third Party Pickup
            </Link>
          </div>
        </details>
      </div>
      <Alerts alerts={[...alerts, ...clientAlerts]} />
      {data.printed && data.printed !== "incomplete" ? <PrintedLabels id={data.printed.id} count={data.printed.count} /> : null}
      {data.job ? <DespatchProgress key={data.job.id} jobId={data.job.id} initial={data.job} /> : null}
      {data.redespatch && c ? <RedespatchDialog path={`${v.path}/${c.id}`} number={data.redespatch.number} lastDespatchTime={data.redespatch.lastDespatchTime} timeZone={site?.timezone ?? null} country={country} /> : null}
      {outcome?.dialog && c ? <AcknowledgeDialog title={outcome.dialog.title} message={outcome.dialog.message} path={`${v.path}/${c.id}`} /> : null}
      {hydrated && c && editable && data.variant === "consignment" ? (
        <MergePanel consignmentId={c.id} openAfterSave={Boolean(data.saved)} onError={(message) => setClientAlerts((list) => [...list, { type: "error", message }])} />
      ) : null}
      {outcome?.alert?.refresh ? (
        <div role="alert" className="flex items-center justify-between rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900">
          <span>{outcome.alert.message}</span>
          <a className="btn" href={c ? `/consignment/${c.id}` : "/"}>
            Refresh
          </a>
        </div>
      ) : null}

      <Form method="post" ref={formRef} className="space-y-4" noValidate aria-label="Consignment">
        <input type="hidden" name="version" value={c?.version ?? ""} />
        {/* until JavaScript takes over, localities are typed: the server resolves them */}
        {hydrated ? null : <input type="hidden" name={TYPED_PLACES_FIELD} value="1" />}
        <fieldset disabled={!editable} className="space-y-4">
          <ConsignmentDetails f={f} data={data} />

          <DeliveryInformation f={f} data={data} />

          {v.returnType ? <PickupInformation value={pickup} onChange={setPickup} errorFor={errorFor} country={country} today={today} customerName={data.customer.name} csPhone={site?.csPhoneNumber ?? null} /> : null}

          <ItemLines f={f} data={data} />

          <CarrierSelection f={f} />
        </fieldset>

        <ConsignmentSummary f={f} />

        <ConsignmentFooter f={f} data={data} />
      </Form>
      <AddressDialog open={addressDialog} onClose={() => setAddressDialog(false)} onSaved={v.returnType ? setSender : setReceiver} onAlert={(a) => setClientAlerts((list) => [...list, a])} />
    </div>
  );
}
