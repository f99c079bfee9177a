/**
 * The consignment as callers send it (spec 1 section 3): the /api JSON body and, after the form
 * is read into the same shape, the screen's post. Limits here are the spec's hard limits; what
 * a consignment still lacks (no receiver, no rate) is not an input error but leaves it `open`
 * with its `errors` listed (see consignments.server.ts).
 */
import { z } from "zod";
import { COUNTRIES } from "../../../db/schema/rating";
import { boundedJson } from "../../utils/bounded-json";
import { despatchDate, localDateTime } from "../calendar/dates";

const trimmed = z.string().trim();
/** optional text: blank becomes null, longer than `max` is refused */
const optionalText = (max: number, label: string) =>
  z
    .union([trimmed.max(max, `${label} is too long (maximum is ${max} characters)`), z.null()])
    .optional()
    .transform((v) => (v ? v : null));

/** true/false as JSON or as form text ("true", "on"); z.coerce.boolean would read "false" as true */
export const bool = z
  .union([z.boolean(), z.enum(["true", "false", "on", "1", "0", ""])])
  .optional()
  .transform((v) => v === true || v === "true" || v === "on" || v === "1");

/** Quantity, length, width and height: whole numbers of up to 4 digits. */
const fourDigits = (label: string) =>
  z.union([z.number(), trimmed, z.null()]).optional().transform((v, ctx) => {
    const s = String(v ?? "").trim();
    if (s === "") return 0;
    if (!/^\d{1,4}$/.test(s)) {
      ctx.addIssue({ code: "custom", message: `${label} must be a whole number of up to 4 digits` });
      return z.NEVER;
    }
    return Number(s);
  });

/** Weight: up to 5 characters of digits and one dot (cleaning happens in the grid). */
const weight = z.union([z.number(), trimmed, z.null()]).optional().transform((v, ctx) => {
  const s = v == null ? "" : String(v).trim();
  if (s === "") return 0;
  if (s.length > 5 || !/^\d*\.?\d*$/.test(s) || !Number.isFinite(Number(s))) {
    ctx.addIssue({ code: "custom", message: "Weight must be a number of up to 5 characters" });
    return z.NEVER;
  }
  return Number(s);
});

export const ADDRESS_TYPES = ["business", "residential"] as const;

export const addressSchema = z.object({
  id: z.coerce.number().int().positive().optional().nullable(),
  name: trimmed.min(1, "Name is required").max(255, "Name is too long (maximum is 255 characters)"),
  code: optionalText(255, "Code"),
  address_line_1: optionalText(255, "Address line 1"),
  address_line_2: optionalText(255, "Address line 2"),
  address_line_3: optionalText(255, "Address line 3"),
  address_line_4: optionalText(255, "Address line 4"),
  sublocality: optionalText(255, "Sublocality"),
  locality: optionalText(255, "Locality"),
  region: optionalText(20, "Region"),
  postcode: z
    .union([trimmed.regex(/^\d{4,5}$/, "Postcode must be 4 or 5 digits"), z.literal(""), z.null()])
    .optional()
    .transform((v) => v || null),
  country: z.enum(COUNTRIES, { error: `Country must be one of ${COUNTRIES.join(", ")}` }).default("AUSTRALIA"),
  phone: z
    .union([trimmed.max(30, "Phone is too long (maximum is 30 characters)").regex(/^[\d +()-]*$/, "Phone may hold digits, spaces, +, ( ) and - only"), z.null()])
    .optional()
    .transform((v) => v || null),
  email: z
    .union([trimmed.max(255).email("Email is not a valid e-mail address"), z.literal(""), z.null()])
    .optional()
    .transform((v) => v || null),
  address_type: z.enum(ADDRESS_TYPES, { error: "Address type must be business or residential" }).default("business"),
  special_instructions: optionalText(80, "Special instructions"),
});
export type AddressInput = z.infer<typeof addressSchema>;

export const dangerousGoodsLineSchema = z.object({
  un_number: optionalText(10, "UN number"),
  proper_shipping_name: optionalText(255, "Proper shipping name"),
  technical_name: optionalText(255, "Technical name"),
  hazard_class: optionalText(6, "Class"),
  packing_group: optionalText(6, "Packing group"),
  sub_hazard: optionalText(6, "Sub risk"),
  weight_in_uom: weight,
  nos: bool,
});

