import { z } from "zod";
import { COUNTRIES } from "../../../db/schema/rating";
import { boundedJson, JSON_MAX_BYTES } from "../../utils/bounded-json";
import { despatchDate } from "../calendar/dates";

const num = z.coerce.number({ error: "Must be a number" }).finite("Must be a number");
const text = z.string().trim();

/**
 * The spec's numeric limits (spec 1 section 5: quantity, length, width and height up to 4 digits,
 * weight up to 5 characters) as values, so no price is worked out for goods no carrier takes.
 */
export const MAX_QUANTITY = 9999;
export const MAX_DIMENSION = 9999;
export const MAX_WEIGHT = 99999;
export const MAX_ITEM_LINES = 200;
const upTo = (max: number, label: string) => num.max(max, `${label} must be at most ${max}`);

/** One item line of the rating payload (spec 1 section 7). */
export const ratingItemSchema = z.object({
  quantity: upTo(MAX_QUANTITY, "Quantity").int("Must be a whole number").default(0),
  item_type: z.union([z.coerce.number().int(), text]).optional().nullable(),
  item_description: text.optional().nullable(),
  item_options: boundedJson("Item options", z.object({ manual_handling: z.coerce.boolean().optional() }).passthrough()).optional().nullable(),
  length: upTo(MAX_DIMENSION, "Length").default(0),
  width: upTo(MAX_DIMENSION, "Width").default(0),
  height: upTo(MAX_DIMENSION, "Height").default(0),
  /** dead weight of the whole line */
  weight_in_uom: upTo(MAX_WEIGHT, "Weight").default(0),
  dangerous_goods: z.coerce.boolean().default(false),
  dangerous_goods_items: boundedJson("Dangerous goods items", z.array(z.record(z.string(), z.unknown())).max(20, "At most 20 dangerous goods lines"), 4 * JSON_MAX_BYTES).optional().default([]),
  dg_weight_in_uom: upTo(MAX_WEIGHT, "Dangerous goods weight").optional().nullable(),
  som: z.enum(["metric", "imperial"]).optional(),
});

/** A place's locality or postcode: missing, blank or not text, it is the spec's 'Invalid sender locality'. */
const placePart = (side: "sender" | "receiver") => z.string({ error: `Invalid ${side} locality` }).trim().min(1, `Invalid ${side} locality`);

const country = z.enum(COUNTRIES, { error: `Country must be one of ${COUNTRIES.join(", ")}` }).default("AUSTRALIA");
const addressType = z.enum(["business", "residential"]).default("business");

/**
 * POST /api/carrier_selection: the consignment being rated. Address parts are flat
 * (sender_locality, ..., receiver_country); countries as the spec writes them.
 */
export const ratingPayloadSchema = z
  .object({
    despatch_date: despatchDate(),
    site_code: text.min(1, "Site is required"),
    items: z.array(ratingItemSchema).min(1, "Must have quantity").max(MAX_ITEM_LINES, `At most ${MAX_ITEM_LINES} item lines`),
    return_type: z.enum(["return", "third_party"]).optional().nullable(),
    account_payable: z.enum(["sender", "receiver", "transfer"]).optional().nullable(),
    preselected_service_type: text.optional().nullable(),
    preselected_carrier_service: text.optional().nullable(),
    consignment_id: z.coerce.number().int().optional().nullable(),
    warranty: z.coerce.boolean().optional().default(false),
    /** read by the customer's shipping rules only (docs/decisions/040) */
    reference: text.max(255, "Reference is too long (at most 255 characters)").optional().nullable(),
    declared_value: num.min(0, "Declared value must not be negative").max(1e9, "Declared value is too large").optional().nullable(),
    sender_locality: placePart("sender"),
    sender_postcode: placePart("sender"),
    sender_region: text.optional().nullable(),
    sender_sublocality: text.optional().nullable(),
    sender_country: country,
    sender_address_type: addressType,
    receiver_locality: placePart("receiver"),
    receiver_postcode: placePart("receiver"),
    receiver_region: text.optional().nullable(),
    receiver_sublocality: text.optional().nullable(),
    receiver_country: country,
    receiver_address_type: addressType,
  })
  .superRefine((p, ctx) => {
    // spec 1 section 5: the hints the screen shows when rating cannot start
    if (!(p.items[0]!.quantity > 0)) ctx.addIssue({ code: "custom", path: ["items", 0, "quantity"], message: "Must have quantity" });
    p.items.forEach((item, i) => {
      if (!(item.weight_in_uom > 0)) ctx.addIssue({ code: "custom", path: ["items", i, "weight_in_uom"], message: "Must have weight" });
      if (i > 0 && !(item.quantity > 0)) ctx.addIssue({ code: "custom", path: ["items", i, "quantity"], message: "Must have quantity" });
      for (const dim of ["length", "width", "height"] as const) {
        if (!(item[dim] > 0)) ctx.addIssue({ code: "custom", path: ["items", i, dim], message: `Must have ${dim}` });
      }
    });
  });

export type RatingPayload = z.infer<typeof ratingPayloadSchema>;
