/**
 * The consignment information view (spec 2 sections 2, 3 and 5): what the screen's modal, the
 * page without JavaScript and the /api calls share. Plain module: the browser uses it too.
 */
import { z } from "zod";
import { CONSIGNMENT_STATES } from "../../../db/schema/consignments";
import { despatchDate } from "../calendar/dates";

/** Fields a super admin may correct in every environment (docs/decisions: consignment information). */
export const EDITABLE_FIELDS = [
  "consignment_number",
  "reference",
  "custom_reference",
  "despatch_date",
  "estimated_delivery_date",
  "special_instructions",
  "charge_account",
  "active",
] as const;
export type EditableField = (typeof EDITABLE_FIELDS)[number];

/** The QA-only field: the state set to any value, past the state machine; qa and uat only. */
export const QA_FIELDS = ["state"] as const;
export const QA_ENVIRONMENTS = ["qa", "uat"] as const;
export const qaEditsAllowed = (appEnv: string) => (QA_ENVIRONMENTS as readonly string[]).includes(appEnv);

/** The field/value table's labels (the spec's names, read as words). */
export const fieldLabel = (field: string) => field.replace(/\./g, " ").replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

/** Saving is blocked this long after an attempt (spec 2 section 5). */
export const SAVE_BLOCK_MS = 5000;

export const MESSAGES = {
  saved: "Consignment information was saved.",
  blocked: "Please wait 5 seconds before saving this consignment again.",
  qaOnly: "The state can be edited only in the qa or uat environments.",
  nothing: "Nothing was changed.",
} as const;

/** The documents Download Files offers, each only where it applies. */
export const DOCUMENT_TYPES = ["labels", "connote", "dangerous_goods", "manifest"] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export const DOCUMENT_NAMES: Record<DocumentType, string> = {
  labels: "Labels",
  connote: "Consignment note",
  dangerous_goods: "Dangerous goods document",
  manifest: "Despatch manifest",
};

/** Why Download Files has no such document (GET /api/retrieve_file answers 404 with it). */
export const NOT_AVAILABLE: Record<DocumentType, string> = {
  labels: "Labels have not been printed for this consignment.",
  connote: "This consignment has no consignment note: its carrier does not use one, or it has no number yet.",
  dangerous_goods: "This consignment has no dangerous goods document: it carries no dangerous goods, or it has no number yet.",
  manifest: "This consignment has not been manifested yet.",
};

const trimmed = z.string().trim();
/** absent: unchanged; blank or null: cleared; longer than `max`: refused */
const text = (max: number, label: string) =>
  z
    .union([trimmed.max(max, `${label} is too long (maximum is ${max} characters)`), z.null()])
    .transform((v) => v || null)
    .optional();
const date = (label: string) =>
  z
    .union([z.literal(""), z.null(), z.iso.date({ error: `${label} must be a date (YYYY-MM-DD)` })])
    .transform((v) => v || null)
    .optional();

/**
 * PUT /api/consignments/{id} { superadmin: true, version, ...fields } and the page's Info Save:
 * the fields given replace the consignment's own, those left out keep theirs.
 */
export const superadminUpdateSchema = z.object({
  version: z.coerce.number({ error: "Version is required" }).int("Version is required").positive("Version is required"),
  consignment_number: z
    .union([trimmed.max(40, "Consignment number is too long (maximum is 40 characters)").regex(/^[A-Za-z0-9-]*$/, "Consignment number may hold letters, digits and dashes only"), z.null()])
    .transform((v) => v || null)
    .optional(),
  reference: text(255, "Reference"),
  custom_reference: text(4000, "Custom reference"),
  despatch_date: z
    .union([z.literal(""), z.null(), despatchDate({ allowPast: true })])
    .transform((v) => v || null)
    .optional(),
  estimated_delivery_date: date("Estimated delivery date"),
  special_instructions: text(80, "Special instructions"),
  charge_account: text(30, "Receiver account"),
  active: z
    .union([z.boolean(), z.enum(["true", "false"], { error: "Active must be true or false" })])
    .transform((v) => v === true || v === "true")
    .optional(),
  state: z.enum(CONSIGNMENT_STATES, { error: "State must be one of the consignment states" }).optional(),
});
export type SuperadminUpdate = z.infer<typeof superadminUpdateSchema>;

/** A change of the history tables, as /api answers it. */
export interface ChangeJson {
  version: number;
  field: string;
  from: string | null;
  to: string | null;
  by: string | null;
  at: string;
  item_id?: number | null;
}

/** GET /api/consignment_information?id */
export interface InformationJson {
  id: number;
  version: number;
  /** the field/value table, in the spec's order, values as text */
  fields: Array<{ field: string; value: string | null }>;
  /** what the edit form starts from (the fields a super admin may edit) */
  values: Record<string, string | boolean | null>;
  site: { id: number; code: string; name: string; customer_id: number; href: string };
  /** its own screen (a return's, a quote's...): where Close leads without JavaScript */
  screen: string;
  documents: Array<{ type: DocumentType; name: string; href: string }>;
  can_edit: boolean;
  editable_fields: string[];
  states: readonly string[];
  time_zone: string | null;
  country: string;
}
