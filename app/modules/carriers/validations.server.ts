/**
 * Carrier account validations (issue 17 item 3; spec 2 "Carrier account validation"): rules a
 * carrier's accounts must pass when saved. Enforcement is accounts.server.ts's (with
 * accountValidationErrors of customers/accounts.ts); this keeps the rules. A validation is reached
 * through its carrier: another carrier's validation id answers 404.
 */
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccountValidations } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { idSchema } from "../../utils/ids";
import { parseFields } from "./access.server";
import { VALIDATION_MESSAGES, validationSchema, type ValidationJson } from "./admin";
import { carrierOf } from "./services.server";

type Row = typeof carrierAccountValidations.$inferSelect;
const toJson = (r: Row, carrierCode: string): ValidationJson => ({
  id: r.id,
  carrier_id: r.carrierId,
  carrier_code: carrierCode,
  field: r.field,
  rule: r.rule,
  modifier: r.modifier,
  validation: r.validation,
  message: r.message,
});
const notFound = () => new AppError("not_found", VALIDATION_MESSAGES.notFound);

/** The carrier's validations, oldest first (the order an account's errors are told in). */
export async function listValidations(db: DbOrTx, user: CurrentUser, carrierId: number): Promise<ValidationJson[]> {
  const carrier = await carrierOf(db, user, carrierId);
  const rows = await db.select().from(carrierAccountValidations).where(eq(carrierAccountValidations.carrierId, carrierId)).orderBy(asc(carrierAccountValidations.id));
  return rows.map((r) => toJson(r, carrier.code));
}

async function find(db: DbOrTx, carrierId: number, id: number) {
  const [row] = await db
    .select()
    .from(carrierAccountValidations)
    .where(and(eq(carrierAccountValidations.id, id), eq(carrierAccountValidations.carrierId, carrierId)));
  return row ?? null;
}

export async function getValidation(db: DbOrTx, user: CurrentUser, carrierId: number, id: number): Promise<ValidationJson> {
  const carrier = await carrierOf(db, user, carrierId);
  const row = await find(db, carrierId, id);
  if (!row) throw notFound();
  return toJson(row, carrier.code);
}

/** The carrier of a validation by its id alone (for /api/carrier_account_validations/{id}); 404 when none. */
export async function carrierOfValidation(db: DbOrTx, id: number): Promise<number> {
  const [row] = await db.select({ carrierId: carrierAccountValidations.carrierId }).from(carrierAccountValidations).where(eq(carrierAccountValidations.id, id));
  if (!row) throw notFound();
  return row.carrierId;
}

const asObject = (raw: unknown): Record<string, unknown> => (raw && typeof raw === "object" && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {});

/** The carrier named by a body's carrier_id (the /api create); 400 when it is not an id. */
export const carrierIdOf = (raw: unknown) => parseFields(z.object({ carrier_id: idSchema("Please choose a carrier") }), asObject(raw)).carrier_id;

export async function createValidation(db: DbOrTx, user: CurrentUser, carrierId: number, raw: unknown): Promise<ValidationJson> {
  const carrier = await carrierOf(db, user, carrierId);
  const input = parseFields(validationSchema, asObject(raw));
  const [row] = await db.insert(carrierAccountValidations).values({ carrierId, ...input }).returning();
  return toJson(row!, carrier.code);
}

/** Fields given replace the validation's own; 400 per field. */
export async function updateValidation(db: DbOrTx, user: CurrentUser, carrierId: number, id: number, raw: unknown): Promise<ValidationJson> {
  const carrier = await carrierOf(db, user, carrierId);
  const current = await find(db, carrierId, id);
  if (!current) throw notFound();
  const { id: _i, carrier_id: _c, carrier_code: _k, ...stored } = toJson(current, carrier.code);
  const input = parseFields(validationSchema, { ...stored, ...asObject(raw) });
  const [row] = await db.update(carrierAccountValidations).set(input).where(eq(carrierAccountValidations.id, id)).returning();
  if (!row) throw notFound();
  return toJson(row, carrier.code);
}

export async function deleteValidation(db: DbOrTx, user: CurrentUser, carrierId: number, id: number): Promise<{ id: number; deleted: true }> {
  await carrierOf(db, user, carrierId);
  const gone = await db
    .delete(carrierAccountValidations)
    .where(and(eq(carrierAccountValidations.id, id), eq(carrierAccountValidations.carrierId, carrierId)))
    .returning({ id: carrierAccountValidations.id });
  if (!gone.length) throw notFound();
  return { id, deleted: true };
}
