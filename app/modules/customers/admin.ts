/**
 * Customers administration (issue 16 items 1 and 7; spec 2 sections 3, 5, 8): the one schema the
 * /customers/{id?} form and /api/customers validate with, the custom references schema, the
 * spec's messages and the pure rules (going live, the despatch-dependent flags). Pure, so the
 * browser bundle uses it too.
 */
import { z } from "zod";

export const MESSAGES = {
  saved: "Customer was saved.",
  privilege: "Your privilege level does not allow this",
  notTestAccount: "Only a test account can go live",
  nameRequired: "Name is required",
  nameTooLong: "Name is too long (at most 255 characters)",
  codeRequired: "Code is required",
  codeFormat: "Code may hold only letters, digits, - and _ (at most 20)",
  codeTaken: "Code has already been taken",
  brandingPrefix: "Branding prefix may hold only letters, digits, - and _ (at most 20)",
  markup: "Markup must be a number from 0 to 1000",
  mergeLimit: "Merge limit must be 3, 4 or 5",
  sessionTimeout: "Session timeout must be a whole number of minutes, at least 1",
  specialInstructions: "Special instructions are too long (at most 80 characters)",
  email: "Please enter a valid e-mail address",
  threshold: "Threshold must be a number, 0 or more",
  billingFrom: "Billing address from must be ENTERED, SITE, one of the customer's sites or a site per region",
  billingSite: "That site is not one of this customer's sites",
  referenceType: "Choose a custom reference type: free text, a list of references or a site to charge",
  allocateBy: "Invoice allocation must be CUSTOMER, SITE or REGION",
  tooLong: "Too long (at most 255 characters)",
  referenceBlank: "Reference can't be blank",
  referenceTooLong: "Reference is too long (at most 4000 characters)",
  referenceDuplicate: "Reference is already in the list",
  referencesBody: "Send an array of references",
  referencesNotGeneric: "Custom references are used only when the custom reference type is 'A list of references'",
  saveBeforeSorting: "Please save your Custom References before sorting.",
  referencesSaved: "Custom References were saved.",
  despatchEnabled: "despatch_enabled must be true or false",
} as const;

export const SPECIAL_INSTRUCTIONS_MAX = 80;
export const REFERENCE_MAX = 4000;
/** Spec 2 section 9: blank session timeout means 12 hours. */
export const DEFAULT_SESSION_TIMEOUT = 720;
export const MERGE_LIMITS = [3, 4, 5] as const;
export const REGIONS = ["NSW", "VIC", "QLD", "SA", "WA", "TAS", "NT", "ACT"] as const;
export const REFERENCE_TYPES = ["text", "dropdown_generic", "dropdown_charge_site"] as const;
/** How the customer form names each custom reference type (issue 31 #6: 'dropdown_generic' was shown). */
export const REFERENCE_TYPE_LABELS: Record<(typeof REFERENCE_TYPES)[number], string> = {
  text: "Free text",
  dropdown_generic: "A list of references",
  dropdown_charge_site: "A site to charge",
};
export const ALLOCATE_BY = ["CUSTOMER", "SITE", "REGION"] as const;
/** The form's choice for "a site per region" (the region fields then say which). */
export const BY_REGION = "REGION_MAP";

/** The customer's own flags (spec 2 section 3), in the order the form shows them. */
export const CUSTOMER_FLAGS = [
  "test_account",
  "disabled",
  "despatch_enabled",
  "customer_despatch_enabled",
  "tracking_despatch_enabled",
  "offers_customer_collect",
  "receivers_carrier_permitted",
  "merging_enabled",
  "dg_merging_enabled",
  "merging_custom_reference_enabled",
  "print_declarations",
] as const;
/** customer_options flags. */
export const OPTION_FLAGS = [
  "booking_enabled",
  "booking_v2",
  "view_item_references",
  "send_all_tracking_updates",
  "global_recipients",
  "delivery_options_enabled",
  "pre_despatch",
  "despatch_failure_notices_enabled",
  "preserve_ssccs_during_merge",
  "view_consignment_reference",
  "view_all_despatched_cons",
  "all_users_can_edit_recipients",
] as const;
export const PLACEHOLDERS = ["reference", "custom_reference", "receiver_account", "special_instructions"] as const;
export const ADDRESS_FIELDS = ["name", "address_line_1", "address_line_2", "address_line_3", "address_line_4", "sublocality", "locality", "postcode", "region", "country"] as const;

/** A checkbox: true or false from a script, "on" from a form (an unticked box sends nothing). */
const flag = z.union([z.boolean(), z.literal("on").transform(() => true), z.literal("off").transform(() => false)]).optional();

/** Free text: trimmed, blank is null. */
const text = (max: number, message: string = MESSAGES.tooLong) =>
  z.preprocess((v) => (typeof v === "string" ? v.trim() || null : v), z.string({ error: message }).max(max, message).nullable().optional());

