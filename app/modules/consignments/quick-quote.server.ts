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
import type { Rate, RateResponse } from "../rating/engine";
import { despatchDate } from "../calendar/dates";
import { todayIn } from "../calendar/site-time";
import { rateConsignment } from "../rating/rating.server";
import { resolveFormPlaces, type PlaceChoice, type PlaceEnd } from "../localities/resolve.server";
import { AppError, type FieldErrors } from "../../utils/errors";
import { FOR_A_PERSON, parseOrThrow } from "../../utils/validation";
import { nest, parseDisplayDate, TYPED_PLACES_FIELD } from "./form";

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
  const q = parseOrThrow(quickQuoteSchema, raw, FOR_A_PERSON);
  return rateConsignment(db, user, { ...q, items: q.items.map((i) => ({ ...i, item_type: null })) });
}

/** The quick quote's two places: a postcode and a locality each (no region or country fields). */
const ENDS: PlaceEnd[] = (["sender", "receiver"] as const).map((side) => ({
  key: side,
  who: side,
  fields: { locality: `${side}_locality`, postcode: `${side}_postcode`, country: `${side}_country`, choice: `${side}_place_id` },
}));

export interface QuickQuoteOutcome {
  /** what was typed (nothing is lost), with resolved places filled in */
  values: Record<string, string>;
  rates: Rate[] | null;
  errors: FieldErrors;
  /** what stands in the way, for the alert */
  message: string | null;
  /** by end (sender, receiver): places to choose among */
  places: Record<string, PlaceChoice>;
}

/**
 * "Get quotes" as a form post: without JavaScript the typed places are resolved first (a choice
 * offered where several match), then the same pricing as the live quote.
 */
export async function quickQuoteFromForm(db: DbOrTx, user: CurrentUser, posted: Record<string, string>): Promise<QuickQuoteOutcome> {
  const country = user.sites.find((s) => s.code === posted.site_code)?.country;
  // a quick quote is domestic: both places in the site's country, the date in its format
  const domestic: Record<string, string> = country ? { ...posted, sender_country: country, receiver_country: country } : posted;
  const typed = Boolean(posted[TYPED_PLACES_FIELD]) || ENDS.some((e) => e.fields.choice in posted);
  const places = typed ? await resolveFormPlaces(db, domestic, ENDS, { required: true }) : { values: domestic, errors: {}, choices: {}, problems: [] };
  const values = places.values;
  if (places.problems.length) return { values, rates: null, errors: places.errors, message: places.problems.join("; "), places: places.choices };
  try {
    const response = await quickQuote(db, user, { ...nest(Object.entries(values)), despatch_date: parseDisplayDate(values.despatch_date ?? "", country) });
    return { values, rates: response.carriers, errors: {}, message: null, places: {} };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { values, rates: null, errors: e.fieldErrors, message: e.message, places: {} };
  }
}

/** The user's sites with their place, for the quick quote's site choice and default sender, and today at each (its date picker). */
export async function sitePlaces(db: DbOrTx, user: CurrentUser) {
  if (!user.siteIds.length) return [];
  return db
    .select({ code: sites.code, name: sites.name, country: sites.country, locality: sites.locality, postcode: sites.postcode, timezone: sites.timezone })
    .from(sites)
    .where(inArray(sites.id, user.siteIds))
    .orderBy(asc(sites.name))
    .then((rows) => rows.map((s) => ({ ...s, today: todayIn(s.timezone) })));
}
