/**
 * POST /api/store/{external_id}/rates: a cart's shipping rates for an online store's checkout.
 * The store's API key is the Bearer token (its SHA-256 compared in constant time); the cart's SKUs
 * map to the store's products; the engine rates them from the store's site to the cart's
 * destination, and the answer is the full list or the cheapest of each service group.
 */
import { timingSafeEqual } from "node:crypto";
import { and, eq, inArray, sql } from "drizzle-orm";
import { changeFeedOf, type DbOrTx } from "../../../db/client.server";
import type { FeedMark } from "../../../db/changes.server";
import { keptPer, readThrough } from "../../../db/kept.server";
import { itemTypes, sites, storeProducts, stores } from "../../../db/schema";
import { tokenDigest } from "../auth/tokens.server";
import { todayIn } from "../calendar/site-time";
import { resolvePlace } from "../localities/resolve.server";
import type { RatingPayload } from "../rating/payload";
import { rateWithRules } from "../rating/rating.server";
import { ratingData, type RatingData } from "../rating/rating-data.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { CHECKOUT_MESSAGES, checkoutRequestSchema, COUNTRY_BY_CODE, RATES_TIME_BUDGET_MS, type CheckoutRate } from "./checkout";

const CURRENCY: Record<string, string> = { AUSTRALIA: "AUD", "NEW ZEALAND": "NZD", "UNITED STATES OF AMERICA": "USD" };

type FoundStore = { store: typeof stores.$inferSelect; site: typeof sites.$inferSelect };

// the stores checkouts asked for, kept with the change feed: migration 0043 tells of any statement
// on stores, 0038 of any on sites ("all"); an unknown id is never kept
const storesKept = keptPer<string, FoundStore>((payload, kept) => {
  if (payload === "stores" || payload === "all") kept.clear();
});

/** The store named in the path, with its site: kept where the database has a change feed, else one query. */
async function storeByExternalId(db: DbOrTx, externalId: string): Promise<FoundStore | null> {
  const load = async () => (await db.select({ store: stores, site: sites }).from(stores).innerJoin(sites, eq(sites.id, stores.siteId)).where(eq(stores.externalId, externalId)).limit(1))[0];
  return (await readThrough(storesKept(changeFeedOf(db)), externalId, load)) ?? null;
}

/** The Bearer token's SHA-256 against the stored one, in constant time (equal-length hex). */
/** A digest no key has in practice (SHA-256 of nothing anyone sends), so an unknown store's check runs and fails like a wrong key's. */
const NO_STORE_HASH = "0".repeat(64);

