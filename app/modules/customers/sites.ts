/**
 * Sites of a customer (issue 16 item 2; spec 2 "Site"): the one schema the site screen and
 * /api/customers/{id}/sites validate with, and its messages. Pure, so the browser may use it too.
 */
import { z } from "zod";
import { COUNTRY_LABELS } from "../localities/places";
import { always } from "./accounts";

const COUNTRIES = COUNTRY_LABELS.map(([c]) => c) as unknown as readonly ["AUSTRALIA", "NEW ZEALAND", "UNITED STATES OF AMERICA"];

export const SITE_MESSAGES = {
  saved: "Site was saved.",
  failed: "The site was not saved: please correct the fields marked.",
  deleted: "Site was deleted.",
  notFound: "Site not found",
  codeRequired: "Code is required",
  codeTaken: "Code is already used by another site of this customer",
  nameRequired: "Name is required",
  time: "Please choose a time (HH:mm)",
  closingBeforeOpening: "Closing time must be after opening time",
  timezone: "Please choose a time zone",
  som: "Unit of measurement must be metric or imperial",
} as const;

export const PLACEHOLDER_KEYS = ["reference", "custom_reference", "receiver_account", "special_instructions"] as const;

/** Every IANA zone this runtime knows (the select's choices; the server checks against the same list). */
export function timeZones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const zones = intl.supportedValuesOf?.("timeZone") ?? [];
  return zones.includes("UTC") ? zones : [...zones, "UTC"];
}

const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const text = (max = 255) => z.preprocess(blankToUndefined, z.string().trim().max(max, `Too long (at most ${max} characters)`).optional());
const flag = z.preprocess((v) => (v === "on" || v === "true" ? true : v === "false" ? false : v), z.boolean({ error: "Must be true or false" }));
const time = z.preprocess(blankToUndefined, z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, SITE_MESSAGES.time).optional());

/** The postal part of an address, shared by the site's address and its billing address. */
const postalSchema = z.object({
  name: text(),
  address_line_1: text(),
  address_line_2: text(),
  address_line_3: text(),
  address_line_4: text(),
  sublocality: text(),
  locality: text(),
  postcode: z.preprocess(blankToUndefined, z.string().trim().regex(/^\d{4,5}$/, "Postcode must be 4 or 5 digits").optional()),
  region: text(20),
  country: z.enum(COUNTRIES, { error: `Country must be one of ${COUNTRIES.join(", ")}` }).default("AUSTRALIA"),
});

export const siteAddressSchema = postalSchema.extend({
  address_type: z.enum(["business", "residential"]).default("business"),
  phone: text(30),
  email: z.preprocess(blankToUndefined, z.string().trim().email("Please enter a valid e-mail address").max(255).optional()),
});

export const billingAddressSchema = postalSchema;

/** The site form and its /api body (absent keys keep what is stored on a change: the module merges first). */
export const siteSchema = z
  .object({
    code: z.string({ error: SITE_MESSAGES.codeRequired }).trim().min(1, SITE_MESSAGES.codeRequired).max(50, "Code is too long (at most 50 characters)"),
    name: z.string({ error: SITE_MESSAGES.nameRequired }).trim().min(1, SITE_MESSAGES.nameRequired).max(255, "Name is too long (at most 255 characters)"),
    address: siteAddressSchema.default({ address_type: "business", country: "AUSTRALIA" }),
    som: z.enum(["metric", "imperial"], { error: SITE_MESSAGES.som }).default("metric"),
    opening_time: time,
    closing_time: time,
    timezone: z.preprocess(blankToUndefined, z.string().refine((z) => timeZones().includes(z), SITE_MESSAGES.timezone).optional()),
    despatch_enabled: flag.default(true),
    dg_contact_name: text(),
    dg_contact_phone: text(30),
    cs_phone_number: text(30),
    chep_account: text(50),
    loscam_account: text(50),
    billing_address: z.preprocess((v) => v ?? undefined, billingAddressSchema.optional()),
    site_options: z
      .object({
        different_billing_address: flag.default(false),
        placeholder_texts: z.object(Object.fromEntries(PLACEHOLDER_KEYS.map((k) => [k, text(255)])) as Record<(typeof PLACEHOLDER_KEYS)[number], ReturnType<typeof text>>).default({}),
      })
      .default({ different_billing_address: false, placeholder_texts: {} }),
  })
  .superRefine((v, ctx) => {
    const times = [v?.opening_time, v?.closing_time];
    if (times.every((t) => typeof t === "string" && /^\d\d:\d\d$/.test(t)) && times[1]! <= times[0]!) ctx.addIssue({ code: "custom", path: ["closing_time"], message: SITE_MESSAGES.closingBeforeOpening });
  }, always);
export type SiteInput = z.infer<typeof siteSchema>;

/** The sites list's filter box, from the URL or the query. */
export const siteListQuery = z.object({ filter: z.string().trim().max(100).optional() });
