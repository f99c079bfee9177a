/**
 * Custom reference types (issue 16 item 7; spec 2 /customers/{id}/reference_types, POST
 * /api/customers/{id}/custom_references): the choices of a dropdown_generic custom reference,
 * kept in order in customers.options.custom_references (consignments/custom-reference.server.ts
 * reads them there).
 */
import { eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { MESSAGES, customReferencesSchema } from "./admin";
import { assertCustomerAdmin } from "./admin.server";

/** Spec 2 section 3 "Custom reference": id, customer_id, reference; the id is the place in the list. */
export interface CustomReferenceJson {
  id: number;
  customer_id: number;
  reference: string;
}

export interface CustomReferences {
  customer: { id: number; name: string; generic: boolean };
  custom_references: CustomReferenceJson[];
}

async function load(db: DbOrTx, customerId: number) {
  const [row] = await db
    .select({ id: customers.id, name: customers.name, type: customers.customConsignmentReferenceType, list: sql<string[] | null>`${customers.options}->'custom_references'` })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!row) throw notFound("Customer");
  return row;
}

const shape = (row: Awaited<ReturnType<typeof load>>): CustomReferences => ({
  customer: { id: row.id, name: row.name, generic: row.type === "dropdown_generic" },
  custom_references: (Array.isArray(row.list) ? row.list : []).map((reference, i) => ({ id: i + 1, customer_id: row.id, reference })),
});

export async function getCustomReferences(db: DbOrTx, user: CurrentUser, customerId: number): Promise<CustomReferences> {
  assertCustomerAdmin(user);
  return shape(await load(db, customerId));
}

/**
 * Replaces the list with the references given, in their order (an array of strings or of
 * { reference }, or { custom_references: [...] }). Only for a dropdown_generic customer.
 */
export async function saveCustomReferences(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown): Promise<CustomReferences> {
  assertCustomerAdmin(user);
  const body = raw && typeof raw === "object" && !Array.isArray(raw) && "custom_references" in raw ? (raw as { custom_references: unknown }).custom_references : raw;
  const list = parseOrThrow(customReferencesSchema, body);
  const current = await load(db, customerId);
  if (current.type !== "dropdown_generic") throw new AppError("invalid", MESSAGES.referencesNotGeneric, { custom_references: [MESSAGES.referencesNotGeneric] });
  // one statement: jsonb_set keeps every other option a concurrent save may have written
  await db
    .update(customers)
    .set({ options: sql`jsonb_set(${customers.options}, '{custom_references}', ${JSON.stringify(list)}::jsonb)`, updatedAt: new Date() })
    .where(eq(customers.id, customerId));
  return shape({ ...current, list });
}
