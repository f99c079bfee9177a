import { DELIVERY_OPTIONS } from "~/modules/consignments/rules";
import type { ScreenData } from "~/modules/consignments/screen.server";
import { AddressFields, type AddressState } from "./AddressFields";
import type { ConsignmentFormState } from "./useConsignmentFormState";

/** Sender and receiver (which end is the site's depends on the variant), instructions, who pays, and the delivery options. */
export function DeliveryInformation({ f, data }: { f: ConsignmentFormState; data: ScreenData }) {
  const { v, hydrated, setAddressDialog, errors, errorFor, sender, setSender, receiver, setReceiver, specialInstructions, setSpecialInstructions, accountPayable, setAccountPayable, chargeAccount, setChargeAccount, deliveryOptions, setDeliveryOptions, placeChoices } = f;
  return (
    <>
      <section className="card space-y-3" aria-label="Delivery information">
        <h2 className="font-semibold">Delivery information</h2>
        {(() => {
          const newAddress =
            hydrated && data.canEditRecipients ? (
              <button type="button" className="btn px-2 py-0.5 text-xs" onClick={() => setAddressDialog(true)}>
                New Address
              </button>
            ) : null;
          // the site's own end is folded away; the other end(s) are typed, with the address book
          const folded = (prefix: "sender_address" | "receiver_address", label: string, value: AddressState, set: (a: AddressState) => void) => (
            <details className="rounded border border-slate-200 p-2" open={Boolean(errorFor(prefix) || errorFor(`${prefix}.locality`))}>
              <summary className="cursor-pointer text-sm">
                <span className="font-medium">{label}:</span> {value.name} {value.locality} {value.postcode}
                {errorFor(`${prefix}.locality`) && <span className="ml-2 text-red-700">{errorFor(`${prefix}.locality`)}</span>}
              </summary>
              <AddressFields prefix={prefix} value={value} onChange={set} errors={errors} hydrated={hydrated} choice={placeChoices[prefix]} />
            </details>
          );
          const open = (prefix: "sender_address" | "receiver_address", label: string, value: AddressState, set: (a: AddressState) => void, withNew: boolean) => (
            <div>
              <div className="mb-1 flex items-center gap-3">
                <h3 className="text-sm font-medium">{label}</h3>
                {withNew ? newAddress : null}
              </div>
              {errorFor(prefix) && <p className="field-error">{errorFor(prefix)}</p>}
              <AddressFields prefix={prefix} value={value} onChange={set} errors={errors} hydrated={hydrated} recipientSearch label={label} choice={placeChoices[prefix]} />
            </div>
          );
          if (v.returnType === "return") return [<div key="s">{open("sender_address", "Sender", sender, setSender, true)}</div>, <div key="r">{folded("receiver_address", "Return to", receiver, setReceiver)}</div>];
          if (v.returnType === "third_party")
            return [<div key="s">{open("sender_address", "Pickup from", sender, setSender, true)}</div>, <div key="r">{open("receiver_address", "Deliver to", receiver, setReceiver, false)}</div>];
          return [<div key="s">{folded("sender_address", "Sender", sender, setSender)}</div>, <div key="r">{open("receiver_address", "Recipient", receiver, setReceiver, true)}</div>];
        })()}
        <div className="grid gap-3 md:grid-cols-3">
          <div>
            <label className="label" htmlFor="special_instructions">
              Special instructions
            </label>
            <input id="special_instructions" name="special_instructions" className="input" maxLength={80} value={specialInstructions} onChange={(e) => setSpecialInstructions(e.target.value)} placeholder={data.customer.placeholders.special_instructions ?? ""} />
            {errorFor("special_instructions") && <p className="field-error">{errorFor("special_instructions")}</p>}
          </div>
          <div>
            <label className="label" htmlFor="account_payable">
              Account payable
            </label>
            <select id="account_payable" name="account_payable" className="input" value={accountPayable} onChange={(e) => setAccountPayable(e.target.value)}>
              <option value="sender">Sender</option>
              <option value="receiver">Receiver</option>
              <option value="transfer">Transfer</option>
            </select>
          </div>
          {accountPayable === "receiver" || chargeAccount ? (
            <div>
              <label className="label" htmlFor="charge_account">
                Receiver account
              </label>
              <input id="charge_account" name="charge_account" className="input" maxLength={30} value={chargeAccount} onChange={(e) => setChargeAccount(e.target.value)} placeholder={data.customer.placeholders.receiver_account ?? ""} />
              {errorFor("charge_account") && <p className="field-error">{errorFor("charge_account")}</p>}
            </div>
          ) : null}
        </div>
      </section>

      {data.customer.deliveryOptionsEnabled ? (
        <section className="card" aria-label="Delivery options" data-testid="delivery-options">
          <h2 className="mb-2 font-semibold">Delivery options</h2>
          <div className="flex flex-wrap gap-4 text-sm">
            {DELIVERY_OPTIONS.map(([k, label]) => (
              <label key={k} className="flex items-center gap-2">
                {/* unchecked boxes post nothing: the hidden false comes first and a checked box overrides it */}
                <input type="hidden" name={`options.delivery_options.${k}`} value="false" />
                <input type="checkbox" name={`options.delivery_options.${k}`} value="true" checked={deliveryOptions[k] ?? false} onChange={(e) => setDeliveryOptions((o) => ({ ...o, [k]: e.target.checked }))} />
                {label}
              </label>
            ))}
          </div>
        </section>
      ) : null}
    </>
  );
}
