import { PlaceChoiceList } from "~/components/PlaceChoiceList";
import { Typeahead } from "~/components/Typeahead";
import { COUNTRY_LABELS, placeLabel, type PlaceChoice } from "~/modules/localities/places";
import { apiFetch } from "~/utils/api-client";

export const ADDRESS_FIELDS = [
  "name",
  "code",
  "address_line_1",
  "address_line_2",
  "sublocality",
  "locality",
  "region",
  "postcode",
  "country",
  "phone",
  "email",
  "address_type",
  "special_instructions",
] as const;
export type AddressState = Record<(typeof ADDRESS_FIELDS)[number], string>;

export const emptyAddress = (): AddressState =>
  Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, f === "country" ? "AUSTRALIA" : f === "address_type" ? "business" : ""])) as AddressState;

interface LocalitySuggestion {
  locality: string;
  sublocality: string | null;
  postcode: string;
  region: string | null;
  country: string;
}
type AddressSuggestion = Partial<Record<(typeof ADDRESS_FIELDS)[number], string | null>>;

/**
 * The address part of the consignment screen. The name searches the address book (recipients);
 * the locality searches places and sets postcode and region, which are then read-only (with
 * JavaScript; without it they are typed, and the server resolves what was typed or offers the
 * matching places as `choice`).
 */
