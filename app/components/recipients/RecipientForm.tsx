import { Form, Link, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { AddressFields, emptyAddress, type AddressState } from "~/components/consignment/AddressFields";
import type { AddressJson } from "~/modules/addresses/address-json";

/** The form's values from a stored entry (blank for a new one). */
function stateOf(a: AddressJson | null, posted?: Record<string, string>): AddressState & { special_instructions: string } {
  const blank = emptyAddress();
  if (posted) return { ...blank, ...posted } as AddressState;
  if (!a) return blank;
  return Object.fromEntries(Object.keys(blank).map((k) => [k, (a as unknown as Record<string, unknown>)[k] == null ? "" : String((a as unknown as Record<string, unknown>)[k])])) as AddressState;
}

/**
 * Adds or edits one recipient: the consignment screen's address fields (with its locality lookup)
 * plus code and special instructions. Posts to the screen's action, so it works before JavaScript.
 */
export function RecipientForm({
  recipient,
  errors,
  posted,
  cancelTo,
}: {
  recipient: AddressJson | null;
  errors: Record<string, string[]>;
  posted?: Record<string, string>;
  cancelTo: string;
}) {
  const [value, setValue] = useState(() => stateOf(recipient, posted));
  const [hydrated, setHydrated] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const busy = useNavigation().state === "submitting";
  useEffect(() => setHydrated(true), []);
  // keyboard users land on the form they opened
  useEffect(() => heading.current?.focus(), []);
  const err = (f: string) => errors[`address.${f}`]?.[0];
  return (
    <Form method="post" className="card space-y-3" aria-labelledby="recipient-form-title">
      <h2 id="recipient-form-title" ref={heading} tabIndex={-1} className="font-semibold">
        {recipient ? `Edit ${recipient.name}` : "New recipient"}
      </h2>
      <input type="hidden" name="intent" value="save" />
      {recipient?.id ? <input type="hidden" name="id" value={recipient.id} /> : null}
      {/* before the address fields: their hidden code input repeats the name, and the first value is read */}
      <div className="grid gap-3 md:grid-cols-4">
        <div>
          <label className="label" htmlFor="address.code">
            Code
          </label>
          <input id="address.code" name="address.code" className="input" maxLength={255} value={value.code} onChange={(e) => setValue({ ...value, code: e.target.value })} />
        </div>
        <div className="md:col-span-3">
          <label className="label" htmlFor="address.special_instructions">
            Special instructions
          </label>
          <input
            id="address.special_instructions"
            name="address.special_instructions"
            className="input"
            maxLength={80}
            value={value.special_instructions}
            onChange={(e) => setValue({ ...value, special_instructions: e.target.value })}
            aria-invalid={Boolean(err("special_instructions"))}
            aria-describedby={err("special_instructions") ? "address.special_instructions-error" : undefined}
          />
          {err("special_instructions") && (
            <p className="field-error" id="address.special_instructions-error">
              {err("special_instructions")}
            </p>
          )}
        </div>
      </div>
      <AddressFields prefix="address" label="Recipient" value={value} onChange={(a) => setValue({ ...value, ...a })} errors={errors} hydrated={hydrated} />
      <div className="flex gap-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Saving..." : "Save recipient"}
        </button>
        <Link to={cancelTo} className="btn">
          Cancel
        </Link>
      </div>
    </Form>
  );
}
