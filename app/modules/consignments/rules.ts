/**
 * The consignment rules of spec 1 sections 4, 5 and 9 and spec 3 section 4: state groups, what
 * may be edited or re-rated, which footer buttons show, the rating readiness hints, the summary
 * and the small input cleaners. Pure, so the screen, the module and the /api share one copy.
 */
import type { ConsignmentState } from "../../../db/schema/consignments";
import { canEditFailedChargeAccount, canSeeConsignmentInformation, isAdmin, isCustomerServiceRole, type AccessSubject } from "../auth/roles";
import { itemQualifies, itemVolume, type Som } from "../rating/measure";
import { formatDisplayDate as formatDate } from "../calendar/display-date";

export const DESPATCHED_STATES: readonly ConsignmentState[] = [
  "despatching",
  "despatch_processing",
  "despatched",
  "booked",
  "in_transit",
  "delivered",
  "delivered_with_pod",
  "partial_delivery",
  "failed_delivery",
  "on_board_for_delivery",
  "picked_up",
];
export const FAILED_STATES: readonly ConsignmentState[] = ["despatch_failure", "permanently_failed"];
export const INACTIVE_STATES: readonly ConsignmentState[] = ["merged", "deleted"];
const EDITABLE_STATES: readonly ConsignmentState[] = ["open", "despatchable", "quote"];

export const isDespatched = (state: ConsignmentState | null | undefined) => Boolean(state && DESPATCHED_STATES.includes(state));
export const isFailed = (state: ConsignmentState | null | undefined) => Boolean(state && FAILED_STATES.includes(state));
export const isInactive = (state: ConsignmentState | null | undefined) => Boolean(state && INACTIVE_STATES.includes(state));
/** A new consignment (no state yet) and open, despatchable or quote ones may be edited. */
export const isEditable = (state: ConsignmentState | null | undefined) => !state || EDITABLE_STATES.includes(state);
/** Re-rating only when not despatched, not failed and not cancelled (or being cancelled). */
export const canRerate = (state: ConsignmentState | null | undefined) =>
  !isDespatched(state) && !isFailed(state) && state !== "cancelled" && state !== "cancelling" && !isInactive(state);

/** Despatchable: an id, a selected rate, no validation errors and state despatchable. */
export function isDespatchable(c: { id?: number | null; state?: ConsignmentState | null; hasRate: boolean; errors?: Record<string, string[]> | null }) {
  return Boolean(c.id) && c.hasRate && Object.keys(c.errors ?? {}).length === 0 && c.state === "despatchable";
}

export const PROMOTION_REFUSED = "Only a complete quote with a rate can become a consignment";

/** A quote may be promoted when it is valid: saved, nothing missing, a service chosen. */
export function canPromoteQuote(q: { id?: number | null; is_quote: boolean; errors: Record<string, string[]>; carrier_code: string | null }) {
  return Boolean(q.id) && q.is_quote && Object.keys(q.errors).length === 0 && Boolean(q.carrier_code);
}

/** What the footer reads of a consignment. */
export interface FooterSubject {
  id?: number | null;
  state?: ConsignmentState | null;
  isQuote?: boolean;
  autoDelivered?: boolean;
  /** ISO time until which a non-admin may cancel a despatched consignment */
  cancellationAllowedDate?: string | null;
  supportEmailEmpty?: boolean;
  /**
   * whether the cancel window was open when the page's data was read (cancelWindowOpen): a page is
   * made from its data alone (decision 048), never from the clock at render
   */
  cancelWindowOpen?: boolean;
  /** has its consignment number (labels printed, allocated, or despatched) */
  numbered?: boolean;
  /** its carrier prints consignment notes (print_connote) */
  printConnote?: boolean;
}

export interface ButtonRule {
  visible: boolean;
  enabled: boolean;
  hint?: string;
}

export type FooterButton =
  | "new"
  | "save"
  | "saveChargeAccount"
  | "saveAndPrint"
  | "reprint"
  | "printConnote"
  | "info"
  | "redespatch"
  | "tracking"
  | "enquiries"
  | "cancel"
  | "confirmCancel";

export const SUPPORT_EMAIL_MISSING = "Account support email is missing";

/** Whether the user may still cancel a despatched consignment at `now`: an admin always, anyone else until its cancellation_allowed_date. */
export function cancelWindowOpen(c: Pick<FooterSubject, "cancellationAllowedDate">, user: AccessSubject, now: Date = new Date()): boolean {
  return isAdmin(user) || (c.cancellationAllowedDate ? now.getTime() <= new Date(c.cancellationAllowedDate).getTime() : false);
}