export function AddressFields({
  prefix,
  value,
  onChange,
  errors,
  hydrated,
  recipientSearch = false,
  label,
  choice,
}: {
  prefix: "sender_address" | "receiver_address" | "address";
  value: AddressState;
  onChange: (a: AddressState) => void;
  errors: Record<string, string[]>;
  hydrated: boolean;
  recipientSearch?: boolean;
  /** what this end is called (Recipient, Return to, Pickup from, ...) */
  label?: string;
  /** the places the typed locality matches, to choose among (no JavaScript) */
  choice?: PlaceChoice;
}) {
  const set = (patch: Partial<AddressState>) => onChange({ ...value, ...patch });
  const id = (f: string) => `${prefix}.${f}`;
  const err = (f: string) => errors[`${prefix}.${f}`]?.[0];
  const who = label ?? (prefix === "sender_address" ? "Sender" : prefix === "receiver_address" ? "Recipient" : "Address");
  const nz = value.country === "NEW ZEALAND";

  const searchRecipients = async (query: string, signal: AbortSignal) => {
    const res = await apiFetch<{ addresses: AddressSuggestion[] }>(`/api/address_selection?type=recipient&query=${encodeURIComponent(query)}`, { signal });
    return res.ok ? res.data.addresses : [];
  };
  const searchLocalities = async (query: string, signal: AbortSignal) => {
    const res = await apiFetch<{ localities: LocalitySuggestion[] }>(`/api/address_selection/search_locality?country=${encodeURIComponent(value.country)}&query=${encodeURIComponent(query)}`, { signal });
    return res.ok ? res.data.localities : [];
  };

  const text = (f: (typeof ADDRESS_FIELDS)[number], label: string, max: number, extra: { readOnly?: boolean; type?: string } = {}) => (
    <div>
      <label className="label" htmlFor={id(f)}>
        {label}
      </label>
      <input
        id={id(f)}
        name={id(f)}
        className={`input ${extra.readOnly ? "bg-slate-50" : ""}`}
        maxLength={max}
        type={extra.type ?? "text"}
        value={value[f]}
        readOnly={extra.readOnly}
        tabIndex={extra.readOnly ? -1 : undefined}
        onChange={(e) => set({ [f]: e.target.value })}
        aria-invalid={Boolean(err(f))}
        aria-describedby={err(f) ? `${id(f)}-error` : undefined}
      />
      {err(f) && (
        <p className="field-error" id={`${id(f)}-error`}>
          {err(f)}
        </p>
      )}
    </div>
  );

  return (
    <div className="grid gap-3 md:grid-cols-4" data-testid={prefix}>
      <div className="md:col-span-2">
        <label className="label" htmlFor={id("name")}>
          {who} name
        </label>
        {recipientSearch ? (
          <Typeahead<AddressSuggestion>
            id={id("name")}
            name={id("name")}
            maxLength={255}
            value={value.name}
            onChange={(v) => set({ name: v })}
            search={searchRecipients}
            render={(a) => `${a.name} — ${[a.address_line_1, a.locality, a.postcode].filter(Boolean).join(", ")}`}
            onPick={(a) => onChange({ ...emptyAddress(), ...Object.fromEntries(Object.entries(a).filter(([k, v]) => (ADDRESS_FIELDS as readonly string[]).includes(k) && v != null).map(([k, v]) => [k, String(v)])) })}
            aria-invalid={Boolean(err("name"))}
            aria-describedby={err("name") ? `${id("name")}-error` : undefined}
            testId={`${prefix}-name`}
          />
        ) : (
          <input id={id("name")} name={id("name")} className="input" maxLength={255} value={value.name} onChange={(e) => set({ name: e.target.value })} aria-invalid={Boolean(err("name"))} aria-describedby={err("name") ? `${id("name")}-error` : undefined} />
        )}
        {err("name") && (
          <p className="field-error" id={`${id("name")}-error`}>
            {err("name")}
          </p>
        )}
      </div>
      {text("address_line_1", "Address line 1", 255)}
      {text("address_line_2", "Address line 2", 255)}
      <div>
        <label className="label" htmlFor={id("locality")}>
          {nz ? "Suburb" : "Locality"}
        </label>
        <Typeahead<LocalitySuggestion>
          id={id("locality")}
          name={id(nz ? "sublocality" : "locality")}
          maxLength={255}
          value={nz ? value.sublocality || value.locality : value.locality}
          onChange={(v) => set(nz ? { sublocality: v } : { locality: v, postcode: hydrated ? "" : value.postcode, region: hydrated ? "" : value.region })}
          search={searchLocalities}
          render={placeLabel}
          onPick={(l) => set({ locality: l.locality, sublocality: l.sublocality ?? "", postcode: l.postcode, region: l.region ?? "", country: l.country })}
          aria-invalid={Boolean(err("locality"))}
          aria-describedby={err("locality") ? `${id("locality")}-error` : undefined}
          testId={`${prefix}-locality`}
        />
        {nz ? <input type="hidden" name={id("locality")} value={value.locality} /> : null}
        {err("locality") && (
          <p className="field-error" id={`${id("locality")}-error`}>
            {err("locality")}
          </p>
        )}
      </div>
      {text("postcode", "Postcode", 5, { readOnly: hydrated })}
      {nz ? null : text("region", "Region", 20, { readOnly: hydrated })}
      <div>
        <label className="label" htmlFor={id("country")}>
          Country
        </label>
        <select id={id("country")} name={id("country")} className="input" value={value.country} onChange={(e) => set({ country: e.target.value, locality: "", sublocality: "", postcode: "", region: "" })}>
          {COUNTRY_LABELS.map(([v, l]) => (
            <option key={v} value={v}>
              {l}
            </option>
          ))}
        </select>
      </div>
      {choice ? (
        <div className="md:col-span-4">
          <PlaceChoiceList
            choice={choice}
            legend={`${who} locality: choose one`}
            onPick={(p) => set({ locality: p.locality, sublocality: p.sublocality ?? "", postcode: p.postcode, region: p.region ?? "" })}
            testId={`${prefix}-place-choice`}
          />
        </div>
      ) : null}
      {text("phone", "Phone", 30, { type: "tel" })}
      {text("email", "Email", 255, { type: "email" })}
      <div>
        <label className="label" htmlFor={id("address_type")}>
          Address type
        </label>
        <select id={id("address_type")} name={id("address_type")} className="input" value={value.address_type} onChange={(e) => set({ address_type: e.target.value })}>
          <option value="business">Business</option>
          <option value="residential">Residential</option>
        </select>
      </div>
      <input type="hidden" name={id("code")} value={value.code} />
    </div>
  );
}
