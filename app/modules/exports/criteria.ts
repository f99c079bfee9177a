/**
 * Export criteria (spec 1 lines 107, 142, 241): site_code (default ALL), from_date and to_date
 * (DD/MM/YYYY, ISO accepted), both required; non-admins at most 3 months. Plain, so the screen
 * shows the same defaults and messages the API answers.
 */
import { z } from "zod";
import { addMonths } from "../despatch/manifest-dates";
import { isRealDate, MAX_YEAR, MIN_YEAR } from "../calendar/dates";
import type { FieldErrors } from "../../utils/errors";

export const ALL_SITES = "ALL";
export const FORMATS = ["csv", "xlsx"] as const;
export type ExportFormat = (typeof FORMATS)[number];
/** Non-admins' widest range, and how far back the form's from date starts. */
export const MAX_MONTHS = 3;

export const MESSAGES = {
  rangeTooLarge: "Date range can not be greater than 3 months",
  fromRequired: "From date is required",
  toRequired: "To date is required",
  invalidDate: "Enter a date as DD/MM/YYYY",
  toBeforeFrom: "To date must be on or after the from date",
  unknownSite: "Choose ALL or one of your sites",
  format: "Format must be csv or xlsx",
} as const;

/** DD/MM/YYYY (or YYYY-MM-DD) to YYYY-MM-DD; null when it is no real date. */
export function readDate(text: string): string | null {
  const v = text.trim();
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(v);
  const iso = m ? `${m[3]}-${m[2]!.padStart(2, "0")}-${m[1]!.padStart(2, "0")}` : v;
  // the years every other date rule reads (dates.ts MIN_YEAR..MAX_YEAR)
  return /^\d{4}-\d{2}-\d{2}$/.test(iso) && isRealDate(iso) && Number(iso.slice(0, 4)) >= MIN_YEAR && Number(iso.slice(0, 4)) <= MAX_YEAR ? iso : null;
}

export const isoToDdmmyyyy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

/** The form's defaults: from 3 months before today, to today. */
export const defaultRange = (today: string) => ({ from: addMonths(today, -MAX_MONTHS), to: today });

const optionalText = z.preprocess((v) => (v == null ? "" : String(v)), z.string());

export const criteriaSchema = z.object({
  site_code: optionalText,
  from_date: optionalText,
  to_date: optionalText,
  format: z.preprocess((v) => (v == null || v === "" ? "csv" : String(v).toLowerCase()), z.enum(FORMATS, { error: MESSAGES.format })),
  new_export: z.preprocess((v) => v === true || v === "true" || v === "1" || v === "on", z.boolean()),
});

export interface Criteria {
  siteCode: string;
  from: string;
  to: string;
  format: ExportFormat;
  newExport: boolean;
}

/** The date and site rules; `limited` (non-admins) adds the 3-month rule. Errors per field, by API name. */
export function checkCriteria(raw: z.infer<typeof criteriaSchema>, limited: boolean): { criteria: Criteria; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const date = (field: "from_date" | "to_date", required: string) => {
    const text = raw[field].trim();
    if (!text) errors[field] = [required];
    else if (!readDate(text)) errors[field] = [MESSAGES.invalidDate];
    return readDate(text) ?? "";
  };
  const from = date("from_date", MESSAGES.fromRequired);
  const to = date("to_date", MESSAGES.toRequired);
  if (from && to && to < from) errors.to_date = [MESSAGES.toBeforeFrom];
  else if (from && to && limited && to > addMonths(from, MAX_MONTHS)) errors.to_date = [MESSAGES.rangeTooLarge];
  const siteCode = raw.site_code.trim().toUpperCase() || ALL_SITES;
  return { criteria: { siteCode, from, to, format: raw.format, newExport: raw.new_export }, errors };
}

/** consignments-2026-08-01-to-2026-10-31.xlsx */
export const exportFilename = (c: { from: string; to: string; format: ExportFormat; newExport?: boolean }) =>
  `consignments${c.newExport ? "-costs" : ""}-${c.from}-to-${c.to}.${c.format}`;
