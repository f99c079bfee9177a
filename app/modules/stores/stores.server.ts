/**
 * A customer's online store and its products (spec 2 "Store"): staff set it up for a customer,
 * scoped to that customer (another customer's store answers 404). One store per customer (the
 * spec's customer carries one store_id); the API key is made here, shown once and kept as SHA-256.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers, itemTypes, sites, storeProducts, stores } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { newToken, tokenDigest } from "../auth/tokens.server";
import { customerForStaff } from "../tenancy/customers.server";
import { sqlState } from "../../utils/http.server";
import { AppError, notFound } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { productsEditSchema, storeSchema, type ProductJson, type StoreJson } from "./stores";

type StoreRow = typeof stores.$inferSelect;

export const storeJson = (s: StoreRow): StoreJson => ({
  id: s.id,
  customer_id: s.customerId,
  cart_type: s.cartType,
  rate_presentation: s.ratePresentation,
  site_id: s.siteId,
  external_id: s.externalId,
  api_key_hint: s.apiKeyHint,
});

const num = (v: string | null) => (v === null ? null : Number(v));
export const productJson = (p: typeof storeProducts.$inferSelect): ProductJson => ({
  id: p.id,
  sku: p.sku,
  name: p.name,
  item_type_id: p.itemTypeId,
  length: num(p.length),
  width: num(p.width),
  height: num(p.height),
  weight: num(p.weight),
});

/** A new API key: 32 random bytes; the caller shows it once, only its digest and last 4 are kept. */
function newApiKey() {
  const key = `fdsk_${newToken(32)}`;
  return { key, hash: tokenDigest(key), hint: key.slice(-4) };
}

/** The customer's store, or null; `storeId` (from a path) must be that store, else 404. */
export async function customerStore(db: DbOrTx, user: CurrentUser, customerId: number, storeId?: number | null): Promise<StoreRow | null> {
  await customerForStaff(db, user, customerId);
  const [store] = await db.select().from(stores).where(eq(stores.customerId, customerId)).orderBy(asc(stores.id)).limit(1);
  if (storeId != null && store?.id !== storeId) throw notFound("Store");
  return store ?? null;
}

/** As customerStore, for the calls that need the store to exist (products). */
export async function requireCustomerStore(db: DbOrTx, user: CurrentUser, customerId: number, storeId?: number | null): Promise<StoreRow> {
  const store = await customerStore(db, user, customerId, storeId);
  if (!store) throw notFound("Store");
  return store;
}

/** The customer's active sites, for the store's site choice. */
export function storeSites(db: DbOrTx, customerId: number) {
  return db
    .select({ id: sites.id, code: sites.code, name: sites.name })
    .from(sites)
    .where(and(eq(sites.customerId, customerId), eq(sites.active, true)))
    .orderBy(asc(sites.name));
}

/**
 * PUT /api/customers/{id}/store and the setup screen's Save: sets up the customer's store (a new
 * one gets its first key) or changes it; `generate_key` replaces the key. Answers the store and,
 * when a key was made, the key itself (`api_key`), which is never readable again.
 */
