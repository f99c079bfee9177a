import { useEffect, useRef, useState } from "react";
import type { Alert } from "~/components/Alerts";
import { AddressFields, emptyAddress, type AddressState } from "./AddressFields";

/**
 * New Address (spec 1 sections 2, 3 and 8): adds a recipient to the address book. Save is
 * disabled while the address is invalid or saving; server errors show by their field.
 */
export function AddressDialog({ open, onClose, onSaved, onAlert }: { open: boolean; onClose: () => void; onSaved: (a: AddressState) => void; onAlert: (a: Alert) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const [address, setAddress] = useState<AddressState>(emptyAddress);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setAddress(emptyAddress());
      setErrors({});
      dialog.showModal();
    } else if (!open && dialog.open) dialog.close();
  }, [open]);

  const nz = address.country === "NEW ZEALAND";
  const valid = Boolean(address.name.trim() && address.address_line_1.trim() && address.postcode && (nz ? address.sublocality || address.locality : address.locality));

  const save = async () => {
    if (!valid || saving) return;
    setSaving(true);
    const res = await fetch("/api/addresses", {
      method: "POST",
      headers: { Accept: "application/json", "Content-Type": "application/json", "X-Requested-With": "XMLHttpRequest" },
      body: JSON.stringify(address),
    }).catch(() => null);
    setSaving(false);
    const body = res ? ((await res.json().catch(() => ({}))) as { errors?: Record<string, string[]> } & Partial<AddressState>) : {};
    if (res?.ok) {
      onAlert({ type: "success", message: `Your address for customer ${address.name} has been saved.` });
      onSaved({ ...address, ...Object.fromEntries(Object.entries(body).filter(([k, v]) => k in address && v != null).map(([k, v]) => [k, String(v)])) });
      onClose();
      return;
    }
    // errors by field, under this dialog's field names
    setErrors(Object.fromEntries(Object.entries(body.errors ?? {}).map(([k, v]) => [`address.${k}`, v])));
    onAlert({ type: "error", message: `Your address for ${address.name} has failed. Please contact customer services.` });
  };

  return (
    <dialog ref={ref} onClose={onClose} className="w-full max-w-3xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40" aria-labelledby="new-address-title" data-testid="address-dialog">
      <form
        method="dialog"
        noValidate
        className="space-y-3 p-4"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <h2 id="new-address-title" className="text-lg font-semibold">
          New Address
        </h2>
        {errors["address.base"] ? <p className="field-error">{errors["address.base"][0]}</p> : null}
        <AddressFields prefix="address" value={address} onChange={setAddress} errors={errors} hydrated />
        <div>
          <label className="label" htmlFor="address.special_instructions">
            Special instructions
          </label>
          <input
            id="address.special_instructions"
            className="input"
            maxLength={80}
            value={address.special_instructions}
            onChange={(e) => setAddress({ ...address, special_instructions: e.target.value })}
          />
          {errors["address.special_instructions"] ? <p className="field-error">{errors["address.special_instructions"][0]}</p> : null}
        </div>
        <div className="flex justify-end gap-2">
          <button type="button" className="btn" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn-primary" disabled={!valid || saving}>
            {saving ? "Saving…" : "Save"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
