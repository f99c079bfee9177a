/**
 * The zod schemas of a carrier invoice template, shared by the editor screen and
 * /api/carrier_invoice_configs: its name, carrier, parser and ordered transformations, each
 * type's options checked by that type's own schema.
 */
import { z } from "zod";
import { deleteRowsOptions } from "./delete-rows";
import { editValuesOptions } from "./edit-values";
import { groupByOptions } from "./group-by";
import { headerCellsOptions } from "./header-cells";
import { joinRowsOptions } from "./join-rows";
import { MAP_FIELDS_SEQUENCE, mapFieldsOptions } from "./map-fields";
import { nameColumnsOptions } from "./name-columns";

export const PARSER_FORMATS = ["CSV", "XLSX", "XLS"] as const;
export type ParserFormat = (typeof PARSER_FORMATS)[number];

export const OPTIONS_BY_TYPE = {
  DeleteRows: deleteRowsOptions,
  EditValues: editValuesOptions,
  GroupBy: groupByOptions,
  HeaderCells: headerCellsOptions,
  JoinRows: joinRowsOptions,
  NameColumns: nameColumnsOptions,
  MapFields: mapFieldsOptions,
} as const;
export type StepType = keyof typeof OPTIONS_BY_TYPE;

/** A step as stored and as the pipeline runs it. */
export type Transformation =
  | { id?: number; type: "DeleteRows"; options: z.infer<typeof deleteRowsOptions> }
  | { id?: number; type: "EditValues"; options: z.infer<typeof editValuesOptions> }
  | { id?: number; type: "GroupBy"; options: z.infer<typeof groupByOptions> }
  | { id?: number; type: "HeaderCells"; options: z.infer<typeof headerCellsOptions> }
  | { id?: number; type: "JoinRows"; options: z.infer<typeof joinRowsOptions> }
  | { id?: number; type: "NameColumns"; options: z.infer<typeof nameColumnsOptions> }
  | { id?: number; type: "MapFields"; options: z.infer<typeof mapFieldsOptions> };

const stepInput = z.object({
  id: z.coerce.number().int().positive().optional(),
  type: z.enum(Object.keys(OPTIONS_BY_TYPE) as [StepType, ...StepType[]], { error: "Choose a transformation type" }),
  sequence: z.coerce.number().int().optional(),
  options: z.unknown(),
  _destroy: z.union([z.boolean(), z.literal("true"), z.literal("1"), z.literal("false"), z.literal("0")]).optional(),
});

const formatSchema = z.enum(PARSER_FORMATS, { error: "Choose CSV, XLSX or XLS" });

/**
 * The formats a template reads (issue 29 item 6: one layout sent as XLSX and as CSV): `formats`,
 * or the one `format` of a client from before; answered as both, `formats` in the order of
 * PARSER_FORMATS (so the editor's check boxes give the same list back) and `format` the first.
 */
export const parserSchema = z
  .object({
    format: formatSchema.optional(),
    formats: z.array(formatSchema).min(1, "Choose at least one format").max(PARSER_FORMATS.length).optional(),
    sheets: z.array(z.string().trim().min(1)).max(20).default([]),
  })
  .superRefine((p, ctx) => {
    if (!p.format && !p.formats) ctx.addIssue({ code: "custom", path: ["formats"], message: "Choose at least one format" });
    if (p.format && p.formats && !p.formats.includes(p.format)) ctx.addIssue({ code: "custom", path: ["format"], message: "The format must be one of the formats" });
  })
  .transform((p) => {
    const chosen = new Set<ParserFormat>(p.formats ?? [p.format!]);
    const formats = PARSER_FORMATS.filter((f) => chosen.has(f));
    return { format: formats[0]!, formats, sheets: p.sheets };
  });
export type ParserJson = z.output<typeof parserSchema>;

type StepIn = z.output<typeof stepInput>;

/**
 * The steps kept (not _destroy) in the order given by sequence (ties by their place), MapFields
 * moved last at sequence 999999 (required exactly once when `requireMap`). Issues carry paths
 * like transformations.2.options.column for the editor's fields.
 */
function orderSteps(transformations: StepIn[], ctx: z.RefinementCtx, requireMap: boolean) {
  const kept = transformations
    .map((t, index) => ({ ...t, index }))
    .filter((t) => !(t._destroy === true || t._destroy === "true" || t._destroy === "1"));
  const steps: (Transformation & { sequence: number })[] = [];
  for (const t of kept) {
    const parsed = OPTIONS_BY_TYPE[t.type].safeParse(t.options ?? {});
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: ["transformations", t.index, "options", ...issue.path.map(String)], message: issue.message });
      continue;
    }
    steps.push({ ...(t.id ? { id: t.id } : {}), type: t.type, options: parsed.data, sequence: t.sequence ?? t.index } as Transformation & { sequence: number });
  }
  const maps = steps.filter((s) => s.type === "MapFields");
  if (requireMap ? maps.length !== 1 : maps.length > 1) ctx.addIssue({ code: "custom", path: ["transformations"], message: "A template needs exactly one MapFields step" });
  const others = steps.filter((s) => s.type !== "MapFields").sort((a, b) => a.sequence - b.sequence);
  return [...others.map((s, i) => ({ ...s, sequence: i + 1 })), ...maps.map((s) => ({ ...s, sequence: MAP_FIELDS_SEQUENCE }))];
}

/** A template as saved: name, carrier, parser and its steps in order (orderSteps). */
export const configInput = z
  .object({
    name: z.string().trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
    carrier_id: z.coerce.number({ error: "Choose a carrier" }).int().positive("Choose a carrier"),
    parser: parserSchema,
    transformations: z.array(stepInput).max(100, "At most 100 transformations"),
  })
  .transform((c, ctx) => ({ name: c.name, carrierId: c.carrier_id, parser: c.parser, transformations: orderSteps(c.transformations, ctx, true) }));
export type ConfigInput = z.output<typeof configInput>;

/**
 * An unsaved template's parser and chosen steps, for the editor's test run: the same checks,
 * but MapFields may be left out (then the run shows the rows after each step only).
 */
export const unsavedStepsInput = z
  .object({ parser: parserSchema, transformations: z.array(stepInput).max(100, "At most 100 transformations") })
  .transform((c, ctx) => ({ parser: c.parser, transformations: orderSteps(c.transformations, ctx, false) }));
