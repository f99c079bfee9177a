/**
 * Declarations (issue 16 item 8): staff keep a customer's PDF declarations, each for one of its
 * item types or for all of them. Every function checks the staff rule and scopes by the customer
 * in the path, so another customer's declaration id is a 404; the screens and
 * /api/customers/{id}/declarations share them. Printing them is print.server.ts.
 */
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { declarations, itemTypes, users } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { customerForStaff } from "../tenancy/customers.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { MESSAGES, declarationSchema, type DeclarationJson } from "./declarations";
import type { DeclarationUpload } from "./upload.server";

const columns = {
  id: declarations.id,
  customerId: declarations.customerId,
  itemTypeId: declarations.itemTypeId,
  itemTypeName: itemTypes.description,
  name: declarations.name,
  filename: declarations.filename,
  contentType: declarations.contentType,
  size: declarations.size,
  createdBy: declarations.createdBy,
  createdByName: users.fullName,
  createdAt: declarations.createdAt,
};

const notFound = () => new AppError("not_found", MESSAGES.notFound);

const select = (db: DbOrTx) =>
  db.select(columns).from(declarations).leftJoin(itemTypes, eq(itemTypes.id, declarations.itemTypeId)).leftJoin(users, eq(users.id, declarations.createdBy));

type Row = Awaited<ReturnType<ReturnType<typeof select>["where"]>>[number];

const toJson = (r: Row): DeclarationJson => ({
  id: r.id,
  customer_id: r.customerId,
  item_type_id: r.itemTypeId,
  item_type_name: r.itemTypeName,
  name: r.name,
  filename: r.filename,
  content_type: r.contentType,
  size: r.size,
  created_by: r.createdBy,
  created_by_name: r.createdByName,
  created_at: r.createdAt.toISOString(),
  file_url: `/api/customers/${r.customerId}/declarations/${r.id}/file`,
});

/** The customer's declarations by name. */
export async function listDeclarations(db: DbOrTx, user: CurrentUser, customerId: number): Promise<DeclarationJson[]> {
  await customerForStaff(db, user, customerId);
  const rows = await select(db).where(eq(declarations.customerId, customerId)).orderBy(asc(declarations.name), asc(declarations.id));
  return rows.map(toJson);
}

async function findDeclaration(db: DbOrTx, customerId: number, id: number): Promise<Row> {
  const [row] = await select(db).where(and(eq(declarations.id, id), eq(declarations.customerId, customerId)));
  if (!row) throw notFound();
  return row;
}

export async function getDeclaration(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<DeclarationJson> {
  await customerForStaff(db, user, customerId);
  return toJson(await findDeclaration(db, customerId, id));
}

/** The customer's item types for the item type choice, by description. */
export async function itemTypeChoices(db: DbOrTx, user: CurrentUser, customerId: number): Promise<{ id: number; label: string }[]> {
  await customerForStaff(db, user, customerId);
  const rows = await db.select({ id: itemTypes.id, description: itemTypes.description, name: itemTypes.name }).from(itemTypes).where(eq(itemTypes.customerId, customerId)).orderBy(asc(itemTypes.description), asc(itemTypes.id));
  return rows.map((r) => ({ id: r.id, label: `${r.description} (${r.name})` }));
}

/** name and item type checked (422 per field): the item type must be this customer's. */
async function checkFields(db: DbOrTx, customerId: number, fields: Record<string, string>) {
  const input = parseOrThrow(declarationSchema, { name: fields.name ?? "", item_type_id: fields.item_type_id ?? "" });
  if (input.item_type_id) {
    const [own] = await db.select({ id: itemTypes.id }).from(itemTypes).where(and(eq(itemTypes.id, input.item_type_id), eq(itemTypes.customerId, customerId)));
    if (!own) throw new AppError("invalid", MESSAGES.itemType, { item_type_id: [MESSAGES.itemType] });
  }
  return { name: input.name, itemTypeId: input.item_type_id ?? null };
}

/** A new declaration from the upload: name, item type and a PDF file (required). */
export async function createDeclaration(db: DbOrTx, user: CurrentUser, customerId: number, upload: DeclarationUpload): Promise<DeclarationJson> {
  await customerForStaff(db, user, customerId);
  const fields = await checkFields(db, customerId, upload.fields);
  if (!upload.file) throw new AppError("invalid", MESSAGES.fileRequired, { file: [MESSAGES.fileRequired] });
  const [row] = await db
    .insert(declarations)
    .values({ customerId, ...fields, filename: upload.file.filename, contentType: "application/pdf", size: upload.file.bytes.byteLength, content: Buffer.from(upload.file.bytes), createdBy: user.id })
    .returning({ id: declarations.id });
  return toJson(await findDeclaration(db, customerId, row!.id));
}

/** Changes name and item type; a file given replaces the PDF (and who uploaded it). */
export async function updateDeclaration(db: DbOrTx, user: CurrentUser, customerId: number, id: number, upload: DeclarationUpload): Promise<DeclarationJson> {
  await customerForStaff(db, user, customerId);
  await findDeclaration(db, customerId, id);
  const fields = await checkFields(db, customerId, upload.fields);
  const file = upload.file
    ? { filename: upload.file.filename, size: upload.file.bytes.byteLength, content: Buffer.from(upload.file.bytes), createdBy: user.id, createdAt: new Date() }
    : {};
  await db
    .update(declarations)
    .set({ ...fields, ...file })
    .where(and(eq(declarations.id, id), eq(declarations.customerId, customerId)));
  return toJson(await findDeclaration(db, customerId, id));
}

export async function deleteDeclaration(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<{ id: number; deleted: true }> {
  await customerForStaff(db, user, customerId);
  const rows = await db
    .delete(declarations)
    .where(and(eq(declarations.id, id), eq(declarations.customerId, customerId)))
    .returning({ id: declarations.id });
  if (!rows.length) throw notFound();
  return { id, deleted: true };
}

/** The PDF as a download (attachment, its own name), never cached by a shared cache. */
export async function declarationFileResponse(db: DbOrTx, user: CurrentUser, customerId: number, id: number): Promise<Response> {
  await customerForStaff(db, user, customerId);
  const [row] = await db
    .select({ filename: declarations.filename, content: declarations.content })
    .from(declarations)
    .where(and(eq(declarations.id, id), eq(declarations.customerId, customerId)));
  if (!row) throw notFound();
  const ascii = row.filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return new Response(new Uint8Array(row.content), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Length": String(row.content.byteLength),
      "Content-Disposition": `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(row.filename)}`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
