/**
 * The consignment screen's post before it is rated or saved: without JavaScript the typed places
 * are resolved against the localities (a choice offered where several match), and every problem
 * reads as its field's message, keyed by the form's own field names.
 */
import type { DbOrTx } from "../../../db/client.server";
import type { FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom, FOR_A_PERSON } from "../../utils/validation";
import { resolveFormPlaces, type FormPlaces, type PlaceEnd } from "../localities/resolve.server";
import { ADDRESS_TYPED_KEYS, PLACE_CHOICE_FIELD, TYPED_PLACES_FIELD } from "./form";
import { consignmentInputSchema, type ConsignmentInput } from "./schema";

const end = (side: "sender" | "receiver"): PlaceEnd => {
  const prefix = `${side}_address`;
  return {
    key: prefix,
    who: side,
    fields: {
      locality: `${prefix}.locality`,
      sublocality: `${prefix}.sublocality`,
      postcode: `${prefix}.postcode`,
      region: `${prefix}.region`,
      country: `${prefix}.country`,
      choice: `${prefix}.${PLACE_CHOICE_FIELD}`,
    },
  };
};
const ENDS = [end("sender"), end("receiver")];

/** An address with nothing typed in it is no address (as consignmentFromForm reads it): nothing to resolve. */
const typedAnything = (values: Record<string, string>, prefix: string) =>
  ADDRESS_TYPED_KEYS.some((f) => (values[`${prefix}.${f}`] ?? "").trim() !== "");

/**
 * Resolves the typed places of a post made without JavaScript (it carries TYPED_PLACES_FIELD, or
 * answers a choice offered earlier); a post from the typeahead passes through untouched. Rating
 * (`required`) needs both places; a save leaves a missing one to the save's own rules.
 */
export async function resolveScreenPlaces(db: DbOrTx, values: Record<string, string>, options: { required: boolean }): Promise<FormPlaces> {
  const answersChoice = ENDS.some((e) => e.fields.choice in values);
  if (!values[TYPED_PLACES_FIELD] && !answersChoice) return { values, errors: {}, choices: {}, problems: [] };
  const ends = options.required ? ENDS : ENDS.filter((e) => typedAnything(values, e.key));
  return resolveFormPlaces(db, values, ends, options);
}

/** The consignment input of a form, or its problems in each field's own words. */
export function parseScreenInput(input: unknown): { input: ConsignmentInput; errors: null } | { input: null; errors: FieldErrors } {
  const parsed = consignmentInputSchema.safeParse(input, FOR_A_PERSON);
  return parsed.success ? { input: parsed.data, errors: null } : { input: null, errors: fieldErrorsFrom(parsed.error) };
}

const RATED_ADDRESS_PART = /^(sender|receiver)_(locality|sublocality|postcode|region|country|address_type)$/;

/** The rating payload's flat field names (receiver_postcode) as the form's (receiver_address.postcode). */
export function ratingErrorsAsForm(errors: FieldErrors): FieldErrors {
  const out: FieldErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const m = RATED_ADDRESS_PART.exec(key);
    (out[m ? `${m[1]}_address.${m[2]}` : key] ??= []).push(...messages);
  }
  return out;
}