/**
 * Footer buttons of the consignment screen (spec 1 sections 2 and 4). `cancelOffered` is the
 * environment switch (QA and UAT only); `saveBlocked` is the 5 s pause after a save.
 */
export function footerButtons(
  c: FooterSubject,
  user: AccessSubject,
  options: { cancelOffered: boolean; saveBlocked?: boolean; now?: Date },
): Record<FooterButton, ButtonRule> {
  const state = c.state ?? null;
  const editable = isEditable(state);
  const despatched = isDespatched(state);
  const failed = isFailed(state);
  const show = (visible: boolean, enabled = true, hint?: string): ButtonRule => ({ visible, enabled: visible && enabled, ...(hint ? { hint } : {}) });

  const withinWindow = c.cancelWindowOpen ?? cancelWindowOpen(c, user, options.now);
  const cancelVisible =
    options.cancelOffered && state !== "cancelling" && state !== "cancelled" && (Boolean(c.autoDelivered) || (despatched && withinWindow));

  return {
    new: show(true),
    save: show(editable, !options.saveBlocked),
    saveChargeAccount: show(failed && canEditFailedChargeAccount(user), !options.saveBlocked),
    saveAndPrint: show(editable && !c.isQuote, !options.saveBlocked),
    reprint: show(despatched || failed),
    // for carriers that want one (print_connote); it names the consignment number: once it has one, until it is cancelled
    printConnote: show(Boolean(c.numbered) && Boolean(c.printConnote) && (despatched || failed || state === "despatchable")),
    info: show(Boolean(c.id) && canSeeConsignmentInformation(user)),
    redespatch: show(failed),
    tracking: show(despatched),
    enquiries: show(despatched),
    cancel: show(cancelVisible, !c.supportEmailEmpty, c.supportEmailEmpty ? SUPPORT_EMAIL_MISSING : undefined),
    confirmCancel: show(state === "cancelling" && isCustomerServiceRole(user)),
  };
}

/**
 * The despatch buttons of a return or third-party pickup (spec 1 section 4): hidden once
 * despatched, enabled only when it could be despatched now (and, for e-mail, has an address).
 * Resend email shows when despatched and emailable.
 */
export function returnDespatchButtons(c: { id?: number | null; state?: ConsignmentState | null; hasRate: boolean; errors?: Record<string, string[]> | null; email?: string | null } | null) {
  const despatched = isDespatched(c?.state);
  const ready = Boolean(c) && isDespatchable({ id: c!.id, state: c!.state, hasRate: c!.hasRate, errors: c!.errors });
  return {
    despatchPrint: { visible: !despatched && isEditable(c?.state), enabled: ready },
    despatchEmail: { visible: !despatched && isEditable(c?.state), enabled: ready && Boolean(c?.email) },
    resendEmail: { visible: despatched && Boolean(c?.email), enabled: true },
  };
}

/** Delivery options offered when the customer has them enabled (our set; the spec names the section only). */
export const DELIVERY_OPTIONS = [
  ["authority_to_leave", "Authority to leave"],
  ["signature_required", "Signature required"],
  ["tail_lift", "Tail-lift truck required"],
] as const;

/** A track-and-trace URL only when the state is not open, not quote and not empty. */
export const offersTrackingUrl = (state: ConsignmentState | null | undefined) => Boolean(state) && state !== "open" && state !== "quote";

// ---------------------------------------------------------------------------------------------
// Rating readiness (spec 1 section 5)

export interface GridLine {
  quantity: number;
  itemTypeId?: number | null;
  length: number;
  width: number;
  height: number;
  weight: number;
  dangerousGoods?: boolean;
  dangerousGoodsItems?: { un_number?: string | null; proper_shipping_name?: string | null; hazard_class?: string | null; weight_in_uom?: number | string | null }[];
}

export const MUST_HAVE_WEIGHT = "Must have weight";
export const MUST_HAVE_QUANTITY = "Must have quantity";

/** The hints shown under the rates when rating cannot start: weight on any line, quantity on the first. */
export function ratingHints(lines: GridLine[]): string[] {
  const hints: string[] = [];
  if (lines.some((l) => !(l.weight > 0))) hints.push(MUST_HAVE_WEIGHT);
  if (!(lines[0] && lines[0].quantity > 0)) hints.push(MUST_HAVE_QUANTITY);
  return hints;
}

