import { Form, Link, useNavigation, useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Alerts, type Alert } from "~/components/Alerts";
import { Typeahead } from "~/components/Typeahead";
import type { AccessSubject } from "~/modules/auth/roles";
import type { ConsignmentJson } from "~/modules/consignments/consignments.server";
import { nest, parseDisplayDate, ratingPayloadOf } from "~/modules/consignments/form";
import { VARIANTS } from "~/modules/consignments/variants";
import { DELIVERY_OPTIONS, canPromoteQuote, canRequestRates, footerButtons, formatDate, quoteReference, returnDespatchButtons, formatVolume, formatWeight, isEditable, ratingHints, summarise, type GridLine } from "~/modules/consignments/rules";
import type { ScreenData, ScreenOutcome } from "~/modules/consignments/screen.server";
import type { Rate } from "~/modules/rating/engine";
import { cleanWeight, itemVolume, itemWeight, typeDefaultsIn } from "~/modules/rating/measure";
import { apiFetch } from "~/utils/api-client";
import { printMessages } from "~/modules/printing/messages";
import type { DangerousGoodsTypeJson } from "~/modules/dangerous-goods/dangerous-goods.server";
import { AddressDialog } from "./AddressDialog";
import { MergePanel } from "./MergeDialog";
import { useLiveRates } from "./useLiveRates";
import { InfoButton } from "./InfoDialog";
import { PrintButton } from "./PrintButton";
import { AcknowledgeDialog, DespatchProgress, RedespatchDialog } from "./DespatchDialogs";
import { ConsolidateButton } from "./ConsolidateDialog";
import { consolidate, type ConsolidatableLine } from "~/modules/consignments/consolidate";
import { PickupInformation, pickupFrom, type PickupState } from "./PickupInformation";
import { ADDRESS_FIELDS, AddressFields, emptyAddress, type AddressState } from "./AddressFields";

/** Keyboard shortcuts of the consignment screen, shown in its footer. */
export const SHORTCUTS = [
  { keys: "Alt+S", action: "Save" },
  { keys: "Alt+P", action: "Save and Print (consignments)" },
  { keys: "Alt+A", action: "Add item line (or Enter in the last weight)" },
  { keys: "Alt+R", action: "Go to the rates" },
] as const;


interface DgState {
  un_number: string;
  proper_shipping_name: string;
  technical_name: string;
  hazard_class: string;
  packing_group: string;
  sub_hazard: string;
  weight_in_uom: string;
  nos: boolean;
}
interface LineState extends ConsolidatableLine {
  key: number;
  consolidated: boolean;
  dg: DgState[];
}

type Loose = Record<string, unknown>;
const str = (v: unknown) => (v == null ? "" : String(v));
let lineKeys = 0;
const emptyDg = (): DgState => ({ un_number: "", proper_shipping_name: "", technical_name: "", hazard_class: "", packing_group: "", sub_hazard: "", weight_in_uom: "", nos: false });
const emptyLine = (): LineState => ({ key: ++lineKeys, quantity: "", item_type_id: "", reference: "", length: "", width: "", height: "", weight_in_uom: "", dangerous_goods: false, consolidated: false, dg: [] });

function lineFrom(raw: Loose): LineState {
  const dgRaw = Array.isArray(raw.dangerous_goods_items) ? (raw.dangerous_goods_items as Loose[]).filter(Boolean) : [];
  return {
    key: ++lineKeys,
    quantity: str(raw.quantity),
    item_type_id: str(raw.item_type_id),
    reference: str(raw.reference),
    length: str(raw.length),
    width: str(raw.width),
    height: str(raw.height),
    weight_in_uom: str(raw.weight_in_uom),
    dangerous_goods: raw.dangerous_goods === "on" || raw.dangerous_goods === true || dgRaw.length > 0 || raw.has_dangerous_goods === true,
    consolidated: raw.consolidated === true || raw.consolidated === "true",
    dg: dgRaw.map((d) => ({ ...emptyDg(), ...Object.fromEntries(Object.entries(d).map(([k, v]) => [k, k === "nos" ? v === true || v === "on" : str(v)])) }) as DgState),
  };
}

function addressFrom(raw: unknown, fallback: AddressState): AddressState {
  if (!raw || typeof raw !== "object") return fallback;
  const a = raw as Loose;
  return Object.fromEntries(ADDRESS_FIELDS.map((f) => [f, str(a[f]) || (f === "country" ? "AUSTRALIA" : f === "address_type" ? "business" : "")])) as AddressState;
}

