/**
 * Quick quote (spec 1 section 2): prices from every service of a site for a postcode and locality
 * at each end and a few item lines, without saving anything.
 */
import { asc, inArray } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { COUNTRIES } from "../../../db/schema/rating";
import { sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import type { RateResponse } from "../rating/engine";
import { despatchDate } from "../calendar/dates";
import { rateConsignment } from "../rating/rating.server";
import { parseOrThrow } from "../../utils/validation";

const dim = (label: string) => z.coerce.number({ error: `${label} must be a number` }).int(`${label} must be a whole number`).min(1, `Must have ${label.toLowerCase()}`).max(9999, `${label} must be up to 4 digits`);

export const quickQuoteSchema = z.object({
  site_code: z.string().trim().min(1, "Site is required"),
  despatch_date: despatchDate({ message: "Despatch date must be a date" }),
  sender_postcode: z.string().trim().regex(/^\d{4,5}$/, "Postcode must be 4 or 5 digits"),
  sender_locality: z.string().trim().min(1, "Invalid sender locality"),
  sender_country: z.enum(COUNTRIES).default("AUSTRALIA"),
  receiver_postcode: z.string().trim().regex(/^\d{4,5}$/, "Postcode must be 4 or 5 digits"),
  receiver_locality: z.string().trim().min(1, "Invalid receiver locality"),
  receiver_country: z.enum(COUNTRIES).default("AUSTRALIA"),
  items: z
    .array(
      z.object({
        quantity: z.coerce.number({ error: "Must have quantity" }).int("Must have quantity").min(1, "Must have quantity").max(99, "Quantity must be 1 or 2 digits"),
        length: dim("Length"),
        width: dim("Width"),
        height: dim("Height"),
        weight_in_uom: z.coerce.number({ error: "Must have weight" }).positive("Must have weight").max(99999, "Weight must be up to 5 characters"),
      }),
    )
    .min(1, "Must have quantity")
    .max(20),
});

export async function quickQuote(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<RateResponse> {
  const q = parseOrThrow(quickQuoteSchema, raw);
  return rateConsignment(db, user, { ...q, items: q.items.map((i) => ({ ...i, item_type: null })) });
}

/** The user's sites with their place, for the quick quote's site choice and default sender. */
export async function sitePlaces(db: DbOrTx, user: CurrentUser) {
  if (!user.siteIds.length) return [];
  return db
    .select({ code: sites.code, name: sites.name, country: sites.country, locality: sites.locality, postcode: sites.postcode })
    .from(sites)
    .where(inArray(sites.id, user.siteIds))
    .orderBy(asc(sites.name));
}
