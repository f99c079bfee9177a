/**
 * Carrier accounts of a site (issue 16 item 3; spec 2 "Account"): the one schema the account screen
 * and /api/customers/{id}/sites/{siteId}/accounts validate with, the carrier's account validations
 * and the warnings an account shows. Pure, so the browser bundle may use it too.
 */
import { z } from "zod";

export const NOTE_MAX = 255;

export const ACCOUNT_MESSAGES = {
  saved: "Account was saved.",
  failed: "There was an error saving the Account.",
  notFound: "Account not found",
  carrierRequired: "Please choose a carrier",
  serviceUnknown: "Please choose one of the carrier's services",
  accountNumberRequired: "Account number is required",
  noteTooLong: `Note is too long (at most ${NOTE_MAX} characters)`,
  noteBlank: "Note cannot be blank",
  autoDespatch: "Only a super admin may change auto despatch",
  startAfterEnd: "Range end must not be less than range start",
  email: "Please enter a valid e-mail address",
} as const;

/** `Range end must fit in 8 digits` */
export const fitsDigitsMessage = (digits: number) => `Range end must fit in ${digits} digits`;
/** A new range end below the last number handed out would hand that number out again. */
export const belowCurrentMessage = (current: number) => `Range end cannot be below ${current}: numbers up to it are already used`;

const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const trimmed = (max = 255) => z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string().max(max, `Too long (at most ${max} characters)`));
const optionalText = (max = 255) => z.preprocess(blankToUndefined, trimmed(max).optional());
const toNumber = (v: unknown) => (v === "" || v === null ? undefined : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v);
const wholeNumber = (message: string, min: number, max: number) => z.number({ error: message }).int(message).min(min, message).max(max, message);
/** A whole number typed or sent; blank is absent (so a default, where there is one, applies). */
const whole = (message: string, max = Number.MAX_SAFE_INTEGER) => z.preprocess(toNumber, wholeNumber(message, 0, max));
const count = (label: string, max: number, fallback?: number) => {
  const n = wholeNumber(`${label} must be a whole number from 1 to ${max}`, 1, max);
  return z.preprocess(toNumber, fallback === undefined ? n : n.default(fallback));
};
const rangeNumber = (label: string) => whole(`${label} must be a whole number`);
const flag = z.preprocess((v) => (v === "on" || v === "true" ? true : v === "false" ? false : v), z.boolean({ error: "Must be true or false" }));
const email = z.preprocess(blankToUndefined, z.string().trim().email(ACCOUNT_MESSAGES.email).max(255).optional());

export const noteSchema = z.object({
  text: z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string({ error: ACCOUNT_MESSAGES.noteBlank }).min(1, ACCOUNT_MESSAGES.noteBlank).max(NOTE_MAX, ACCOUNT_MESSAGES.noteTooLong)),
});

/** One range of an account: start <= end and the end fits the digits (a number must print in them). */
function checkRange(ctx: z.RefinementCtx, v: { start?: number | null; end?: number | null; digits?: number | null }, endField: string) {
  // runs beside the fields' own checks (see `always`): a value that failed its own is skipped here
  // (a number past the safe integers failed its own "whole number" check too)
  if (!Number.isSafeInteger(v.start) || !Number.isSafeInteger(v.end)) return;
  if (typeof v.start !== "number" || typeof v.end !== "number") return;
  if (v.end < v.start) ctx.addIssue({ code: "custom", path: [endField], message: ACCOUNT_MESSAGES.startAfterEnd });
  else if (typeof v.digits === "number" && v.end >= 10 ** v.digits) ctx.addIssue({ code: "custom", path: [endField], message: fitsDigitsMessage(v.digits) });
}

/** Cross-field checks run even when another field failed, so a form shows every error at once. */
export const always = { when: () => true };

/**
 * The account form and its /api body. Absent keys keep what is stored on a change (the module
 * merges before parsing); `account_options.auto_despatch` absent means "unchanged".
 */
export const accountSchema = z
  .object({
    carrier_code: z.string({ error: ACCOUNT_MESSAGES.carrierRequired }).trim().min(1, ACCOUNT_MESSAGES.carrierRequired).max(100),
    service_code: optionalText(100),
    account_number: z.string({ error: ACCOUNT_MESSAGES.accountNumberRequired }).trim().min(1, ACCOUNT_MESSAGES.accountNumberRequired).max(100),
    carrier_customer_reference: optionalText(),
    support_email: email,
    booking_email: email,
    managed_account: flag.default(false),
    consignment_number_prefix: optionalText(20),
    consignment_number_digits: count("Consignment number digits", 18),
    consignment_range_start: rangeNumber("Consignment range start"),
    consignment_range_end: rangeNumber("Consignment range end"),
    manifest_number_prefix: optionalText(20),
    manifest_number_digits: count("Manifest number digits", 18),
    manifest_range_start: rangeNumber("Manifest range start"),
    manifest_range_end: rangeNumber("Manifest range end"),
    sscc_prefix: z.preprocess(blankToUndefined, z.string().trim().regex(/^\d{1,16}$/, "SSCC prefix must be digits").optional()),
    sscc_digits: count("SSCC digits", 16, 9),
    sscc_range_start: z.preprocess(blankToUndefined, rangeNumber("SSCC range start").optional()),
    sscc_range_end: z.preprocess(blankToUndefined, rangeNumber("SSCC range end").optional()),
    pickup_at: flag.default(false),
    deliver_by: flag.default(false),
    deliver_at: flag.default(false),
    climbing_count_enabled: flag.default(false),
    account_options: z.object({ auto_despatch: flag.optional() }).default({}),
    note: z.preprocess(blankToUndefined, z.string().trim().max(NOTE_MAX, ACCOUNT_MESSAGES.noteTooLong).optional()),
    notes_attributes: z.array(noteSchema).max(20).default([]),
  })
  .superRefine((v, ctx) => {
    if (!v || typeof v !== "object") return;
    checkRange(ctx, { start: v.consignment_range_start, end: v.consignment_range_end, digits: v.consignment_number_digits }, "consignment_range_end");
    checkRange(ctx, { start: v.manifest_range_start, end: v.manifest_range_end, digits: v.manifest_number_digits }, "manifest_range_end");
    if ((v.sscc_range_start == null) !== (v.sscc_range_end == null)) {
      ctx.addIssue({ code: "custom", path: [v.sscc_range_start == null ? "sscc_range_start" : "sscc_range_end"], message: "Give both ends of the SSCC range, or neither" });
    }
    checkRange(ctx, { start: v.sscc_range_start, end: v.sscc_range_end, digits: v.sscc_digits }, "sscc_range_end");
  }, always);
