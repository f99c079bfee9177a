/**
 * Carriers, their services and their carrier account validations as staff keep them (issue 17
 * items 1 to 3; spec 2 sections 3, 5 and 8): the schemas the screens and the /api calls share, the
 * spec's messages and the choices of each select. Pure, so the browser bundle may use it too.
 */
import { z } from "zod";
import type { AdapterKind } from "./adapters.server";
import { flag } from "../users/admin";
import { TRANSPORT_MODES } from "../../../db/schema/carriers";
import { VALIDATION_FIELD_TO_ACCOUNT, always, type ValidationField } from "../customers/accounts";

export const CARRIER_MESSAGES = {
  saved: "Carrier was saved.",
  notSaved: "The carrier was not saved: please correct the fields marked.",
  notFound: "Carrier not found",
  deleted: "Carrier was deleted.",
  codeTaken: "Code has already been taken",
  exclusive: "A carrier cannot be both generic and an app carrier",
  confirmAppCarrier: "An app carrier overrides any integration: tick Confirm to make this carrier an app carrier",
  confirmRename: "Changing the code renames it everywhere it is used: tick Confirm to change it",
  usedElsewhere: "Carrier cannot be deleted while other records (bookings) use it",
  inUse: (accounts: number, consignments: number) =>
    `Carrier cannot be deleted while it is used by ${accounts} carrier account${accounts === 1 ? "" : "s"} and ${consignments} consignment${consignments === 1 ? "" : "s"}`,
} as const;

export const SERVICE_MESSAGES = {
  saved: "service was saved.",
  notSaved: "The service was not saved: please correct the fields marked.",
  notFound: "Service not found",
  codeTaken: "Code has already been taken for this carrier",
  inUse: "Service cannot be deleted while consignments or carrier accounts use it",
} as const;

export const VALIDATION_MESSAGES = {
  saved: "Validation was saved.",
  notSaved: "The validation was not saved: please correct the fields marked.",
  notFound: "Carrier account validation not found",
  lengthNumber: "A length rule takes whole numbers (comma separated for one of)",
  oneValue: "An equal modifier takes one value: use 'in' for a comma separated list",
} as const;

export const RENAME_MESSAGES = {
  nothing: "Give a new carrier code or a new service code",
  carrierUnknown: "No carrier has this code",
  serviceUnknown: "This carrier has no service with this code",
} as const;

/** The adapters a carrier may use (adapters.server.ts picks by carriers.options.adapter). */
export const ADAPTER_KINDS = ["generic", "simulated", "auspost"] as const satisfies readonly AdapterKind[];
export const ADAPTER_LABELS: Record<AdapterKind, string> = {
  generic: "Generic (manifest locally, cancel by e-mail)",
  simulated: "Simulated carrier (demo tracking, can be told to fail)",
  auspost: "Australia Post",
};

export const SERVICE_TYPES = ["general", "overnight", "rail", "road", "sameday"] as const;

/** A carrier's and a service's code names it in rate cards, zones and "CARRIER:SERVICE" keys, so no colon or space. */
const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const codeField = (max: number) =>
  z.preprocess(
    (v) => (typeof v === "string" ? v.trim() : v),
    z
      .string({ error: "Code is required" })
      .min(1, "Code is required")
      .max(max, `Code is too long (at most ${max} characters)`)
      .regex(CODE_PATTERN, "Code may hold letters, digits, '.', '_' and '-' only"),
  );
const required = (label: string, max = 255) =>
  z.preprocess((v) => (typeof v === "string" ? v.trim() : v), z.string({ error: `${label} is required` }).min(1, `${label} is required`).max(max, `${label} is too long (at most ${max} characters)`));
const optionalText = (max = 255) =>
  z.preprocess((v) => (v === "" || v === null ? null : typeof v === "string" ? v.trim() || null : v), z.string().max(max, `Too long (at most ${max} characters)`).nullable().default(null));