export function keyMatches(authorization: string | null, storedHash: string): boolean {
  const token = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (!token) return false;
  const given = Buffer.from(tokenDigest(token), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return given.length === stored.length && timingSafeEqual(given, stored);
}

type ProductRow = { sku: string; p: Measures; t: Measures | null };
type Measures = { l: string | null; w: string | null; h: string | null; kg: string | null };

// a store's products as checkouts read them, by store and lower-case SKU, kept with the change
// feed: any statement on store_products or stores (migration 0043), any item type (0038: a product
// without measures takes its type's) or customer or site ("all") forgets them all
const productsKept = keptPer<string, ProductRow>((payload, kept) => {
  if (payload === "store_products" || payload === "stores" || payload === "all" || payload.startsWith("item_types:")) kept.clear();
});

/** The store's products of these SKUs: those kept, and one query for the rest. */
async function productsOf(db: DbOrTx, storeId: number, skus: string[], since: FeedMark | undefined): Promise<ProductRow[]> {
  const kept = productsKept(changeFeedOf(db));
  const found: ProductRow[] = [];
  const missing: string[] = [];
  for (const sku of skus) {
    const row = await kept?.getSince(`${storeId}|${sku}`, since);
    if (row) found.push(row);
    else missing.push(sku);
  }
  if (!missing.length) return found;
  const mark = kept?.mark() ?? 0;
  const rows = await db
    .select({ sku: storeProducts.sku, p: { l: storeProducts.length, w: storeProducts.width, h: storeProducts.height, kg: storeProducts.weight }, t: { l: itemTypes.length, w: itemTypes.width, h: itemTypes.height, kg: itemTypes.weight } })
    .from(storeProducts)
    .leftJoin(itemTypes, eq(itemTypes.id, storeProducts.itemTypeId))
    // served by store_products_store_sku_key (store_id, lower(sku))
    .where(and(eq(storeProducts.storeId, storeId), inArray(sql`lower(${storeProducts.sku})`, missing)));
  for (const row of rows) kept?.keep(`${storeId}|${row.sku.toLowerCase()}`, row, mark);
  return [...found, ...rows];
}

/** The cart's SKUs as rating items: the product's own measures, else its item type's. */
async function cartItems(db: DbOrTx, storeId: number, lines: Array<{ sku?: string | null; quantity: number; grams?: number | null }>, since: FeedMark | undefined) {
  const skus = [...new Set(lines.map((l) => (l.sku ?? "").toLowerCase()))];
  const rows = await productsOf(db, storeId, skus, since);
  const bySku = new Map(rows.map((r) => [r.sku.toLowerCase(), r]));
  const unknown = [...new Set(lines.filter((l) => !bySku.has((l.sku ?? "").toLowerCase())).map((l) => l.sku || "(no SKU)"))];
  if (unknown.length) throw new AppError("invalid", CHECKOUT_MESSAGES.unknownSkus(unknown), { items: [CHECKOUT_MESSAGES.unknownSkus(unknown)] });
  const pick = (own: string | null, type: string | null | undefined) => Number(own ?? type ?? 0) || 0;
  return lines.map((l) => {
    const r = bySku.get((l.sku ?? "").toLowerCase())!;
    // dead weight per unit: the product's, else its item type's, else what the cart says it weighs
    const unitKg = pick(r.p.kg, r.t?.kg) || (l.grams ?? 0) / 1000;
    return {
      quantity: l.quantity,
      length: pick(r.p.l, r.t?.l),
      width: pick(r.p.w, r.t?.w),
      height: pick(r.p.h, r.t?.h),
      weight_in_uom: Math.round(unitKg * l.quantity * 1000) / 1000,
      dangerous_goods: false,
      dangerous_goods_items: [],
    };
  });
}

/** The destination as a locality: the postcode and city exactly, else the postcode's place (its province first). */
async function destinationPlace(db: DbOrTx, data: RatingData, d: { country: string; postal_code: string; city?: string | null; province?: string | null }) {
  const code = d.country.toUpperCase();
  const country = COUNTRY_BY_CODE[code] ?? Object.values(COUNTRY_BY_CODE).find((c) => c === code);
  if (!country) throw new AppError("invalid", CHECKOUT_MESSAGES.unknownCountry, { destination: [CHECKOUT_MESSAGES.unknownCountry] });
  const city = (d.city ?? "").trim();
  if (city) {
    const [exact] = await data.places([{ locality: city, postcode: d.postal_code, country }]);
    if (exact) return { country, locality: exact.locality, postcode: exact.postcode, sublocality: exact.sublocality };
  }
  const found = await resolvePlace(db, { postcode: d.postal_code, region: d.province ?? null, country });
  const place = found.status === "found" ? found.place : found.status === "choose" ? found.places[0] : undefined;
  if (!place) throw new AppError("invalid", CHECKOUT_MESSAGES.unknownPostcode(d.postal_code, d.country), { destination: [CHECKOUT_MESSAGES.unknownPostcode(d.postal_code, d.country)] });
  return { country, locality: place.locality, postcode: place.postcode, sublocality: place.sublocality ?? null };
}

/** Settles within the budget or answers 503 JSON (the rating left running is read-only). */
async function withinBudget<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Response.json({ errors: { base: [CHECKOUT_MESSAGES.tooSlow] } }, { status: 503, headers: { "Retry-After": "1" } })), RATES_TIME_BUDGET_MS);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The cart's value in its currency (Shopify's item price is in cents), for rules on declared value; absent without prices. */
function cartValue(items: Array<{ quantity: number; price?: unknown }>): number | undefined {
  const prices = items.map((i) => Number(i.price));
  if (prices.some((p) => !Number.isFinite(p) || p < 0)) return undefined;
  return items.reduce((sum, i, n) => sum + prices[n]! * i.quantity, 0) / 100;
}

