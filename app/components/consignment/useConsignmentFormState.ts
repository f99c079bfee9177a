import { useNavigation, useSubmit } from "@remix-run/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Alert } from "~/components/Alerts";
import type { AccessSubject } from "~/modules/auth/roles";
import { nest, ratingPayloadOf, TIME_SLOTS } from "~/modules/consignments/form";
import { displayDateToIso, reexpressDate } from "~/modules/calendar/display-date";
import { VARIANTS } from "~/modules/consignments/variants";
import { DELIVERY_OPTIONS, canRequestRates, footerButtons, formatDate, quoteReference, isEditable, ratingHints, summarise, type GridLine } from "~/modules/consignments/rules";
import type { ScreenData, ScreenOutcome } from "~/modules/consignments/screen.server";
import { useLiveRates } from "./useLiveRates";
import { pickupFrom, type PickupState } from "./PickupInformation";
import { emptyAddress, type AddressState } from "./AddressFields";
import { addressFrom, emptyLine, lineFrom, slotFrom, str, type LineState, type Loose, type SlotState } from "./form-values";

/**
 * The consignment screen's state: what each field holds, what is derived from it (grid, summary,
 * live rates, footer buttons, title), and the save and keyboard-shortcut handlers. The sections of
 * ConsignmentForm read and change it through what this answers.
 */
export function useConsignmentFormState({ data, outcome, user }: { data: ScreenData; outcome: ScreenOutcome | undefined; user: AccessSubject }) {
  const c = data.consignment;
  const v = VARIANTS[data.variant];
  // what the form shows: what was typed in a failed post (nested back from its a.b.0.c names), else the saved consignment, else defaults
  const source: Loose | null = outcome?.values && Object.keys(outcome.values).length ? nest(Object.entries(outcome.values)) : (c as unknown as Loose | null);
  const [siteCode, setSiteCode] = useState(str(source?.site_code) || data.defaultSiteCode || "");
  const site = data.sites.find((s) => s.code === siteCode) ?? data.sites[0];
  const country = site?.country ?? "AUSTRALIA";
  // today at the sending site: where its calendars open, and the first despatch date it may pick
  const today = site?.today ?? data.today;
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
  const [slots, setSlots] = useState(() => Object.fromEntries(TIME_SLOTS.map((k) => [k, slotFrom(source, k, country)])) as Record<(typeof TIME_SLOTS)[number], SlotState>);
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
  // without JavaScript: the places a typed locality matches, by address, to choose among
  const placeChoices = outcome?.places ?? {};

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

  /**
   * Another sending site: the dates typed so far are written again in its country's format (read
   * with the old one), so 24/11/2026 at Melbourne becomes 11/24/2026 at Los Angeles and the live
   * rating and the save read the day that was meant.
   */
  const changeSite = (code: string) => {
    const next = data.sites.find((s) => s.code === code);
    const [from, to] = [country, next?.country ?? "AUSTRALIA"];
    setDespatchDate((d) => reexpressDate(d, from, to));
    setPickup((p) => ({ ...p, ready_date: reexpressDate(p.ready_date, from, to), closing_date: reexpressDate(p.closing_date, from, to) }));
    setSlots((all) => Object.fromEntries(Object.entries(all).map(([k, slot]) => [k, { ...slot, date: reexpressDate(slot.date, from, to) }])) as typeof all);
    setSiteCode(code);
  };

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
  // only a real date in the site's format is rated (a day-first date at a US site is none)
  const isoDate = displayDateToIso(despatchDate, country);
  const placeReady = (a: AddressState) => Boolean(a.locality && a.postcode);
  const ready = editable && canRequestRates({ despatchDate: isoDate, senderReady: placeReady(sender), receiverReady: placeReady(receiver), lines: grid });

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
    { id: c?.id, state: c?.state, numbered: Boolean(c?.consignment_number), printConnote: c?.print_connote, isQuote: v.isQuote, autoDelivered: c?.auto_delivered, cancellationAllowedDate: c?.cancellation_allowed_date, cancelWindowOpen: data.cancelWindowOpen, supportEmailEmpty: c?.support_email_empty },
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

  return {
    c,
    v,
    site,
    country,
    today,
    som,
    siteAddress,
    siteCode,
    changeSite,
    reference,
    setReference,
    despatchDate,
    setDespatchDate,
    customReference,
    setCustomReference,
    sender,
    setSender,
    receiver,
    setReceiver,
    deliveryOptions,
    setDeliveryOptions,
    slots,
    setSlots,
    pickup,
    setPickup,
    specialInstructions,
    setSpecialInstructions,
    accountPayable,
    setAccountPayable,
    chargeAccount,
    setChargeAccount,
    lines,
    setLines,
    setLine,
    addLine,
    chosenRate,
    setChosenRate,
    hydrated,
    addressDialog,
    setAddressDialog,
    clientAlerts,
    setClientAlerts,
    formRef,
    saving,
    editable,
    errors,
    errorFor,
    placeChoices,
    typeById,
    grid,
    summary,
    hints,
    rates,
    rating,
    rateError,
    alerts,
    buttons,
    title,
    unit,
    weightUnit,
  };
}

export type ConsignmentFormState = ReturnType<typeof useConsignmentFormState>;