const optionalEmail = z.preprocess((v) => (v === "" || v === null ? null : typeof v === "string" ? v.trim() || null : v), z.string().email("Please enter a valid e-mail address").max(255).nullable().default(null));
const optionalUrl = z.preprocess(
  (v) => (v === "" || v === null ? null : typeof v === "string" ? v.trim() || null : v),
  z.string().max(500).regex(/^https?:\/\/\S+$/i, "Please enter a web address starting with http:// or https://").nullable().default(null),
);
const off = flag.default(false);
/** Checkboxes: absent (unticked) is off. */
const flags = <K extends string>(keys: readonly K[]) => Object.fromEntries(keys.map((k) => [k, off])) as Record<K, typeof off>;

/** The carrier's checkboxes of spec 2 section 3 kept in their own columns. */
export const CARRIER_COLUMN_FLAGS = [
  "generic",
  "app_carrier",
  "pay_on_arrival",
  "print_consignments",
  "manifest_barcode",
  "auto_book",
  "api_track_and_trace",
  "gs1_compliant",
  "pickup_at",
  "deliver_by",
  "deliver_at",
] as const;
/** ... and those kept in carriers.options (the table has no column of their own). */
export const CARRIER_OPTION_FLAGS = ["enabled_for_branch_transfer", "enabled_for_receiver_pays", "pre_despatch", "resend_allowed", "consignment_number_as_sscc", "each_item_separate_dg"] as const;
export const CARRIER_FLAGS = [...CARRIER_COLUMN_FLAGS, ...CARRIER_OPTION_FLAGS] as const;
export type CarrierFlag = (typeof CARRIER_FLAGS)[number];

export const CARRIER_FLAG_LABELS: Record<CarrierFlag, string> = {
  generic: "Generic",
  app_carrier: "App carrier",
  pay_on_arrival: "Pay on arrival",
  print_consignments: "Print consignments",
  manifest_barcode: "Manifest barcode",
  auto_book: "Auto book",
  api_track_and_trace: "API track and trace",
  gs1_compliant: "GS1 compliant",
  pickup_at: "Pickup at (timeslot)",
  deliver_by: "Deliver by (timeslot)",
  deliver_at: "Deliver at (timeslot)",
  enabled_for_branch_transfer: "Enabled for branch transfer",
  enabled_for_receiver_pays: "Enabled for receiver pays",
  pre_despatch: "Pre despatch",
  resend_allowed: "Resend allowed",
  consignment_number_as_sscc: "Consignment number as SSCC",
  each_item_separate_dg: "Each item separate DG",
};

/** The carrier form and its /api body; `rates_service_key` is the spec's name of `code`. */
export const carrierSchema = z
  .object({
    name: required("Name", 100),
    code: codeField(30),
    web_url: optionalUrl,
    default_email: optionalEmail,
    note: optionalText(2000),
    adapter: z.enum(ADAPTER_KINDS, { error: "Please choose one of the adapters" }).default("generic"),
    ...flags(CARRIER_FLAGS),
  })
  .superRefine((v, ctx) => {
    if (v.generic === true && v.app_carrier === true) ctx.addIssue({ code: "custom", path: ["app_carrier"], message: CARRIER_MESSAGES.exclusive });
  }, always);
export type CarrierInput = z.infer<typeof carrierSchema>;

export interface CarrierJson extends Record<CarrierFlag, boolean> {
  id: number;
  name: string;
  code: string;
  rates_service_key: string;
  web_url: string | null;
  default_email: string | null;
  note: string | null;
  adapter: AdapterKind;
  services_count: number;
  accounts_count: number;
  consignments_count: number;
  /** spec 2 "services_pay_on_arrival_status_info": how many of its services rate as "No Rates Provided" */
  services_pay_on_arrival: number;
}