export type AccountInput = z.infer<typeof accountSchema>;

/** The form's text fields (checkboxes are read apart: absent means off). */
export const ACCOUNT_TEXT_FIELDS = [
  "carrier_code",
  "service_code",
  "account_number",
  "carrier_customer_reference",
  "support_email",
  "booking_email",
  "consignment_number_prefix",
  "consignment_number_digits",
  "consignment_range_start",
  "consignment_range_end",
  "manifest_number_prefix",
  "manifest_number_digits",
  "manifest_range_start",
  "manifest_range_end",
  "sscc_prefix",
  "sscc_digits",
  "sscc_range_start",
  "sscc_range_end",
  "note",
] as const;
export const ACCOUNT_FLAGS = ["managed_account", "pickup_at", "deliver_by", "deliver_at", "climbing_count_enabled"] as const;

// ---------------------------------------------------------------------------------------------
// Carrier account validations (spec 2 "Carrier account validation")

/** A validation's field (the carrier_account_validations column's choices) as the account form and JSON name it. */
export const VALIDATION_FIELD_TO_ACCOUNT = {
  account_number: "account_number",
  consignment_number_prefix: "consignment_number_prefix",
  consignment_number_digits: "consignment_number_digits",
  consignment_number_range_start: "consignment_range_start",
  consignment_number_range_end: "consignment_range_end",
  carrier_customer_reference: "carrier_customer_reference",
  sscc_digits: "sscc_digits",
  sscc_range_start: "sscc_range_start",
  sscc_range_end: "sscc_range_end",
} as const satisfies Record<string, keyof AccountInput>;
export type ValidationField = keyof typeof VALIDATION_FIELD_TO_ACCOUNT;

export interface AccountValidation {
  field: ValidationField;
  rule: "end_with" | "start_with" | "be" | "length";
  modifier: "in" | "equal";
  validation: string;
  message: string;
}

/** Whether one value passes one validation: case sensitive; `in` is one of the comma separated values; length counts characters. */
export function passesValidation(value: string, v: Pick<AccountValidation, "rule" | "modifier" | "validation">): boolean {
  const wanted = v.modifier === "in" ? v.validation.split(",").map((s) => s.trim()) : [v.validation];
  switch (v.rule) {
    case "start_with":
      return wanted.some((w) => value.startsWith(w));
    case "end_with":
      return wanted.some((w) => value.endsWith(w));
    case "be":
      return wanted.includes(value);
    case "length":
      return wanted.some((w) => /^\d+$/.test(w) && [...value].length === Number(w));
  }
}

/** The carrier's validations that an account's values fail, as field errors (each failing validation's message on its field). */
export function accountValidationErrors(values: Partial<Record<keyof AccountInput, unknown>>, validations: AccountValidation[]): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const v of validations) {
    const field = VALIDATION_FIELD_TO_ACCOUNT[v.field];
    const raw = values[field];
    const value = raw == null ? "" : String(raw);
    if (!passesValidation(value, v)) (errors[field] ??= []).push(v.message);
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Warnings

/** A range is nearly exhausted when a tenth or less of it is left. */
export const NEARLY_EXHAUSTED_FRACTION = 0.1;

export interface RangeState {
  label: string;
  start: number | null;
  end: number | null;
  remaining: number;
}

/** 'Consignment number range is nearly exhausted: 9 of 100 left' / '... is exhausted'. */
export function rangeWarnings(ranges: RangeState[]): string[] {
  const out: string[] = [];
  for (const r of ranges) {
    if (r.start == null || r.end == null) continue;
    const size = r.end - r.start + 1;
    if (r.remaining <= 0) out.push(`${r.label} range is exhausted`);
    else if (r.remaining <= size * NEARLY_EXHAUSTED_FRACTION) out.push(`${r.label} range is nearly exhausted: ${r.remaining} of ${size} left`);
  }
  return out;
}

/** Whether two closed ranges share a number. */
export const rangesOverlap = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start <= b.end && b.start <= a.end;

export const overlapWarning = (label: string, other: { accountNumber: string; siteCode: string; customerCode: string }) =>
  `${label} range overlaps account ${other.accountNumber} (${other.customerCode} / ${other.siteCode}) of the same carrier and prefix`;
