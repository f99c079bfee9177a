/**
 * A place as a person types it without JavaScript (a locality name, perhaps a postcode or a
 * region, no typeahead to pick from) resolved against the localities of its country: one place
 * fills the rest of the address, several are offered as a choice, none is said plainly.
 */
import { and, asc, eq, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { COUNTRIES, localities, type Country } from "../../../db/schema";
import type { FieldErrors } from "../../utils/errors";
import { localityJson, MIN_QUERY, startsWith, type LocalityJson } from "./localities.server";
import { countryLabel, placeLabel, type PlaceChoice } from "./places";

export type { PlaceChoice } from "./places";

/** The most places a choice lists; past that the person types more of the name or the postcode. */
export const MAX_CHOICES = 20;

export interface TypedPlace {
  /** the name typed: a locality, or a New Zealand suburb */
  name?: string | null;
  postcode?: string | null;
  region?: string | null;
  country: Country;
}

export type PlaceResolution =
  | { status: "found"; place: LocalityJson }
  | { status: "choose"; places: LocalityJson[]; more: boolean }
  | { status: "none" }
  | { status: "blank" };

const toJson = (r: typeof localities.$inferSelect): LocalityJson & { poBox: boolean } => ({ ...localityJson(r), poBox: r.poBox });
const plain = ({ poBox: _, ...place }: LocalityJson & { poBox: boolean }): LocalityJson => place;

/**
 * The places a typed place may mean, most likely first (MAX_CHOICES + 1 at most, to tell whether
 * there are more), and how the typed text matched them.
 */
async function candidates(db: DbOrTx, typed: TypedPlace): Promise<{ places: Array<LocalityJson & { poBox: boolean }>; exactName: boolean; postcodeMatched: boolean }> {
  const name = (typed.name ?? "").trim().toLowerCase();
  const postcode = (typed.postcode ?? "").trim();
  const region = (typed.region ?? "").trim().toUpperCase();
  const inCountry = eq(localities.country, typed.country);
  // served by the name indexes (lower(...) text_pattern_ops answer equality too)
  const named = or(sql`lower(${localities.locality}) = ${name}`, sql`lower(${localities.sublocality}) = ${name}`);
  const order = [
    // the typed region's places first, so narrowing to them never misses one past the limit
    sql`coalesce(${localities.region} = ${region}, false) desc`,
    // street addresses before post office boxes: SYDNEY means the city, not one of its box postcodes
    asc(localities.poBox),
    asc(localities.region),
    asc(localities.locality),
    asc(localities.sublocality),
    asc(localities.postcode),
  ];
  const find = (where: ReturnType<typeof and>) =>
    db
      .select()
      .from(localities)
      .where(where)
      .orderBy(...order)
      .limit(MAX_CHOICES + 1)
      .then((rows) => rows.map(toJson));

  if (name && postcode) {
    const pair = await find(and(inCountry, eq(localities.postcode, postcode), named));
    if (pair.length) return { places: pair, exactName: true, postcodeMatched: true };
  }
  if (name) {
    const byName = await find(and(inCountry, named));
    if (byName.length) return { places: byName, exactName: true, postcodeMatched: false };
    if (name.length < MIN_QUERY) return { places: [], exactName: false, postcodeMatched: false };
    const prefix = startsWith(name);
    const started = await find(and(inCountry, or(sql`lower(${localities.locality}) like ${prefix}`, sql`lower(${localities.sublocality}) like ${prefix}`)));
    return { places: started, exactName: false, postcodeMatched: false };
  }
  return { places: await find(and(inCountry, eq(localities.postcode, postcode))), exactName: true, postcodeMatched: true };
}

/**
 * Which place a typed place names. One place fills it: the locality with its postcode, a name or
 * a postcode that only one street address has (a typed region narrowing the name's places), or a
 * place chosen (`chosenId`) among those this same text offered. A name that is only the start of
 * a place's name, or whose postcode was typed differently, is always a choice: what the person
 * typed is never silently replaced by another place.
 */
export async function resolvePlace(db: DbOrTx, typed: TypedPlace, chosenId?: number | null): Promise<PlaceResolution> {
  if (!(typed.name ?? "").trim() && !(typed.postcode ?? "").trim()) return { status: "blank" };
  const found = await candidates(db, typed);
  if (found.places.length === 0) return { status: "none" };
  const region = (typed.region ?? "").trim().toUpperCase();
  // the typed region's places come first (see candidates): narrow to them when there are any
  const rows = region && found.places[0]!.region === region ? found.places.filter((p) => p.region === region) : found.places;
  const more = rows.length > MAX_CHOICES;
  const places = rows.slice(0, MAX_CHOICES);
  const chosen = chosenId ? places.find((p) => p.id === chosenId) : undefined;
  if (chosen) return { status: "found", place: plain(chosen) };
  const typedPostcodeDiffers = Boolean((typed.postcode ?? "").trim()) && !found.postcodeMatched;
  if (found.exactName && !typedPostcodeDiffers) {
    // street addresses come first: one street address, or one place at all, is the one meant
    const streets = places.filter((p) => !p.poBox);
    if (streets.length === 1) return { status: "found", place: plain(streets[0]!) };
    if (places.length === 1) return { status: "found", place: plain(places[0]!) };
  }
  return { status: "choose", places: places.map(plain), more };
}

export const CHOOSE_PLACE = "More than one place matches: choose the locality from the list, or add its postcode";

/** The fields of an address that name its place. */
export interface AddressPlace {
  locality?: string | null;
  sublocality?: string | null;
  postcode?: string | null;
  region?: string | null;
  country: Country;
}

/**
 * The place an address form names (the site form, the recipient form, with JavaScript or not): a
 * locality alone resolves as a locality with its postcode does, and the address takes the place's
 * locality, suburb, postcode and region. Its status otherwise, for the form's own message.
 */
export async function resolveAddressPlace<A extends AddressPlace>(db: DbOrTx, a: A): Promise<{ status: "found"; address: A } | { status: "blank" | "none" | "choose" }> {
  const place = await resolvePlace(db, { name: a.sublocality || a.locality, postcode: a.postcode, region: a.region, country: a.country });
  if (place.status !== "found") return { status: place.status };
  const p = place.place;
  return { status: "found", address: { ...a, locality: p.locality, sublocality: p.sublocality, postcode: p.postcode, region: p.region } };
}

/** One end of a form (sender or receiver): the names its place's fields post under. */
export interface PlaceEnd {
  /** where a choice is offered (the address's prefix) */
  key: string;
  who: "sender" | "receiver";
  fields: { locality: string; sublocality?: string; postcode: string; region?: string; country?: string; choice: string };
}

export interface FormPlaces {
  /** the form's values with each resolved place filled in (nothing typed elsewhere is touched) */
  values: Record<string, string>;
  /** by each end's locality field: why it did not resolve */
  errors: FieldErrors;
  /** by each end's key: the places to choose from */
  choices: Record<string, PlaceChoice>;
  /** what a person must do, for the alert ("Choose the receiver's locality") */
  problems: string[];
}

/**
 * Resolves the typed place of each end of a posted form (no JavaScript). `required`: an end with no
 * place typed is an error (rating needs both); otherwise it is left for the save to judge.
 */
export async function resolveFormPlaces(db: DbOrTx, posted: Record<string, string>, ends: PlaceEnd[], options: { required: boolean }): Promise<FormPlaces> {
  const values = { ...posted };
  const out: FormPlaces = { values, errors: {}, choices: {}, problems: [] };
  const typedOf = ({ fields: f }: PlaceEnd) => {
    const country = (f.country && values[f.country]) || "AUSTRALIA";
    const name = ((f.sublocality && values[f.sublocality]) || values[f.locality] || "").trim();
    return { country, name, postcode: (values[f.postcode] ?? "").trim(), region: f.region ? values[f.region] : null, chosenId: Number(values[f.choice]) || null };
  };
  const results = await Promise.all(
    ends.map(async (end) => {
      const t = typedOf(end);
      // an unknown country is the schema's to refuse, with its own message
      if (!(COUNTRIES as readonly string[]).includes(t.country)) return null;
      return resolvePlace(db, { name: t.name, postcode: t.postcode, region: t.region, country: t.country as Country }, t.chosenId);
    }),
  );
  ends.forEach((end, i) => {
    const { key, who, fields: f } = end;
    const result = results[i];
    const t = typedOf(end);
    delete values[f.choice];
    const fail = (field: string, problem: string) => {
      out.errors[f.locality] = [field];
      out.problems.push(problem);
    };
    switch (result?.status) {
      case "found": {
        const p = result.place;
        values[f.locality] = p.locality;
        if (f.sublocality) values[f.sublocality] = p.sublocality ?? "";
        values[f.postcode] = p.postcode;
        if (f.region) values[f.region] = p.region ?? "";
        return;
      }
      case "choose":
        out.choices[key] = {
          name: f.choice,
          places: result.places.map((p) => ({ id: p.id, label: placeLabel(p), locality: p.locality, sublocality: p.sublocality, postcode: p.postcode, region: p.region })),
          more: result.more,
        };
        return fail(`Choose the ${who}'s locality`, `Choose the ${who}'s locality`);
      case "none": {
        const message = `No locality matches "${[t.name, t.postcode].filter(Boolean).join(" ")}" in ${countryLabel(t.country)}`;
        return fail(message, message);
      }
      case "blank":
        if (options.required) fail("Please enter a locality", `Please enter the ${who}'s locality`);
        return;
      default:
        return;
    }
  });
  return out;
}