export function ConsignmentForm({ data, outcome, user }: { data: ScreenData; outcome: ScreenOutcome | undefined; user: AccessSubject }) {
  const c = data.consignment;
  const v = VARIANTS[data.variant];
  // what the form shows: what was typed in a failed post (nested back from its a.b.0.c names), else the saved consignment, else defaults
  const source: Loose | null = outcome?.values && Object.keys(outcome.values).length ? nest(Object.entries(outcome.values)) : (c as unknown as Loose | null);
  const [siteCode, setSiteCode] = useState(str(source?.site_code) || data.defaultSiteCode || "");
  const site = data.sites.find((s) => s.code === siteCode) ?? data.sites[0];
  const country = site?.country ?? "AUSTRALIA";
  const som = site?.som ?? "metric";
  const siteAddress = useMemo(() => addressFrom(site?.address, emptyAddress()), [site]);

  const [reference, setReference] = useState(str(source?.reference));
  const [despatchDate, setDespatchDate] = useState(() => {
    const raw = str(source?.despatch_date);
    return outcome?.values ? raw : formatDate(raw || data.today, country);
  });
  const [customReference, setCustomReference] = useState(str(source?.custom_reference));
  // outbound: from the site; a return: back to the site; a third-party pickup: between two others
  const [sender, setSender] = useState<AddressState>(() => addressFrom(source?.sender_address, v.returnType ? emptyAddress() : siteAddress));
  const [receiver, setReceiver] = useState<AddressState>(() => addressFrom(source?.receiver_address, v.returnType === "return" ? siteAddress : emptyAddress()));
  const [deliveryOptions, setDeliveryOptions] = useState<Record<string, boolean>>(() => {
    const saved = ((source?.options as Loose | undefined)?.delivery_options ?? {}) as Record<string, unknown>;
    return Object.fromEntries(DELIVERY_OPTIONS.map(([k]) => [k, saved[k] === true || saved[k] === "true"]));
  });
  const [slots, setSlots] = useState({ pickup_at: str(source?.pickup_at).replace(" ", "T"), deliver_by: str(source?.deliver_by).replace(" ", "T"), deliver_at: str(source?.deliver_at).replace(" ", "T") });
  const [pickup, setPickup] = useState<PickupState>(() => pickupFrom(source?.return_info, data.pickupDefault, country));
  const [specialInstructions, setSpecialInstructions] = useState(str(source?.special_instructions));
  const [accountPayable, setAccountPayable] = useState(str(source?.account_payable) || "sender");
  const [chargeAccount, setChargeAccount] = useState(str(source?.charge_account));
  const [lines, setLines] = useState<LineState[]>(() => {
    const items = Array.isArray(source?.items) ? (source!.items as Loose[]).filter(Boolean).map(lineFrom) : [];
    return items.length ? items : [emptyLine()];
  });
  const initialRate = outcome?.values?.rate ?? (c?.carrier_code && c.service_code ? `${c.carrier_code}:${c.service_code}` : "");
  const [chosenRate, setChosenRate] = useState(initialRate);
  const [hydrated, setHydrated] = useState(false);
  const [saveBlocked, setSaveBlocked] = useState(Boolean(data.saved));
  const [addressDialog, setAddressDialog] = useState(false);
  const [clientAlerts, setClientAlerts] = useState<Alert[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  const submit = useSubmit();
  const saving = navigation.state === "submitting";
  const editable = isEditable(c?.state);
  const errors = outcome?.errors && Object.keys(outcome.errors).length ? outcome.errors : (c?.errors ?? {});
  const errorFor = (key: string) => errors[key]?.[0];

  useEffect(() => setHydrated(true), []);
  // saving is blocked for 5 s after a save (spec 1 section 9); the confirmation is not repeated on reload
  useEffect(() => {
    if (!data.saved && !data.merged && !data.printed) return;
    const url = new URL(window.location.href);
    url.searchParams.delete("saved");
    url.searchParams.delete("merged");
    url.searchParams.delete("print");
    url.searchParams.delete("despatch_error");
    window.history.replaceState(window.history.state, "", url.pathname + url.search);
    const timer = setTimeout(() => setSaveBlocked(false), 5000);
    return () => clearTimeout(timer);
  }, [data.saved, data.merged, data.printed]);

  const typeById = useMemo(() => new Map(data.itemTypes.map((t) => [String(t.id), t])), [data.itemTypes]);
  const grid: GridLine[] = lines.map((l) => ({
    quantity: Number(l.quantity) || 0,
    itemTypeId: l.item_type_id ? Number(l.item_type_id) : null,
    length: Number(l.length) || 0,
    width: Number(l.width) || 0,
    height: Number(l.height) || 0,
    weight: Number(l.weight_in_uom) || 0,
    dangerousGoods: l.dangerous_goods,
    dangerousGoodsItems: l.dg,
  }));
  const summary = summarise(grid, som);
  const hints = ratingHints(grid);
  const isoDate = parseDisplayDate(despatchDate, country);
  const placeReady = (a: AddressState) => Boolean(a.locality && a.postcode);
  const ready = editable && canRequestRates({ despatchDate: /^\d{4}-\d{2}-\d{2}$/.test(isoDate) ? isoDate : null, senderReady: placeReady(sender), receiverReady: placeReady(receiver), lines: grid });

  // live rating: 500 ms after the last change, only when every item qualifies
  const payload = useMemo(
    () =>
      ready
        ? JSON.stringify(
            ratingPayloadOf({
              despatch_date: isoDate,
              site_code: siteCode,
              account_payable: accountPayable,
              return_type: v.returnType,
              consignment_id: c?.id,
              items: lines.map((l, i) => ({
                quantity: grid[i]!.quantity,
                item_type_id: grid[i]!.itemTypeId ?? null,
                length: grid[i]!.length,
                width: grid[i]!.width,
                height: grid[i]!.height,
                weight_in_uom: grid[i]!.weight,
                dangerous_goods_items: l.dangerous_goods ? l.dg : [],
              })),
              sender_address: sender,
              receiver_address: receiver,
            }),
          )
        : null,
    // grid is derived from lines
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [ready, isoDate, siteCode, accountPayable, lines, sender, receiver, c?.id],
  );
  const { rates, rating, error: rateError } = useLiveRates(payload, hydrated, outcome?.rates ?? null, (carriers, selectedIndex) => {
    const keys = carriers.map((r) => `${r.code}:${r.service_code}`);
    setChosenRate((current) => (current && keys.includes(current) ? current : selectedIndex != null ? keys[selectedIndex]! : ""));
  });

  const setLine = (i: number, patch: Partial<LineState>) => setLines((ls) => ls.map((l, j) => (j === i ? { ...l, ...patch } : l)));
  const addLine = useCallback(() => {
    setLines((ls) => [...ls, emptyLine()]);
    // focus the new line's quantity once it is rendered
    setTimeout(() => {
      const inputs = document.querySelectorAll<HTMLInputElement>("[data-field='quantity']");
      inputs[inputs.length - 1]?.focus();
    }, 0);
  }, []);

  const doSubmit = useCallback(
    (intent: string) => {
      if (!formRef.current || saveBlocked || saving) return;
      const fd = new FormData(formRef.current);
      fd.set("intent", intent);
      submit(fd, { method: "post" });
    },
    [saveBlocked, saving, submit],
  );

  // Alt shortcuts work anywhere on the screen
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const key = e.key.toLowerCase();
      const code = e.code;
      if ((key === "s" || code === "KeyS") && editable) {
        e.preventDefault();
        doSubmit("save");
      } else if ((key === "p" || code === "KeyP") && editable && !v.isQuote) {
        e.preventDefault();
        doSubmit(data.printButton);
      } else if ((key === "a" || code === "KeyA") && editable) {
        e.preventDefault();
        addLine();
      } else if (key === "r" || code === "KeyR") {
        e.preventDefault();
        const radio = document.querySelector<HTMLInputElement>("input[name='rate']:checked") ?? document.querySelector<HTMLInputElement>("input[name='rate']");
        radio?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [doSubmit, addLine, editable, data.printButton, v.isQuote]);

  const alerts: Alert[] = [];
  if (data.saved === "complete") alerts.push({ type: "success", message: `Your ${v.noun} has been saved.` });
  if (data.saved === "incomplete") alerts.push({ type: "success", message: `Your ${v.noun} has been saved but is incomplete.` });
  if (data.merged) alerts.push({ type: "success", message: "The consignments have been merged." });
  if (data.printed === "incomplete") alerts.push({ type: "warning", message: `Labels were not printed: the ${v.noun} is incomplete.` });
  if (outcome?.alert && !outcome.alert.refresh) alerts.push({ type: outcome.alert.type, message: outcome.alert.message });
  if (data.despatchError) alerts.push({ type: "error", message: data.despatchError });
  if (c && (c.state === "open" || c.state === "quote") && Object.keys(c.errors).length && !outcome) alerts.push({ type: "warning", message: v.incomplete });

  const buttons = footerButtons(
    { id: c?.id, state: c?.state, numbered: Boolean(c?.consignment_number), printConnote: c?.print_connote, isQuote: v.isQuote, autoDelivered: c?.auto_delivered, cancellationAllowedDate: c?.cancellation_allowed_date, supportEmailEmpty: c?.support_email_empty },
    user,
    { cancelOffered: data.cancelOffered, saveBlocked: saveBlocked || saving },
  );
  const stateWord = (state: string) => state.replace(/_/g, " ").replace(/^./, (x) => x.toUpperCase());
  const title = v.isQuote
    ? c
      ? `${v.title} ${quoteReference(c.id)}`
      : `New ${v.title.toLowerCase()}`
    : c
      ? `${stateWord(c.state)} ${v.title} ${c.consignment_number ?? "Pending"}`
      : `New ${v.title}`;
  const unit = som === "imperial" ? "in" : "cm";
  const weightUnit = som === "imperial" ? "lb" : "kg";

  const onWeightKey = (i: number) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" && i === lines.length - 1 && !e.altKey) {
      e.preventDefault();
      addLine();
    }
  };

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
      {data.redespatch && c ? <RedespatchDialog path={`${v.path}/${c.id}`} number={data.redespatch.number} lastDespatchTime={data.redespatch.lastDespatchTime} /> : null}
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
        <fieldset disabled={!editable} className="space-y-4">
          <section className="card grid gap-3 md:grid-cols-4" aria-label="Consignment details">
            <div>
              <label className="label" htmlFor="reference">
                Reference
              </label>
              <input id="reference" name="reference" className="input" maxLength={255} value={reference} onChange={(e) => setReference(e.target.value)} placeholder={data.customer.placeholders.reference ?? ""} autoFocus={!c} />
              {errorFor("reference") && <p className="field-error">{errorFor("reference")}</p>}
            </div>
            <div>
              <label className="label" htmlFor="despatch_date">
                Despatch date
              </label>
              <input
                id="despatch_date"
                name="despatch_date"
                className="input"
                maxLength={10}
                inputMode="numeric"
                placeholder={country === "UNITED STATES OF AMERICA" ? "MM/DD/YYYY" : "DD/MM/YYYY"}
                value={despatchDate}
                onChange={(e) => setDespatchDate(e.target.value)}
                aria-invalid={Boolean(errorFor("despatch_date"))}
                aria-describedby="despatch_date-error"
              />
              {errorFor("despatch_date") && (
                <p className="field-error" id="despatch_date-error">
                  {errorFor("despatch_date")}
                </p>
              )}
            </div>
            <div>
              <label className="label" htmlFor="custom_reference">
                {data.customer.customReferenceLabel}
              </label>
              {data.customer.customReferenceChoices ? (
                <select id="custom_reference" name="custom_reference" className="input" value={customReference} onChange={(e) => setCustomReference(e.target.value)} aria-invalid={Boolean(errorFor("custom_reference"))}>
                  <option value="">Choose…</option>
                  {data.customer.customReferenceChoices.map((o) => (
                    <option key={o.value} value={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              ) : (
                <input id="custom_reference" name="custom_reference" className="input" maxLength={4000} value={customReference} onChange={(e) => setCustomReference(e.target.value)} placeholder={data.customer.placeholders.custom_reference ?? ""} />
              )}
              {errorFor("custom_reference") && <p className="field-error">{errorFor("custom_reference")}</p>}
            </div>
            <div>
              <label className="label" htmlFor="site_code">
                Site
              </label>
              <select
                id="site_code"
                name="site_code"
                className="input"
                value={siteCode}
                onChange={(e) => {
                  // the site's own end follows the site, unless it was changed by hand
                  const next = data.sites.find((x) => x.code === e.target.value);
                  const nextAddress = addressFrom(next?.address, emptyAddress());
                  const untouched = (a: AddressState) => a.name === siteAddress.name && a.postcode === siteAddress.postcode;
                  if (v.returnType === "return") setReceiver((a) => (untouched(a) ? nextAddress : a));
                  else if (!v.returnType) setSender((a) => (untouched(a) ? nextAddress : a));
                  setSiteCode(e.target.value);
                }}
              >
                {data.sites.map((s) => (
                  <option key={s.code} value={s.code}>
                    {s.name}
                  </option>
                ))}
              </select>
            </div>
          </section>

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
                  <AddressFields prefix={prefix} value={value} onChange={set} errors={errors} hydrated={hydrated} />
                </details>
              );
              const open = (prefix: "sender_address" | "receiver_address", label: string, value: AddressState, set: (a: AddressState) => void, withNew: boolean) => (
                <div>
                  <div className="mb-1 flex items-center gap-3">
                    <h3 className="text-sm font-medium">{label}</h3>
                    {withNew ? newAddress : null}
                  </div>
                  {errorFor(prefix) && <p className="field-error">{errorFor(prefix)}</p>}
                  <AddressFields prefix={prefix} value={value} onChange={set} errors={errors} hydrated={hydrated} recipientSearch label={label} />
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

          {v.returnType ? <PickupInformation value={pickup} onChange={setPickup} errorFor={errorFor} country={country} customerName={data.customer.name} csPhone={site?.csPhoneNumber ?? null} /> : null}

          <section className="card space-y-2" aria-label="Item information">
            <h2 className="font-semibold">Item information</h2>
            {errorFor("items") && <p className="field-error">{errorFor("items")}</p>}
            <table className="w-full text-sm" data-testid="item-grid">
              <thead className="text-left text-xs text-slate-500">
                <tr>
                  <th className="w-16">Qty</th>
                  <th>Item type</th>
                  <th>Ref</th>
                  <th className="w-20">L ({unit})</th>
                  <th className="w-20">W ({unit})</th>
                  <th className="w-20">H ({unit})</th>
                  <th className="w-24">Dead weight ({weightUnit})</th>
                  <th className="w-24">Volume</th>
                  <th>DG</th>
                  <th>
                    <span className="sr-only">Remove</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {lines.map((l, i) => {
                  const type = typeById.get(l.item_type_id);
                  const volume = itemVolume(grid[i]!, som);
                  const cell = (field: "quantity" | "length" | "width" | "height", label: string) => (
                    <td className="pr-1 align-top">
                      <input
                        aria-label={`${label} line ${i + 1}`}
                        name={`items.${i}.${field}`}
                        data-field={field}
                        className="input"
                        inputMode="numeric"
                        maxLength={field === "quantity" && v.isQuote ? 2 : 4}
                        value={l[field]}
                        onChange={(e) => setLine(i, { [field]: e.target.value.replace(/\D/g, "") })}
                        aria-invalid={Boolean(errorFor(`items.${i}.${field}`))}
                        title={errorFor(`items.${i}.${field}`)}
                      />
                    </td>
                  );
                  return [
                    <tr key={l.key} data-testid="item-line">
                      {cell("quantity", "Quantity")}
                      <td className="pr-1 align-top">
                        <select
                          aria-label={`Item type line ${i + 1}`}
                          name={`items.${i}.item_type_id`}
                          className="input"
                          value={l.item_type_id}
                          onChange={(e) => {
                            const t = typeById.get(e.target.value);
                            // item type defaults: its dimensions, and its weight times the quantity, in the site's units
                            const d = t ? typeDefaultsIn(t, som) : null;
                            const weight = d ? itemWeight(Number(l.quantity) || 1, d.weight) : null;
                            setLine(i, {
                              item_type_id: e.target.value,
                              ...(d ? { length: str(d.length ?? ""), width: str(d.width ?? ""), height: str(d.height ?? ""), quantity: l.quantity || "1" } : {}),
                              ...(weight != null ? { weight_in_uom: str(weight) } : {}),
                            });
                          }}
                          aria-invalid={Boolean(errorFor(`items.${i}.item_type_id`))}
                        >
                          <option value="">Choose…</option>
                          {data.itemTypes.map((t) => (
                            <option key={t.id} value={t.id}>
                              {t.description}
                            </option>
                          ))}
                        </select>
                      </td>
                      <td className="pr-1 align-top">
                        <input aria-label={`Reference line ${i + 1}`} name={`items.${i}.reference`} className="input" maxLength={255} value={l.reference} onChange={(e) => setLine(i, { reference: e.target.value })} />
                        {l.consolidated ? <input type="hidden" name={`items.${i}.consolidated`} value="true" /> : null}
                      </td>
                      {cell("length", "Length")}
                      {cell("width", "Width")}
                      {cell("height", "Height")}
                      <td className="pr-1 align-top">
                        <input
                          aria-label={`Dead weight line ${i + 1}`}
                          name={`items.${i}.weight_in_uom`}
                          className="input"
                          inputMode="decimal"
                          maxLength={5}
                          value={l.weight_in_uom}
                          onChange={(e) => setLine(i, { weight_in_uom: e.target.value })}
                          onBlur={(e) => {
                            const cleaned = cleanWeight(e.target.value, type?.increments);
                            setLine(i, { weight_in_uom: cleaned == null ? "" : String(cleaned) });
                          }}
                          onKeyDown={onWeightKey(i)}
                          aria-invalid={Boolean(errorFor(`items.${i}.weight_in_uom`))}
                          title={errorFor(`items.${i}.weight_in_uom`)}
                        />
                      </td>
                      <td className="pr-1 align-top tabular-nums" data-testid="line-volume">
                        {volume == null ? "" : volume}
                      </td>
                      <td className="pr-1 text-center align-top">
                        <input
                          type="checkbox"
                          aria-label={`Dangerous goods line ${i + 1}`}
                          name={`items.${i}.dangerous_goods`}
                          checked={l.dangerous_goods}
                          onChange={(e) => setLine(i, { dangerous_goods: e.target.checked, dg: e.target.checked && l.dg.length === 0 ? [emptyDg()] : l.dg })}
                        />
                      </td>
                      <td className="align-top">
                        <button type="button" className="btn px-2" aria-label={`Remove line ${i + 1}`} disabled={lines.length === 1} onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}>
                          ×
                        </button>
                      </td>
                    </tr>,
                    l.dangerous_goods ? (
                      <tr key={`${l.key}-dg`}>
                        <td colSpan={10} className="pb-2">
                          <DangerousGoodsLines index={i} lines={l.dg.length ? l.dg : [emptyDg()]} onChange={(dg) => setLine(i, { dg })} errorFor={errorFor} />
                        </td>
                      </tr>
                    ) : null,
                  ];
                })}
              </tbody>
            </table>
            <div className="flex items-center gap-2">
              <button type="button" className="btn" onClick={addLine} aria-keyshortcuts="Alt+A">
                Add item line
              </button>
              {hydrated ? (
                <ConsolidateButton
                  lines={lines.map((l) => ({ description: `${l.quantity || 0} x ${typeById.get(l.item_type_id)?.description ?? "no type"}, ${l.weight_in_uom || 0} ${weightUnit}` }))}
                  itemTypes={data.itemTypes}
                  onConsolidate={(checked, typeId) => {
                    const type = data.itemTypes.find((t) => t.id === typeId);
                    if (type) setLines((ls) => consolidate(ls, checked, type, (fields) => ({ ...fields, key: ++lineKeys, consolidated: true, dg: fields.dg as DgState[] })));
                  }}
                />
              ) : null}
            </div>
          </section>

          <section className="card space-y-2" aria-label="Carrier selection" data-testid="rates">
            <div className="flex items-center justify-between">
              <h2 className="font-semibold">Carrier selection</h2>
              <button type="submit" name="intent" value="rate" className="btn" formNoValidate>
                Get rates
              </button>
            </div>
            {errorFor("carrier_name") && <p className="field-error">{errorFor("carrier_name")}</p>}
            {hints.length ? (
              <ul className="text-sm text-amber-800" data-testid="rating-hints">
                {hints.map((h) => (
                  <li key={h}>{h}</li>
                ))}
              </ul>
            ) : null}
            {errorFor("sender_address.locality") || errorFor("receiver_address.locality") ? (
              <p className="text-sm text-red-700">{[errorFor("sender_address.locality"), errorFor("receiver_address.locality")].filter(Boolean).join(" · ")}</p>
            ) : null}
            {rating ? <p className="text-sm text-slate-500" role="status">Getting rates…</p> : null}
            {rateError ? <p className="text-sm text-red-700">{rateError}</p> : null}
            {(() => {
              // time slots, when the chosen service needs them (and rates are not being fetched)
              const needs = rates?.find((r) => `${r.code}:${r.service_code}` === chosenRate)?.timeslots;
              const wanted = (["pickup_at", "deliver_by", "deliver_at"] as const).filter(
                (k) => (k === "pickup_at" ? needs?.pickup : k === "deliver_by" ? needs?.deliver_by : needs?.deliver_at) || slots[k] || errorFor(k),
              );
              if (rating || wanted.length === 0) return null;
              const labels = { pickup_at: "Pickup at", deliver_by: "Deliver by", deliver_at: "Deliver at" };
              return (
                <div className="grid gap-3 md:grid-cols-3" data-testid="time-slots">
                  {wanted.map((k) => (
                    <div key={k}>
                      <label className="label" htmlFor={k}>
                        {labels[k]}
                      </label>
                      <input id={k} name={k} type="datetime-local" step={900} className="input" value={slots[k]} onChange={(e) => setSlots((t) => ({ ...t, [k]: e.target.value }))} aria-invalid={Boolean(errorFor(k))} />
                      {errorFor(k) ? <p className="field-error">{errorFor(k)}</p> : null}
                    </div>
                  ))}
                </div>
              );
            })()}
            <RateList rates={rates} chosen={chosenRate} onChoose={setChosenRate} savedRate={c && !rates ? c : null} country={country} />
          </section>
        </fieldset>

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
          {(
            [
              ["tracking", "Tracking"],
              ["enquiries", "Enquiries"],
            ] as const
          ).map(([key, label]) =>
            buttons[key].visible && c ? (
              // until their releases land these lead to a page that says so (modules/shell/planned.ts)
              <Link key={key} to={`/consignment/${c.id}/${key}`} className="btn" title={buttons[key].hint} data-button={key}>
                {label}
              </Link>
            ) : null,
          )}
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
      </Form>
      <AddressDialog open={addressDialog} onClose={() => setAddressDialog(false)} onSaved={v.returnType ? setSender : setReceiver} onAlert={(a) => setClientAlerts((list) => [...list, a])} />
    </div>
  );
}

function RateList({ rates, chosen, onChoose, savedRate, country }: { rates: Rate[] | null; chosen: string; onChoose: (key: string) => void; savedRate: ConsignmentJson | null; country: string }) {
  if (!rates) {
    if (savedRate?.carrier_code) {
      return (
        <div className="text-sm">
          <input type="hidden" name="rate" value={`${savedRate.carrier_code}:${savedRate.service_code}`} />
          <p>
            {savedRate.carrier_name} · {savedRate.service_name}: {savedRate.poa_carrier ? "POA" : savedRate.service_rate == null ? "NA" : `$${savedRate.service_rate.toFixed(2)}`}
            {savedRate.estimated_delivery_date ? ` · ETA ${formatDate(savedRate.estimated_delivery_date, country)}` : ""}
          </p>
        </div>
      );
    }
    return <p className="text-sm text-slate-500">Rates appear once the addresses, date and every item line are complete.</p>;
  }
  if (rates.length === 0) return <p className="text-sm text-slate-600">No carrier service is available for this consignment.</p>;
  return (
    <div role="radiogroup" aria-label="Rates" className="divide-y divide-slate-100 rounded border border-slate-200" data-testid="rate-list">
      {rates.map((r) => {
        const key = `${r.code}:${r.service_code}`;
        return (
          <label key={key} className={`flex cursor-pointer items-center gap-3 px-3 py-2 text-sm ${chosen === key ? "bg-sky-50" : ""}`} data-testid="rate">
            <input type="radio" name="rate" value={key} checked={chosen === key} onChange={() => onChoose(key)} />
            <span className="flex-1">
              <span className="font-medium">{r.name}</span> · {r.service}
              {r.estimated_delivery_date ? <span className="ml-2 text-xs text-slate-500">ETA {formatDate(r.estimated_delivery_date, country)}</span> : null}
            </span>
            <span className="tabular-nums font-semibold" data-testid="rate-total">
              {r.is_poa ? "POA" : r.is_na || r.total == null ? "NA" : `$${r.total.toFixed(2)}`}
            </span>
          </label>
        );
      })}
    </div>
  );
}

type DgSuggestion = DangerousGoodsTypeJson;

async function searchDg(query: string, signal: AbortSignal): Promise<DgSuggestion[]> {
  const res = await apiFetch<{ dangerous_goods_types: DgSuggestion[] }>(`/api/dangerous_goods_types?query=${encodeURIComponent(query)}`, { signal });
  return res.ok ? res.data.dangerous_goods_types : [];
}

function DangerousGoodsLines({ index, lines, onChange, errorFor }: { index: number; lines: DgState[]; onChange: (dg: DgState[]) => void; errorFor: (key: string) => string | undefined }) {
  const set = (j: number, patch: Partial<DgState>) => onChange(lines.map((d, k) => (k === j ? { ...d, ...patch } : d)));
  const pick = (j: number) => (s: DgSuggestion) =>
    set(j, { un_number: s.un_number, proper_shipping_name: s.proper_shipping_name, hazard_class: s.hazard_class ?? "", sub_hazard: s.sub_risk ?? "", packing_group: s.packing_group ?? "", nos: s.nos });
  const name = (j: number, f: string) => `items.${index}.dangerous_goods_items.${j}.${f}`;
  const id = (j: number, f: string) => `dg-${index}-${j}-${f}`;
  // every field has a label (a placeholder vanishes once typed in): the spec's field name on
  // screen, and for screen readers which item line and dangerous goods line it belongs to
  const label = (j: number, f: string, text: string) => (
    <label htmlFor={id(j, f)} className="block text-xs text-slate-600">
      {text}
      <span className="sr-only">{` line ${index + 1} dangerous goods ${j + 1}`}</span>
    </label>
  );
  return (
    <div className="space-y-2 rounded border border-amber-300 bg-amber-50 p-2" data-testid="dg-lines">
      {errorFor(`items.${index}.dangerous_goods_items`) && <p className="field-error">{errorFor(`items.${index}.dangerous_goods_items`)}</p>}
      {lines.map((d, j) => (
        <div key={j} className="grid grid-cols-2 gap-2 md:grid-cols-8" data-testid="dg-line">
          <div>
            {label(j, "un_number", "UN number")}
            <Typeahead<DgSuggestion>
              id={id(j, "un_number")}
              name={name(j, "un_number")}
              value={d.un_number}
              onChange={(v) => set(j, { un_number: v })}
              search={searchDg}
              render={(s) => `UN${s.un_number} ${s.proper_shipping_name} (${s.hazard_class ?? "NIL"})`}
              onPick={pick(j)}
            />
          </div>
          <div className="md:col-span-2">
            {label(j, "proper_shipping_name", "Proper shipping name")}
            <Typeahead<DgSuggestion>
              id={id(j, "proper_shipping_name")}
              name={name(j, "proper_shipping_name")}
              value={d.proper_shipping_name}
              onChange={(v) => set(j, { proper_shipping_name: v })}
              search={searchDg}
              render={(s) => `${s.proper_shipping_name} (UN${s.un_number})`}
              onPick={pick(j)}
            />
          </div>
          {d.nos ? (
            <div>
              {label(j, "technical_name", "Technical name")}
              <input id={id(j, "technical_name")} name={name(j, "technical_name")} className="input" value={d.technical_name} onChange={(e) => set(j, { technical_name: e.target.value })} title={errorFor(`items.${index}.dangerous_goods_items.${j}.technical_name`)} aria-invalid={Boolean(errorFor(`items.${index}.dangerous_goods_items.${j}.technical_name`))} />
            </div>
          ) : (
            <span />
          )}
          <div>
            {label(j, "hazard_class", "Hazard class")}
            <input id={id(j, "hazard_class")} name={name(j, "hazard_class")} className="input" maxLength={6} value={d.hazard_class} onChange={(e) => set(j, { hazard_class: e.target.value })} />
          </div>
          <div>
            {label(j, "packing_group", "Packing group")}
            <input id={id(j, "packing_group")} name={name(j, "packing_group")} className="input" maxLength={6} value={d.packing_group} onChange={(e) => set(j, { packing_group: e.target.value })} />
          </div>
          <div>
            {label(j, "sub_hazard", "Sub risk")}
            <input id={id(j, "sub_hazard")} name={name(j, "sub_hazard")} className="input" maxLength={6} value={d.sub_hazard} onChange={(e) => set(j, { sub_hazard: e.target.value })} />
          </div>
          <div>
            {label(j, "weight_in_uom", "Aggregate quantity")}
            <input id={id(j, "weight_in_uom")} name={name(j, "weight_in_uom")} className="input" maxLength={5} value={d.weight_in_uom} onChange={(e) => set(j, { weight_in_uom: e.target.value })} />
          </div>
          {d.nos ? <input type="hidden" name={name(j, "nos")} value="true" /> : null}
        </div>
      ))}
    </div>
  );
}

/**
 * After Save + Print: the labels go to the user's label printer (a PDF opens in a new tab, a ZPL
 * printer's file downloads); without a configured printer the spec's message says so. The link
 * stays, should a pop-up blocker stop the tab.
 */
function PrintedLabels({ id, count }: { id: number; count: number }) {
  const [state, setState] = useState<{ href: string; message: string; ok: boolean }>({ href: `/print/${id}/labels`, message: "", ok: true });
  useEffect(() => {
    let live = true;
    void apiFetch<{ url: string; printer: { name: string } }>(`/api/printers/type/Label?printable_type=consignment&printable_id=${id}`).then((res) => {
      if (!live) return;
      if (!res.ok) return setState((s) => ({ ...s, ok: false, message: res.message }));
      window.open(res.data.url, "_blank", "noopener");
      setState({ href: res.data.url, ok: true, message: `${printMessages.sent(count)} (${res.data.printer.name})` });
    });
    return () => {
      live = false;
    };
  }, [id, count]);
  return (
    <div role="status" className={`flex items-center justify-between rounded border px-3 py-2 text-sm ${state.ok ? "border-green-300 bg-green-50 text-green-900" : "border-red-300 bg-red-50 text-red-900"}`} data-testid="printed-labels">
      <span>{state.message || printMessages.sent(count)}</span>
      <span className="flex gap-2">
        {!state.ok ? (
          <a className="btn" href="/configure_printers">
            Configure printers
          </a>
        ) : null}
        <a className="btn" href={state.href} target="_blank" rel="noreferrer">
          Open the labels
        </a>
      </span>
    </div>
  );
}
