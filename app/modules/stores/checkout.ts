/**
 * The checkout-rates call's request, in the shape of Shopify's carrier-calculated shipping
 * callback (the CarrierService callback_url POST): {"rate": {origin, destination, items, currency,
 * locale}}. Fields the rating does not use are accepted and ignored.
 */
import { z } from "zod";
import { MAX_ITEM_LINES, MAX_QUANTITY } from "../rating/payload";

/** How long rating may take before the call answers 503 JSON (Shopify falls back to its backup rates). */
export const RATES_TIME_BUDGET_MS = 2000;

export const CHECKOUT_MESSAGES = {
  /** also an unknown external id's answer: the call never says which stores exist */
  wrongKey: "The API key is missing or wrong: send the store's key as 'Authorization: Bearer <key>'.",
  tooSlow: `Rates could not be worked out within ${RATES_TIME_BUDGET_MS} ms; try again.`,
  unknownPostcode: (postcode: string, country: string) => `Unknown postcode ${postcode} in ${country}.`,
  unknownSkus: (skus: string[]) => `Unknown SKU${skus.length > 1 ? "s" : ""}: ${skus.join(", ")}`,
  unknownCountry: "Only destinations in AU, NZ or US can be rated.",
  nothingToShip: "No item of the cart requires shipping.",
} as const;

/** Shopify's ISO country codes, as the localities and the engine name countries. */
export const COUNTRY_BY_CODE: Record<string, "AUSTRALIA" | "NEW ZEALAND" | "UNITED STATES OF AMERICA"> = {
  AU: "AUSTRALIA",
  NZ: "NEW ZEALAND",
  US: "UNITED STATES OF AMERICA",
};

const text = z.string().trim();
const optionalText = z.union([text, z.null()]).optional();

const address = z
  .object({
    country: text.min(1, "Country is required"),
    postal_code: text.min(1, "Postal code is required").max(20, "Postal code is at most 20 characters"),
    province: optionalText,
    city: optionalText,
    name: optionalText,
    address1: optionalText,
    address2: optionalText,
  })
  .passthrough();

const item = z
  .object({
    sku: z.union([text, z.null()]).optional(),
    name: optionalText,
    quantity: z.number({ error: "Quantity must be a number" }).int("Quantity must be a whole number").min(1, "Quantity must be at least 1").max(MAX_QUANTITY, `Quantity must be at most ${MAX_QUANTITY}`),
    grams: z.number().min(0).optional().nullable(),
    requires_shipping: z.boolean().optional().nullable(),
  })
  .passthrough();

export const checkoutRequestSchema = z.object({
  rate: z.object({
    origin: address.optional(),
    destination: address,
    items: z.array(item).min(1, "The cart has no items").max(MAX_ITEM_LINES, `At most ${MAX_ITEM_LINES} items`),
    currency: optionalText,
    locale: optionalText,
  }),
});
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>;

/** One rate of the answer, as Shopify's callback expects it: total_price in cents, as a string. */
export interface CheckoutRate {
  service_name: string;
  service_code: string;
  total_price: string;
  description: string;
  currency: string;
  min_delivery_date: string | null;
  max_delivery_date: string | null;
}