/** A dangerous goods line needs UN number, proper shipping name, hazard class and weight before re-rating. */
export function dangerousGoodsComplete(line: GridLine): boolean {
  if (!line.dangerousGoods) return true;
  const dg = line.dangerousGoodsItems ?? [];
  return dg.length > 0 && dg.every((d) => Boolean(d.un_number && d.proper_shipping_name && d.hazard_class) && Number(d.weight_in_uom) > 0);
}

/** Rates are requested only when every item qualifies and the date and both places exist. */
export function canRequestRates(input: { despatchDate?: string | null; senderReady: boolean; receiverReady: boolean; lines: GridLine[] }): boolean {
  return (
    Boolean(input.despatchDate) &&
    input.senderReady &&
    input.receiverReady &&
    input.lines.length > 0 &&
    input.lines.every((l) => itemQualifies({ ...l, itemType: l.itemTypeId }) && dangerousGoodsComplete(l))
  );
}

// ---------------------------------------------------------------------------------------------
// Summary (spec 1 sections 2 and 9)

export interface Summary {
  weight: number;
  volume: number;
  items: number;
  packages: number;
  hazardousItems: number;
  aggregateQuantity: number;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function summarise(lines: GridLine[], som: Som): Summary {
  let weight = 0;
  let volume = 0;
  let packages = 0;
  let hazardousItems = 0;
  let aggregateQuantity = 0;
  for (const l of lines) {
    weight += l.weight > 0 ? l.weight : 0;
    volume += itemVolume(l, som) ?? 0;
    packages += l.quantity > 0 ? l.quantity : 0;
    if (l.dangerousGoods) {
      hazardousItems += l.quantity > 0 ? l.quantity : 0;
      for (const d of l.dangerousGoodsItems ?? []) aggregateQuantity += Number(d.weight_in_uom) > 0 ? Number(d.weight_in_uom) : 0;
    }
  }
  return { weight: round3(weight), volume: round3(volume), items: lines.length, packages, hazardousItems, aggregateQuantity: round3(aggregateQuantity) };
}

/** Weights of 1000 or more in tonnes (2 decimals); otherwise the unit weight to 3 decimals at most. */
export function formatWeight(weight: number, som: Som): string {
  if (som === "imperial") return `${round3(weight)} lb`;
  return weight >= 1000 ? `${(weight / 1000).toFixed(2)} t` : `${round3(weight)} kg`;
}

export const formatVolume = (volume: number, som: Som) => `${round3(volume)} ${som === "imperial" ? "ft³" : "m³"}`;

// ---------------------------------------------------------------------------------------------
// Input cleaners

/** Return phone numbers keep only digits and spaces. */
export const cleanPhone = (input: string) => input.replace(/[^\d ]/g, "");

/** Pickup times step by 15 minutes, rounded up to the next quarter hour ("HH:mm"). */
export function roundUpToQuarter(time: string): string {
  const m = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!m) return time;
  const minutes = Math.min(Number(m[1]) * 60 + Number(m[2]), 23 * 60 + 45);
  const rounded = Math.min(Math.ceil(minutes / 15) * 15, 23 * 60 + 45);
  return `${String(Math.floor(rounded / 60)).padStart(2, "0")}:${String(rounded % 60).padStart(2, "0")}`;
}

/** Dates are DD/MM/YYYY, MM/DD/YYYY for United States senders; the wire format is YYYY-MM-DD. */
export { formatDate };

/** The quote reference: QTE plus the id left-padded to 8 digits. */
export const quoteReference = (id: number) => `QTE${String(id).padStart(8, "0")}`;

/**
 * The e-mail a return or third-party pickup sends with its labels and manifest (spec 1 section 2):
 * the screen previews exactly these paragraphs and the despatch sends them.
 */
export function returnEmailParagraphs(r: { contactName?: string | null; customerName: string; readyDate?: string | null; country: string; notes?: string | null; csPhone?: string | null }): string[] {
  const from = r.readyDate && /^\d{4}-\d{2}-\d{2}/.test(r.readyDate) ? ` from ${formatDate(r.readyDate.slice(0, 10), r.country)}` : "";
  return [
    `Hello${r.contactName ? ` ${r.contactName}` : ""},`,
    `${r.customerName} has arranged a collection${from}. Your labels are attached: please print them and fix one to each item. Collection should occur within 3 business days.`,
    ...(r.notes ? [r.notes] : []),
    `${r.customerName}${r.csPhone ? ` · ${r.csPhone}` : ""}`,
  ];
}