export async function saveStore(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown, storeId?: number | null): Promise<{ store: StoreJson; api_key?: string }> {
  await customerStore(db, user, customerId, storeId);
  const input = parseOrThrow(storeSchema, raw);
  const [site] = await db
    .select({ id: sites.id })
    .from(sites)
    .where(and(eq(sites.id, input.site_id), eq(sites.customerId, customerId), eq(sites.active, true)));
  if (!site) throw new AppError("invalid", "Choose a site of this customer", { site_id: ["Choose a site of this customer"] });
  try {
    // one transaction with the customer row locked: two setups at once would otherwise each find
    // no store and make two for one customer
    return await db.transaction(async (tx) => {
      await tx.select({ id: customers.id }).from(customers).where(eq(customers.id, customerId)).for("update");
      const [existing] = await tx.select().from(stores).where(eq(stores.customerId, customerId)).orderBy(asc(stores.id)).limit(1);
      if (storeId != null && existing?.id !== storeId) throw notFound("Store");
      const fields = { cartType: input.cart_type, ratePresentation: input.rate_presentation, siteId: input.site_id, externalId: input.external_id, updatedAt: new Date() };
      const key = !existing || input.generate_key ? newApiKey() : null;
      const keyFields = key ? { apiKeyHash: key.hash, apiKeyHint: key.hint } : {};
      const [row] = existing
        ? await tx
            .update(stores)
            .set({ ...fields, ...keyFields })
            .where(eq(stores.id, existing.id))
            .returning()
        : await tx
            .insert(stores)
            .values({ customerId, ...fields, apiKeyHash: key!.hash, apiKeyHint: key!.hint })
            .returning();
      return key ? { store: storeJson(row!), api_key: key.key } : { store: storeJson(row!) };
    });
  } catch (e) {
    // stores_external_id_key: the external id names one store across every customer
    if (sqlState(e) === "23505") throw new AppError("invalid", "This external id is already used by another store", { external_id: ["This external id is already used by another store"] });
    throw e;
  }
}

/** The store's products by SKU, and the customer's item types to choose from. */
export async function storeProductsScreen(db: DbOrTx, user: CurrentUser, customerId: number, storeId?: number | null) {
  const store = await requireCustomerStore(db, user, customerId, storeId);
  const [products, types] = await Promise.all([
    db.select().from(storeProducts).where(eq(storeProducts.storeId, store.id)).orderBy(asc(sql`lower(${storeProducts.sku})`)),
    db
      .select({ id: itemTypes.id, description: itemTypes.description, name: itemTypes.name })
      .from(itemTypes)
      .where(eq(itemTypes.customerId, customerId))
      .orderBy(asc(itemTypes.sequence), asc(itemTypes.id)),
  ]);
  return { store: storeJson(store), products: products.map(productJson), itemTypes: types };
}

/**
 * POST /api/customers/{id}/store/products and the products screen's Save: item type and measures
 * of the store's products (the name stays as imported). Every product must be the store's and
 * every item type the customer's; all are saved or none.
 */
export async function updateStoreProducts(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown, storeId?: number | null): Promise<{ products: ProductJson[] }> {
  const store = await requireCustomerStore(db, user, customerId, storeId);
  const { products } = parseOrThrow(productsEditSchema, raw);
  const ids = [...new Set(products.map((p) => p.id))];
  const typeIds = [...new Set(products.flatMap((p) => (p.item_type_id ? [p.item_type_id] : [])))];
  const [own, types] = await Promise.all([
    db.select({ id: storeProducts.id }).from(storeProducts).where(and(eq(storeProducts.storeId, store.id), inArray(storeProducts.id, ids))),
    typeIds.length ? db.select({ id: itemTypes.id }).from(itemTypes).where(and(eq(itemTypes.customerId, customerId), inArray(itemTypes.id, typeIds))) : [],
  ]);
  if (own.length !== ids.length) throw notFound("Product");
  const known = new Set(types.map((t) => t.id));
  const errors: Record<string, string[]> = {};
  products.forEach((p, i) => {
    if (p.item_type_id && !known.has(p.item_type_id)) errors[`products.${i}.item_type_id`] = ["Choose an item type of this customer"];
  });
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  const str = (v: number | null) => (v === null ? null : String(v));
  // one transaction: a refused row leaves the others as they were
  const saved = await db.transaction(async (tx) => {
    const out: ProductJson[] = [];
    for (const p of products) {
      const [row] = await tx
        .update(storeProducts)
        .set({ itemTypeId: p.item_type_id, length: str(p.length), width: str(p.width), height: str(p.height), weight: str(p.weight) })
        .where(and(eq(storeProducts.id, p.id), eq(storeProducts.storeId, store.id)))
        .returning();
      out.push(productJson(row!));
    }
    return out;
  });
  return { products: saved };
}