/** A delivery date as Shopify writes it; noon UTC is the same calendar day in AU, NZ and the US. */
const deliveryDate = (date: string | null) => (date ? `${date} 12:00:00 +0000` : null);
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Authenticates the caller (before the body is read), rates the cart and answers {rates: [...]} in the callback's shape.
 * Services with no price (POA, hidden rates) are left out: a checkout cannot offer them.
 */
export async function checkoutRates(db: DbOrTx, externalId: string, authorization: string | null, readCart: () => Promise<unknown>): Promise<{ rates: CheckoutRate[] }> {
  // before the store is asked for: its sync then vouches for the rating data's stamp too
  const since = changeFeedOf(db)?.mark();
  const found = await storeByExternalId(db, externalId);
  // an unknown store answers as a wrong key does, after the same key check (issue 35 finding 10:
  // a 404 without a key and 401 with one told a caller which external ids exist)
  const keyOk = keyMatches(authorization, found?.store.apiKeyHash ?? NO_STORE_HASH);
  if (!found || !keyOk) throw new AppError("unauthenticated", CHECKOUT_MESSAGES.wrongKey);
  const { store, site } = found;
  const { rate: cart } = parseOrThrow(checkoutRequestSchema, await readCart());
  const shipped = cart.items.filter((i) => i.requires_shipping !== false);
  if (!shipped.length) throw new AppError("invalid", CHECKOUT_MESSAGES.nothingToShip, { items: [CHECKOUT_MESSAGES.nothingToShip] });

  return withinBudget(
    (async () => {
      // the rating data as of this call, read once for the destination, the rates and the groups
      const data = await ratingData(db, since);
      const [items, to] = await Promise.all([cartItems(db, store.id, shipped, since), destinationPlace(db, data, cart.destination)]);
      const country = site.country as RatingPayload["sender_country"];
      const payload: RatingPayload = {
        despatch_date: todayIn(site.timezone),
        site_code: site.code,
        items,
        warranty: false,
        sender_locality: site.locality ?? "",
        sender_postcode: site.postcode ?? "",
        sender_sublocality: site.sublocality,
        sender_country: country,
        sender_address_type: "business",
        receiver_locality: to.locality,
        receiver_postcode: to.postcode,
        receiver_sublocality: to.sublocality,
        receiver_country: to.country,
        // a shop's buyers are mostly at home: the residential surcharge applies where one is set
        receiver_address_type: "residential",
      };
      const [result, offered] = await Promise.all([rateWithRules(db, store.customerId, site, { ...payload, declared_value: cartValue(shipped) }, data), data.offered(site.id)]);
      const groupOf = new Map(offered.map((o) => [o.ss.id, o.service.group || o.service.type]));
      const currency = CURRENCY[site.country] ?? "AUD";
      // a shipping rule that chose a service (or a set) offers only those; excluded carriers are gone already
      const allowed = result.shipping_rule?.offered ? new Set(result.shipping_rule.offered.map((k) => k.toLowerCase())) : null;
      const priced = result.carriers
        .filter((r) => r.total !== null && !r.is_poa && !r.is_na && (!allowed || allowed.has(`${r.code}:${r.service_code}`.toLowerCase())))
        .sort((a, b) => a.total! - b.total!);
      const rateOf = (r: (typeof priced)[number], name: string, code: string, description: string): CheckoutRate => ({
        service_name: name,
        service_code: code,
        total_price: String(Math.round(r.total! * 100)),
        description,
        currency,
        min_delivery_date: deliveryDate(r.estimated_delivery_date),
        max_delivery_date: deliveryDate(r.estimated_delivery_date),
      });
      if (store.ratePresentation === "grouped") {
        // the cheapest of each group (priced is sorted by total, so the first of a group wins)
        const byGroup = new Map<string, (typeof priced)[number]>();
        for (const r of priced) {
          const group = groupOf.get(r.site_service_id) ?? r.service_type;
          if (!byGroup.has(group)) byGroup.set(group, r);
        }
        return { rates: [...byGroup].map(([group, r]) => rateOf(r, capitalise(group), group, `${r.name} ${r.service}`)) };
      }
      return { rates: priced.map((r) => rateOf(r, `${r.name} ${r.service}`, `${r.code}-${r.service_code}`, r.estimated_delivery_date ? `Estimated delivery ${r.estimated_delivery_date}` : "")) };
    })(),
  );
}