/** A number from a script or a form's text; blank is null (not set). */
const number = (message: string, rule: (n: z.ZodNumber) => z.ZodNumber = (n) => n) =>
  z.preprocess((v) => (v === "" || v === null ? null : typeof v === "string" ? (v.trim() === "" ? null : Number(v.trim())) : v), rule(z.number({ error: message })).nullable().optional());

const email = z.preprocess((v) => (typeof v === "string" ? v.trim() || null : v), z.email({ error: MESSAGES.email }).max(255, MESSAGES.email).nullable().optional());

const siteId = z.union([z.number(), z.string().regex(/^\d{1,10}$/)]).transform(Number);
/** ENTERED, SITE, a site id, the form's REGION_MAP, or { region: site id }; blank values in the map are dropped. */
const billingFrom = z.union(
  [
    z.enum(["ENTERED", "SITE", BY_REGION]),
    siteId,
    z.partialRecord(z.enum(REGIONS), z.union([siteId, z.literal("").transform(() => null), z.null()])).transform((m) => Object.fromEntries(Object.entries(m).filter(([, v]) => v !== null)) as Record<string, number>),
  ],
  { error: MESSAGES.billingFrom },
);

export const customerOptionsSchema = z.object({
  ...Object.fromEntries(OPTION_FLAGS.map((k) => [k, flag])),
  invoice_allocate_by: z.preprocess((v) => (v === "" ? null : v), z.enum(ALLOCATE_BY, { error: MESSAGES.allocateBy }).nullable().optional()),
  billing_address_from: z.preprocess((v) => (v === "" ? null : v), billingFrom.nullable().optional()),
  markup: number(MESSAGES.markup, (n) => n.min(0, MESSAGES.markup).max(1000, MESSAGES.markup)),
  merge_limit: number(MESSAGES.mergeLimit, (n) => n.int(MESSAGES.mergeLimit).min(3, MESSAGES.mergeLimit).max(5, MESSAGES.mergeLimit)),
  placeholder_texts: z.object(Object.fromEntries(PLACEHOLDERS.map((k) => [k, text(255)])) as Record<(typeof PLACEHOLDERS)[number], ReturnType<typeof text>>).optional(),
  reconciliation_threshold_flat: number(MESSAGES.threshold, (n) => n.min(0, MESSAGES.threshold).max(1_000_000, MESSAGES.threshold)),
  reconciliation_threshold_percentage: number(MESSAGES.threshold, (n) => n.min(0, MESSAGES.threshold).max(1000, MESSAGES.threshold)),
  invoicing_email: email,
  session_timeout: number(MESSAGES.sessionTimeout, (n) => n.int(MESSAGES.sessionTimeout).min(1, MESSAGES.sessionTimeout).max(525_600, MESSAGES.sessionTimeout)),
});

/** The customer form and PUT/POST /api/customers: every field optional here (a PUT changes what it names); required ones are checked on the merged record. */
export const customerSchema = z.object({
  name: text(255, MESSAGES.nameTooLong),
  code: z.preprocess((v) => (typeof v === "string" ? v.trim() || null : v), z.string({ error: MESSAGES.codeFormat }).regex(/^[A-Za-z0-9_-]{1,20}$/, MESSAGES.codeFormat).nullable().optional()),
  branding_prefix: z.preprocess((v) => (typeof v === "string" ? v.trim() || null : v), z.string({ error: MESSAGES.brandingPrefix }).regex(/^[A-Za-z0-9_-]{1,20}$/, MESSAGES.brandingPrefix).nullable().optional()),
  ...Object.fromEntries(CUSTOMER_FLAGS.map((k) => [k, flag])),
  custom_consignment_reference_type: z.preprocess((v) => (v === "" ? undefined : v), z.enum(REFERENCE_TYPES, { error: MESSAGES.referenceType }).optional()),
  custom_consignment_reference_label: text(255),
  special_instructions: text(SPECIAL_INSTRUCTIONS_MAX, MESSAGES.specialInstructions),
  support_email: email,
  /** the going-live confirmation's choice: delete every consignment and manifest of the customer */
  delete_consignments: flag,
  billing_address: z.object(Object.fromEntries(ADDRESS_FIELDS.map((k) => [k, text(255)])) as Record<(typeof ADDRESS_FIELDS)[number], ReturnType<typeof text>>).nullable().optional(),
  options: customerOptionsSchema.optional(),
  /** the form's region fields for billing_address_from REGION_MAP */
  billing_regions: z.partialRecord(z.enum(REGIONS), z.string()).optional(),
}) as unknown as z.ZodType<CustomerInput>;

