/**
 * Online store link (spec 2 "Store"; issue 17 item 6): what the store screens and their /api calls
 * share — the zod schemas, the spec's messages and the products CSV columns.
 */
import { z } from "zod";
import { MAX_DIMENSION, MAX_WEIGHT } from "../rating/payload";
import { idSchema } from "../../utils/ids";

export const CART_TYPES = ["shopify", "woocommerce", "magento"] as const;
export const CART_TYPE_LABELS: Record<(typeof CART_TYPES)[number], string> = { shopify: "Shopify", woocommerce: "WooCommerce", magento: "Magento" };
export const RATE_PRESENTATIONS = ["full_list", "grouped"] as const;
export const RATE_PRESENTATION_LABELS: Record<(typeof RATE_PRESENTATIONS)[number], string> = {
  full_list: "Full list (every service rated)",
  grouped: "Grouped by service type (the cheapest of each)",
};

/** The spec's texts (spec 2 section 8), and ours for what it leaves open. */
export const STORE_MESSAGES = {
  saved: "Store was saved.",
  failed: "Failed to set up store",
  imported: "Products imported",
  importFailed: "Failed to import products",
  importNotStarted: "Error starting import.",
  productsSaved: "Products were saved.",
  productsFailed: "Failed to save products",
  keyShownOnce: "Copy this API key now: it is shown only once. Only its fingerprint is kept.",
} as const;

const text = z.string({ error: "Must be text" }).trim();

/**
 * The external id names the store in the checkout-rates URL (/api/store/{external_id}/rates), so it
 * keeps to characters a path segment carries as they are.
 */
export const EXTERNAL_ID_PATTERN = /^[A-Za-z0-9._-]+$/;

/** PUT /api/customers/{id}/store and the store setup screen. */
export const storeSchema = z.object({
  cart_type: z.enum(CART_TYPES, { error: `Cart type must be one of ${CART_TYPES.join(", ")}` }),
  rate_presentation: z.enum(RATE_PRESENTATIONS, { error: "Rate presentation must be full_list or grouped" }).default("full_list"),
  site_id: idSchema("Choose a site"),
  external_id: text
    // a blank id is only "required": the pattern's message under it too read as one run-on sentence
    .min(1, { error: "External id is required", abort: true })
    .max(100, "External id is at most 100 characters")
    .regex(EXTERNAL_ID_PATTERN, "External id may hold only letters, digits, '.', '_' and '-'"),
  /** replace the API key with a new one (shown once); a new store always gets one */
  generate_key: z.coerce.boolean().optional().default(false),
});
export type StoreInput = z.infer<typeof storeSchema>;

/** Blank means "not set" (the item type's then apply); the spec's 4 digits for sizes, 5 for weight. */
const measure = (label: string, max: number) =>
  z.preprocess(
    (v) => (v === "" || v === undefined ? null : v),
    z.coerce
      .number({ error: `${label} must be a number` })
      .finite(`${label} must be a number`)
      .min(0, `${label} cannot be negative`)
      .max(max, `${label} must be at most ${max}`)
      .nullable(),
  );

/** What a product edit may change: the name comes from the store (read only). */
export const productEditSchema = z.object({
  id: idSchema("Product id is required"),
  item_type_id: z.preprocess((v) => (v === "" || v === undefined ? null : v), idSchema("Choose an item type").nullable()),
  length: measure("Length", MAX_DIMENSION),
  width: measure("Width", MAX_DIMENSION),
  height: measure("Height", MAX_DIMENSION),
  weight: measure("Dead weight", MAX_WEIGHT),
});
export type ProductEdit = z.infer<typeof productEditSchema>;

/** POST /api/customers/{id}/store/products: the edited products, saved together or not at all. */
export const productsEditSchema = z.object({ products: z.array(productEditSchema).min(1, "No products to save").max(1000, "At most 1000 products at a time") });

/** One line of a products CSV: the SKU names the product; an import updates products by SKU. */
export const productCsvSchema = z.object({
  sku: text.min(1, "SKU is required").max(100, "SKU is at most 100 characters"),
  name: text.min(1, "Name is required").max(255, "Name is at most 255 characters"),
  item_type: text.max(255).optional().default(""),
  length: measure("Length", MAX_DIMENSION),
  width: measure("Width", MAX_DIMENSION),
  height: measure("Height", MAX_DIMENSION),
  weight: measure("Weight", MAX_WEIGHT),
});

export const PRODUCT_CSV_COLUMNS = ["sku", "name", "item_type", "length", "width", "height", "weight"] as const;
export const PRODUCT_REQUIRED_COLUMNS = ["sku", "name"] as const;

/** Store JSON (spec 2 section 3 Store): the key itself is never read back, only its last 4 characters. */
export interface StoreJson {
  id: number;
  customer_id: number;
  cart_type: (typeof CART_TYPES)[number];
  rate_presentation: (typeof RATE_PRESENTATIONS)[number];
  site_id: number;
  external_id: string;
  api_key_hint: string;
}

export interface ProductJson {
  id: number;
  sku: string;
  name: string;
  item_type_id: number | null;
  length: number | null;
  width: number | null;
  height: number | null;
  weight: number | null;
}
