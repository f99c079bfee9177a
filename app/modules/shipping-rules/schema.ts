/**
 * Shipping rules (issue 34 item 2, docs/decisions/040): the shapes of a rule's conditions and
 * actions, checked by field. Pure (the screen's form reads the messages too).
 */
import { z } from "zod";
import { COUNTRIES } from "../../../db/schema/rating";
import { boundedJson } from "../../utils/bounded-json";

export const MAX_RULES_PER_CUSTOMER = 200;
/** conditions and actions together, as JSON: a rule is a few hundred bytes, so 16 KB is generous */
export const RULE_JSON_MAX_BYTES = 16_384;
export const NAME_MAX = 100;
export const SPECIAL_INSTRUCTIONS_MAX = 80;
export const PATTERN_MAX = 100;
const LIST_MAX = 50;

export const MESSAGES = {
  notFound: "Shipping rule not found",
  tooMany: `A customer may have at most ${MAX_RULES_PER_CUSTOMER} shipping rules`,
  range: "Minimum must not be more than maximum",
  unknownService: "Unknown carrier service",
  unknownCarrier: "Unknown carrier",
  site: "Site must be one of the customer's sites",
  itemType: "Item type must be one of the customer's item types",
  ids: "Ids must be the customer's shipping rules",
  useAndChoose: "Choose either one service or a set, not both",
  excludedChoice: "A service of an excluded carrier cannot be chosen",
  pattern: `Reference pattern may use letters, digits, spaces, - _ / . # and the wildcards * and ? (at most ${PATTERN_MAX} characters)`,
} as const;

const num = z.coerce.number({ error: "Must be a number" }).finite("Must be a number").min(0, "Must not be negative").max(1e9, "Too large");

/** min..max, either end open; an impossible range (min > max) is refused on its own field */
const range = z
  .object({ min: num.optional().nullable(), max: num.optional().nullable() })
  .refine((r) => r.min == null || r.max == null || r.min <= r.max, { message: MESSAGES.range, path: ["min"] });
export type Range = z.infer<typeof range>;

const code = z.string().trim().min(1, "Must not be blank").max(40, "At most 40 characters");
/** a service as the rate shop names it: "CARRIER:SERVICE" */
export const serviceKeySchema = z
  .string()
  .trim()
  .regex(/^[^:\s]{1,40}:[^:\s]{1,40}$/, "Name a service as CARRIER:SERVICE");

/**
 * The reference pattern: a glob (`*` any run, `?` one character) over a safe alphabet, matched
 * without regular expressions (glob.ts), so no pattern can backtrack catastrophically.
 */
const pattern = z
  .string()
  .trim()
  .min(1, MESSAGES.pattern)
  .max(PATTERN_MAX, MESSAGES.pattern)
  .regex(/^[A-Za-z0-9 _\-/.#*?]+$/, MESSAGES.pattern);

const postcodeRange = z
  .object({ from: z.string().trim().min(1, "Must not be blank").max(10, "At most 10 characters"), to: z.string().trim().max(10, "At most 10 characters").optional().nullable() })
  .refine((r) => !r.to || comparePostcodes(r.from, r.to) <= 0, { message: "From must not be after to", path: ["from"] });

export const conditionsSchema = z
  .object({
    postcodes: z.array(postcodeRange).max(LIST_MAX, `At most ${LIST_MAX} postcode ranges`).optional(),
    regions: z.array(z.string().trim().min(1).max(40)).max(LIST_MAX, `At most ${LIST_MAX} regions`).optional(),
    countries: z.array(z.enum(COUNTRIES, { error: `Country must be one of ${COUNTRIES.join(", ")}` })).max(LIST_MAX).optional(),
    address_type: z.enum(["business", "residential"], { error: "Address type must be business or residential" }).optional().nullable(),
    dead_weight: range.optional().nullable(),
    cubic_weight: range.optional().nullable(),
    item_count: range.optional().nullable(),
    declared_value: range.optional().nullable(),
    item_types: z.array(z.coerce.number().int().positive()).max(LIST_MAX, `At most ${LIST_MAX} item types`).optional(),
    dangerous_goods: z.boolean({ error: "Dangerous goods must be yes or no" }).optional().nullable(),
    reference: pattern.optional().nullable(),
  })
  .strict();
export type Conditions = z.infer<typeof conditionsSchema>;

export const actionsSchema = z
  .object({
    /** this service */
    use: serviceKeySchema.optional().nullable(),
    /** the cheapest or the fastest of these services */
    choose: z.object({ by: z.enum(["cheapest", "fastest"], { error: "Choose by cheapest or fastest" }), services: z.array(serviceKeySchema).min(1, "Name at least one service").max(LIST_MAX) }).optional().nullable(),
    exclude_carriers: z.array(code).max(LIST_MAX).optional(),
    special_instructions: z.string().trim().max(SPECIAL_INSTRUCTIONS_MAX, `Special instructions are too long (at most ${SPECIAL_INSTRUCTIONS_MAX} characters)`).optional().nullable(),
    authority_to_leave: z.boolean().optional().nullable(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.use && a.choose) ctx.addIssue({ code: "custom", path: ["choose"], message: MESSAGES.useAndChoose });
    const excluded = new Set((a.exclude_carriers ?? []).map((c) => c.toLowerCase()));
    const carrierOf = (key: string) => key.split(":")[0]!.toLowerCase();
    if (a.use && excluded.has(carrierOf(a.use))) ctx.addIssue({ code: "custom", path: ["use"], message: MESSAGES.excludedChoice });
    a.choose?.services.forEach((s, i) => {
      if (excluded.has(carrierOf(s))) ctx.addIssue({ code: "custom", path: ["choose", "services", i], message: MESSAGES.excludedChoice });
    });
  });
export type Actions = z.infer<typeof actionsSchema>;

export const ruleSchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(NAME_MAX, `Name is too long (at most ${NAME_MAX} characters)`),
  site_id: z.coerce.number().int().positive().optional().nullable(),
  active: z.boolean().optional().default(true),
  conditions: boundedJson("Conditions", conditionsSchema, RULE_JSON_MAX_BYTES).optional().default({}),
  actions: boundedJson("Actions", actionsSchema, RULE_JSON_MAX_BYTES).optional().default({}),
});
export type RuleInput = z.infer<typeof ruleSchema>;

export const sequenceSchema = z.object({
  ids: z.array(z.coerce.number({ error: MESSAGES.ids }).int(MESSAGES.ids).positive(MESSAGES.ids).max(2_147_483_647, MESSAGES.ids), { error: MESSAGES.ids }).min(1, MESSAGES.ids).max(MAX_RULES_PER_CUSTOMER, MESSAGES.ids),
});

/** A rule as /api answers it. */
export interface RuleJson {
  id: number;
  customer_id: number;
  site_id: number | null;
  position: number;
  name: string;
  active: boolean;
  conditions: Conditions;
  actions: Actions;
}

/** Numeric postcodes compare as numbers (0800 < 2000), others as text: ranges of either work. */
export function comparePostcodes(a: string, b: string): number {
  const x = a.trim().toUpperCase();
  const y = b.trim().toUpperCase();
  if (/^\d+$/.test(x) && /^\d+$/.test(y)) return Number(x) - Number(y);
  return x < y ? -1 : x > y ? 1 : 0;
}