type Flags<K extends string> = Partial<Record<K, boolean>>;
export type CustomerOptionsInput = Flags<(typeof OPTION_FLAGS)[number]> & {
  invoice_allocate_by?: (typeof ALLOCATE_BY)[number] | null;
  billing_address_from?: string | number | Record<string, number> | null;
  markup?: number | null;
  merge_limit?: number | null;
  placeholder_texts?: Partial<Record<(typeof PLACEHOLDERS)[number], string | null>>;
  reconciliation_threshold_flat?: number | null;
  reconciliation_threshold_percentage?: number | null;
  invoicing_email?: string | null;
  session_timeout?: number | null;
};
export type CustomerInput = Flags<(typeof CUSTOMER_FLAGS)[number]> & {
  name?: string | null;
  code?: string | null;
  branding_prefix?: string | null;
  custom_consignment_reference_type?: (typeof REFERENCE_TYPES)[number];
  custom_consignment_reference_label?: string | null;
  special_instructions?: string | null;
  support_email?: string | null;
  delete_consignments?: boolean;
  billing_address?: Partial<Record<(typeof ADDRESS_FIELDS)[number], string | null>> | null;
  options?: CustomerOptionsInput;
  billing_regions?: Partial<Record<(typeof REGIONS)[number], string>>;
};

/**
 * A form post names every field, but an unticked box sends nothing: each flag the form left out
 * is false (a script's PUT, by contrast, leaves out what it does not change).
 */
export function completeFormInput(input: CustomerInput): CustomerInput {
  const out: CustomerInput = { ...input, options: { ...input.options } };
  for (const k of CUSTOMER_FLAGS) out[k] ??= false;
  for (const k of OPTION_FLAGS) out.options![k] ??= false;
  out.delete_consignments ??= false;
  return foldBillingRegions(out);
}

/** billing_address_from REGION_MAP with its region fields (the form's way to say it) as the { region: site id } map stored. */
export function foldBillingRegions(input: CustomerInput): CustomerInput {
  const { billing_regions, ...out } = input;
  if (out.options?.billing_address_from === BY_REGION) {
    const regions = Object.entries(billing_regions ?? {}).filter(([, v]) => /^\d{1,10}$/.test(v ?? ""));
    out.options = { ...out.options, billing_address_from: Object.fromEntries(regions.map(([r, v]) => [r, Number(v)])) };
  }
  return out;
}

/** The rules that tie flags together, applied to the merged record before it is stored. */
export function applyFlagRules<T extends { customer_despatch_enabled: boolean; tracking_despatch_enabled: boolean; options: { send_all_tracking_updates?: boolean } }>(c: T): T {
  // spec 2: customer POD updates and send-all-tracking-updates need customer despatch
  if (c.customer_despatch_enabled) return c;
  return { ...c, tracking_despatch_enabled: false, options: { ...c.options, send_all_tracking_updates: false } };
}

/** Going live: a test account's box unticked. */
export const isGoingLive = (before: { test_account: boolean }, after: { test_account: boolean }) => before.test_account && !after.test_account;

/** The session timeout a customer's users get, in minutes (blank: 720). */
export const effectiveSessionTimeout = (minutes: number | null | undefined) => (typeof minutes === "number" && minutes >= 1 ? minutes : DEFAULT_SESSION_TIMEOUT);

/** POST /api/customers/{id}/custom_references and the reference types form: the ordered list. */
export const customReferencesSchema = z
  .array(
    z.preprocess(
      (v) => (v && typeof v === "object" && "reference" in v ? (v as { reference: unknown }).reference : v),
      z.string({ error: MESSAGES.referenceBlank }).trim().min(1, MESSAGES.referenceBlank).max(REFERENCE_MAX, MESSAGES.referenceTooLong),
    ),
    { error: MESSAGES.referencesBody },
  )
  .max(1000, "At most 1000 references")
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((r, i) => {
      if (seen.has(r)) ctx.addIssue({ code: "custom", path: [i], message: MESSAGES.referenceDuplicate });
      seen.add(r);
    });
  });

/** The references screen's rows with one moved up or down (the list unchanged at an edge). */
export function moveRow<T>(rows: readonly T[], index: number, direction: "up" | "down"): T[] {
  const to = direction === "up" ? index - 1 : index + 1;
  if (index < 0 || index >= rows.length || to < 0 || to >= rows.length) return [...rows];
  const out = [...rows];
  [out[index], out[to]] = [out[to]!, out[index]!];
  return out;
}

/** Rows may be sorted only when they are exactly what is saved (spec 2 section 5). */
export const canSort = (rows: readonly string[], saved: readonly string[]) => rows.length === saved.length && rows.every((r, i) => r === saved[i]);

export const despatchEnabledSchema = z.object({ despatch_enabled: z.boolean({ error: MESSAGES.despatchEnabled }) }, { error: MESSAGES.despatchEnabled });

/** GET /api/customers and the list screen: filter text and status. */
export const customerListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  status: z.enum(["LIVE", "TEST", "DISABLED"], { error: "status must be LIVE, TEST or DISABLED" }).optional(),
});
