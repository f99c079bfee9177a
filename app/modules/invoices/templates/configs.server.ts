/**
 * Carrier invoice templates kept in the database (spec 3 "Carrier invoice config"): the list,
 * one template with its steps, save and delete. Shared by /api/carrier_invoice_configs and the
 * template screens. Reading is for finance users; writing for invoice admins.
 */
import { and, asc, eq, ilike, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../../db/client.server";
import { carrierInvoiceConfigs, carrierInvoiceTransformations, carriers } from "../../../../db/schema";
import { AppError, forbidden, notFound } from "../../../utils/errors";
import { sqlState } from "../../../utils/http.server";
import { fieldErrorsFrom, FOR_A_PERSON } from "../../../utils/validation";
import type { CurrentUser } from "../../auth/current-user.server";
import { canAdministerInvoices, canUseFinance } from "../access";
import { inFieldOrder } from "./map-fields";
import { configInput, PARSER_FORMATS, type ParserJson, type Transformation } from "./schema";

export const SAVE_FAILED = "Carrier invoice import configuration failed to save.";

export interface ConfigJson {
  id: number;
  name: string;
  carrier_id: number;
  carrier_name: string;
  parser: ParserJson;
  transformations: (Transformation & { id: number; sequence: number })[];
}

const assertReader = (u: CurrentUser) => {
  if (!canUseFinance(u)) throw forbidden("You may not see invoice templates.");
};
const assertAdmin = (u: CurrentUser) => {
  if (!canAdministerInvoices(u)) throw forbidden("You may not change invoice templates.");
};

/** The list (with each template's number of steps): filter by name (contains), carrier and format; by name. */
export async function listConfigs(db: DbOrTx, user: CurrentUser, filter: { name?: string; carrier_id?: number; format?: string } = {}) {
  assertReader(user);
  const where = [
    filter.name ? ilike(carrierInvoiceConfigs.name, `%${filter.name.replace(/[\\%_]/g, "\\$&")}%`) : undefined,
    filter.carrier_id ? eq(carrierInvoiceConfigs.carrierId, filter.carrier_id) : undefined,
    // a template reads the format when it is among its formats (or, saved before formats, its one format)
    filter.format && (PARSER_FORMATS as readonly string[]).includes(filter.format)
      ? sql`coalesce(${carrierInvoiceConfigs.parser}->'formats', jsonb_build_array(${carrierInvoiceConfigs.parser}->'format')) @> jsonb_build_array(${filter.format}::text)`
      : undefined,
  ];
  const rows = await db
    .select({
      id: carrierInvoiceConfigs.id,
      name: carrierInvoiceConfigs.name,
      carrier_id: carrierInvoiceConfigs.carrierId,
      carrier_name: carriers.name,
      parser: carrierInvoiceConfigs.parser,
      steps: sql<number>`(select count(*)::int from ${carrierInvoiceTransformations} where ${carrierInvoiceTransformations.configId} = ${carrierInvoiceConfigs.id})`.mapWith(Number),
    })
    .from(carrierInvoiceConfigs)
    .innerJoin(carriers, eq(carriers.id, carrierInvoiceConfigs.carrierId))
    .where(and(...where))
    .orderBy(asc(sql`lower(${carrierInvoiceConfigs.name})`));
  return { carrier_invoice_configs: rows.map((r) => ({ ...r, parser: parserOf(r.parser) })) };
}

export async function getConfig(db: DbOrTx, user: CurrentUser, id: number): Promise<ConfigJson> {
  assertReader(user);
  return loadConfig(db, id);
}

/** A template with its steps in order, for whoever was already allowed (the import job). */
export async function loadConfig(db: DbOrTx, id: number): Promise<ConfigJson> {
  const [row] = await db
    .select({ id: carrierInvoiceConfigs.id, name: carrierInvoiceConfigs.name, carrier_id: carrierInvoiceConfigs.carrierId, carrier_name: carriers.name, parser: carrierInvoiceConfigs.parser })
    .from(carrierInvoiceConfigs)
    .innerJoin(carriers, eq(carriers.id, carrierInvoiceConfigs.carrierId))
    .where(eq(carrierInvoiceConfigs.id, id));
  if (!row) throw notFound("Carrier invoice config");
  const steps = await db.select().from(carrierInvoiceTransformations).where(eq(carrierInvoiceTransformations.configId, id)).orderBy(asc(carrierInvoiceTransformations.sequence), asc(carrierInvoiceTransformations.id));
  return { ...row, parser: parserOf(row.parser), transformations: steps.map((s) => ({ id: s.id, type: s.type, sequence: s.sequence, options: storedOptions(s.type, s.options) }) as ConfigJson["transformations"][number]) };
}

/** A stored step's options as the API answers them: MapFields' mappings in one order (a template saved before it was kept). */
const storedOptions = (type: string, options: Record<string, unknown>) => (type === "MapFields" && Array.isArray(options.mappings) ? { ...options, mappings: inFieldOrder(options.mappings as { field: string }[]) } : options);

/** A stored parser as the API answers it: a template saved before formats reads its one format. */
export const parserOf = (p: { format: ParserJson["format"]; formats?: ParserJson["formats"]; sheets?: string[] }): ParserJson => {
  const formats = PARSER_FORMATS.filter((f) => (p.formats?.length ? p.formats : [p.format]).includes(f));
  return { format: formats[0]!, formats, sheets: p.sheets ?? [] };
};

const failed = (errors: Record<string, string[]>) => new AppError("invalid", SAVE_FAILED, { base: [SAVE_FAILED], ...errors });

/** Creates (id null) or replaces a template and its steps; 422 'Carrier invoice import configuration failed to save.' with each field's message. */
export async function saveConfig(db: DbOrTx, user: CurrentUser, id: number | null, raw: unknown): Promise<ConfigJson> {
  assertAdmin(user);
  const parsed = configInput.safeParse(raw, FOR_A_PERSON);
  if (!parsed.success) throw failed(fieldErrorsFrom(parsed.error));
  const c = parsed.data;
  const [carrier] = await db.select({ id: carriers.id }).from(carriers).where(eq(carriers.id, c.carrierId));
  if (!carrier) throw failed({ carrier_id: ["Choose a carrier"] });
  const [clash] = await db
    .select({ id: carrierInvoiceConfigs.id })
    .from(carrierInvoiceConfigs)
    .where(and(sql`lower(${carrierInvoiceConfigs.name}) = lower(${c.name})`, id ? ne(carrierInvoiceConfigs.id, id) : undefined));
  if (clash) throw failed({ name: ["A template with this name exists"] });
  try {
    // one transaction with the template row locked: two saves of one template at once would
    // otherwise interleave their delete-and-insert of steps and leave both lists mixed
    const savedId = await db.transaction(async (tx) => {
      let configId = id;
      if (configId) {
        const [locked] = await tx.select({ id: carrierInvoiceConfigs.id }).from(carrierInvoiceConfigs).where(eq(carrierInvoiceConfigs.id, configId)).for("update");
        if (!locked) throw notFound("Carrier invoice config");
        await tx.update(carrierInvoiceConfigs).set({ name: c.name, carrierId: c.carrierId, parser: c.parser, updatedAt: new Date() }).where(eq(carrierInvoiceConfigs.id, configId));
        await tx.delete(carrierInvoiceTransformations).where(eq(carrierInvoiceTransformations.configId, configId));
      } else {
        const [made] = await tx.insert(carrierInvoiceConfigs).values({ name: c.name, carrierId: c.carrierId, parser: c.parser }).returning({ id: carrierInvoiceConfigs.id });
        configId = made!.id;
      }
      await tx.insert(carrierInvoiceTransformations).values(c.transformations.map((t) => ({ configId: configId!, type: t.type, sequence: t.sequence, options: t.options as Record<string, unknown> })));
      return configId;
    });
    return getConfig(db, user, savedId);
  } catch (e) {
    // a second save of the same name won the race for the unique index
    if (sqlState(e) === "23505") throw failed({ name: ["A template with this name exists"] });
    throw e;
  }
}

/** Deletes a template; invoices imported with it keep their data (config_id set null). */
export async function deleteConfig(db: DbOrTx, user: CurrentUser, id: number): Promise<{ deleted: true }> {
  assertAdmin(user);
  const gone = await db.delete(carrierInvoiceConfigs).where(eq(carrierInvoiceConfigs.id, id)).returning({ id: carrierInvoiceConfigs.id });
  if (!gone.length) throw notFound("Carrier invoice config");
  return { deleted: true };
}