export const SERVICE_FLAGS = ["pay_on_arrival", "dangerous_goods_prohibited", "pickup_at", "deliver_by", "deliver_at", "merging_enabled", "eligible_for_outbounds", "eligible_for_returns", "despatch_booking"] as const;
export type ServiceFlag = (typeof SERVICE_FLAGS)[number];
export const SERVICE_FLAG_LABELS: Record<ServiceFlag, string> = {
  pay_on_arrival: "No Rates Provided",
  dangerous_goods_prohibited: "Dangerous goods prohibited",
  pickup_at: "Pickup at (timeslot)",
  deliver_by: "Deliver by (timeslot)",
  deliver_at: "Deliver at (timeslot)",
  merging_enabled: "Merging enabled",
  eligible_for_outbounds: "Eligible for outbounds",
  eligible_for_returns: "Eligible for returns",
  despatch_booking: "Despatch booking",
};

/** The service form and its /api body. */
export const serviceSchema = z.object({
  code: codeField(30),
  name: required("Name", 100),
  type: z.enum(SERVICE_TYPES, { error: "Please choose a type" }).default("general"),
  /** how its freight travels: the emission factor's mode (docs/decisions/041) */
  // a form without the field (blank) keeps the default, as an /api body without it does
  transport_mode: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(TRANSPORT_MODES, { error: `Transport mode must be one of ${TRANSPORT_MODES.join(", ")}` }).default("road")),
  group: optionalText(100),
  support_email: optionalEmail,
  route_code: optionalText(50),
  service_name_by_carrier: optionalText(100),
  service_code_by_carrier: optionalText(50),
  ...flags(SERVICE_FLAGS),
});
export type ServiceInput = z.infer<typeof serviceSchema>;
export type ServiceJson = ServiceInput & { id: number; carrier_id: number; carrier_code: string };

export const VALIDATION_FIELDS = Object.keys(VALIDATION_FIELD_TO_ACCOUNT) as ValidationField[];
export const VALIDATION_RULES = ["start_with", "end_with", "be", "length"] as const;
export const VALIDATION_MODIFIERS = ["equal", "in"] as const;

/** A carrier account validation: values are case sensitive, comma separated for `in`; length takes whole numbers. */
export const validationSchema = z
  .object({
    field: z.enum(VALIDATION_FIELDS as [ValidationField, ...ValidationField[]], { error: "Please choose a field" }),
    rule: z.enum(VALIDATION_RULES, { error: "Please choose a rule" }),
    modifier: z.enum(VALIDATION_MODIFIERS, { error: "Please choose a modifier" }),
    // not trimmed inside: the values are case and space sensitive, only the ends are cut
    validation: required("Values", 1000),
    message: required("Message", 255),
  })
  .superRefine((v, ctx) => {
    if (typeof v.validation !== "string") return;
    if (v.modifier === "equal" && v.validation.includes(",")) ctx.addIssue({ code: "custom", path: ["validation"], message: VALIDATION_MESSAGES.oneValue });
    const values = v.modifier === "in" ? v.validation.split(",").map((s) => s.trim()) : [v.validation];
    if (v.rule === "length" && values.some((s) => !/^\d+$/.test(s))) ctx.addIssue({ code: "custom", path: ["validation"], message: VALIDATION_MESSAGES.lengthNumber });
  }, always);
export type ValidationInput = z.infer<typeof validationSchema>;
export type ValidationJson = ValidationInput & { id: number; carrier_id: number; carrier_code: string };

/** PUT /api/update_accounts_carrier_and_service_code/: the carrier (by its code now) and the new codes. */
export const renameSchema = z
  .object({
    carrier_code: codeField(30),
    new_carrier_code: codeField(30).optional(),
    service_code: codeField(30).optional(),
    new_service_code: codeField(30).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.new_carrier_code && !v.new_service_code) ctx.addIssue({ code: "custom", path: ["base"], message: RENAME_MESSAGES.nothing });
    if (v.new_service_code && !v.service_code) ctx.addIssue({ code: "custom", path: ["service_code"], message: "Give the service's current code" });
  });
export type RenameInput = z.infer<typeof renameSchema>;
