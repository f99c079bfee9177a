/**
 * Allocation rules (spec 3 "Allocation rule", issue 18 item 5): the shapes the screen, the /api
 * calls and the mapping CSV share, and the spec's messages.
 */
import { z } from "zod";

export const ALLOCATION_MODELS = ["Customer", "Site", "CarrierService"] as const;
export type AllocationModel = (typeof ALLOCATION_MODELS)[number];
export const RULE_TYPES = ["Mapping", "Lookup"] as const;

/** The invoice line fields a rule may read, by their spec names (spec 3 "Matchable invoice fields"). */
export const MATCHABLE_FIELDS = [
  "account_number",
  "consignment_number",
  "total_cost",
  "parent_account_number",
  "payer",
  "sender_name",
  "sender_locality",
  "sender_postcode",
  "sender_region",
  "sender_zone",
  "receiver_name",
  "receiver_locality",
  "receiver_postcode",
  "receiver_region",
  "receiver_zone",
  "reference",
  "service_description",
] as const;
export type MatchableField = (typeof MATCHABLE_FIELDS)[number];

/** What a Lookup may look a value up in, and by which of that model's fields. */
export const LOOKUP_TARGETS = {
  Customer: ["name", "code"],
  Site: ["name", "code"],
  Account: ["account_number", "consignment_number_prefix", "carrier_customer_reference"],
  CarrierService: ["name", "code", "service_code_by_carrier", "service_name_by_carrier"],
  Consignment: ["consignment_number"],
} as const;
export type LookupModel = keyof typeof LOOKUP_TARGETS;
export const LOOKUP_MODELS = Object.keys(LOOKUP_TARGETS) as LookupModel[];

export const MESSAGES = {
  saved: "Allocation rules saved successfully",
  created: "New allocation rule saved successfully",
  allocated: (allocation: string) => `Allocation rule allocated: ${allocation}`,
  imported: "Imported mapping",
  importFailed: "Importfailed",
  deleted: "Allocation rule deleted",
  notSaved: "The allocation rule was not saved.",
  loop: "This next rule would make the chain loop back to this rule.",
  fileRequired: "Choose a file to import.",
  csvOnly: "Only csv files can be imported.",
} as const;

const fieldSchema = z.enum(MATCHABLE_FIELDS, { error: "Choose a field of the invoice line" });
const id = z.coerce.number({ error: "Choose one" }).int().positive({ error: "Choose one" });

export const mappingOptions = z.object({
  from_matcher: z.object({ field: fieldSchema, text: z.string().trim().min(1, { error: "Text is required" }).max(255) }),
  to_id: id,
});
export const lookupOptions = z
  .object({
    from_matcher: z.object({ field: fieldSchema }),
    to_matcher: z.object({ model: z.enum(LOOKUP_MODELS as [LookupModel, ...LookupModel[]], { error: "Choose what to look up" }), field: z.string() }),
  })
  .refine((o) => (LOOKUP_TARGETS[o.to_matcher.model] as readonly string[]).includes(o.to_matcher.field), {
    error: "Choose a field of that model",
    path: ["to_matcher", "field"],
  });
export type MappingOptions = z.infer<typeof mappingOptions>;
export type LookupOptions = z.infer<typeof lookupOptions>;

const nullableId = z.preprocess((v) => (v === "" || v === undefined ? null : v), z.coerce.number().int().positive().nullable());

/** POST /api/allocation_rules and PUT /api/allocation_rules/{id}; the screen's editor posts the same. */
export const ruleInput = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("Mapping"),
    carrier_code: z.string().trim().min(1, { error: "Choose a carrier" }),
    customer_id: nullableId.optional(),
    allocation_model: z.enum(ALLOCATION_MODELS, { error: "Choose Customer, Site or CarrierService" }),
    options: mappingOptions,
    next_rule: nullableId.optional(),
  }),
  z.object({
    type: z.literal("Lookup"),
    carrier_code: z.string().trim().min(1, { error: "Choose a carrier" }),
    customer_id: nullableId.optional(),
    allocation_model: z.enum(ALLOCATION_MODELS, { error: "Choose Customer, Site or CarrierService" }),
    options: lookupOptions,
    next_rule: nullableId.optional(),
  }),
]);
export type RuleInput = z.infer<typeof ruleInput>;

export const testInput = z.object({
  invoice_detail_id: z.coerce.number({ error: "Invoice line id is required" }).int().positive({ error: "Invoice line id is required" }),
  /** test one group (its head rule); all of the line's carrier's groups when absent */
  rule_id: nullableId.optional(),
});

/** The mapping CSV (sapphire_mapping_import / _export), docs/decisions/019 "Allocation". */
export const MAPPING_COLUMNS = ["carrier_code", "customer_code", "allocation_model", "field", "text", "to_code"] as const;