export const itemSchema = z.object({
  quantity: fourDigits("Quantity"),
  item_type_id: z.union([z.coerce.number().int().positive(), z.literal(""), z.null()]).optional().transform((v) => (v ? Number(v) : null)),
  reference: optionalText(255, "Reference"),
  length: fourDigits("Length"),
  width: fourDigits("Width"),
  height: fourDigits("Height"),
  weight_in_uom: weight,
  consolidated: bool,
  dangerous_goods_items: z.array(dangerousGoodsLineSchema).max(20).default([]),
});
export type ItemInput = z.infer<typeof itemSchema>;

/** A local date-time (YYYY-MM-DD HH:mm) that exists on the calendar and the clock; blank is none. */
const dateTime = (label: string) =>
  z
    .preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), localDateTime(label).nullable().optional())
    .transform((v) => v ?? null);

/** Pickup information of a return or third-party pickup (spec 1 section 3 "Return info"). */
export const returnInfoSchema = z
  .object({
    // pickup times: YYYY-MM-DD HH:mm (spec 1 section 9)
    ready_at: dateTime("Ready time"),
    closing_at: dateTime("Closing time"),
    contact_name: optionalText(255, "Contact name"),
    // digits and spaces only; land lines must include the area code
    phone_number: z
      .union([trimmed.max(30, "Phone number is too long (maximum is 30 characters)"), z.null()])
      .optional()
      .transform((v) => (v ? v.replace(/[^\d ]/g, "").trim() || null : null)),
    pickup_location: optionalText(255, "Pickup location"),
    email: z
      .union([trimmed.max(255).email("Email is not a valid e-mail address"), z.literal(""), z.null()])
      .optional()
      .transform((v) => v || null),
    email_body: optionalText(4000, "Additional notes"),
  })
  .superRefine((r, ctx) => {
    if (r.ready_at && r.closing_at && r.closing_at <= r.ready_at) ctx.addIssue({ code: "custom", path: ["closing_at"], message: "Closing time must be after the ready time" });
  });
export type ReturnInfoInput = z.infer<typeof returnInfoSchema>;

export const consignmentInputSchema = z.object({
  /** the version the caller read; required to update (optimistic locking) */
  version: z.coerce.number().int().positive().optional(),
  site_code: trimmed.min(1, "Site is required").optional(),
  site_id: z.coerce.number().int().positive().optional(),
  reference: optionalText(255, "Reference"),
  custom_reference: optionalText(4000, "Custom reference"),
  // the past is checked at the site by the module (a saved consignment may keep a date that has passed)
  despatch_date: z
    .union([z.literal(""), z.null(), despatchDate({ allowPast: true })])
    .optional()
    .transform((v) => v || null),
  account_payable: z.enum(["sender", "receiver", "transfer"], { error: "Account payable must be sender, receiver or transfer" }).default("sender"),
  charge_account: optionalText(30, "Receiver account"),
  special_instructions: optionalText(80, "Special instructions"),
  special_requirements: optionalText(200, "Special requirements"),
  sender_address: addressSchema.nullable().optional(),
  receiver_address: addressSchema.nullable().optional(),
  items: z.array(itemSchema).max(200, "At most 200 item lines").default([]),
  /** the chosen rate; without one the selection rules choose (preselected, else cheapest) */
  carrier_code: optionalText(50, "Carrier"),
  service_code: optionalText(50, "Service"),
  preselected_carrier_service: optionalText(100, "Preselected carrier service"),
  preselected_service_type: optionalText(50, "Preselected service type"),
  pickup_at: dateTime("Pickup time"),
  deliver_by: dateTime("Deliver-by time"),
  deliver_at: dateTime("Delivery time"),
  options: boundedJson("Options", z.record(z.string(), z.unknown())).optional(),
  /** returns and third-party pickups only */
  return_info: returnInfoSchema.nullable().optional(),
});
export type ConsignmentInput = z.infer<typeof consignmentInputSchema>;

/** PUT /api/consignments/{id}/update_despatched_consignment: the charge account alone, with the version. */
export const chargeAccountSchema = z.object({
  version: z.coerce.number().int().positive({ error: "Version is required" }),
  charge_account: optionalText(30, "Receiver account"),
});
