/**
 * How places read to a person, on the server and in the browser alike (no server imports here).
 */

/** The supported countries as the spec writes them, with the name a person reads. */
export const COUNTRY_LABELS = [
  ["AUSTRALIA", "Australia"],
  ["NEW ZEALAND", "New Zealand"],
  ["UNITED STATES OF AMERICA", "United States"],
] as const;

export const countryLabel = (country: string) => COUNTRY_LABELS.find(([value]) => value === country)?.[1] ?? country;

/** 'LOCALITY STATE POSTCODE', a New Zealand suburb first ('PONSONBY, AUCKLAND 1011'): as the typeahead lists places. */
export const placeLabel = (l: { locality: string; sublocality?: string | null; region?: string | null; postcode: string }) =>
  [`${l.sublocality ? `${l.sublocality}, ` : ""}${l.locality}`, l.region, l.postcode].filter(Boolean).join(" ");

/**
 * Places offered to choose among when a typed place (no JavaScript) matches several: the radio
 * group's name, each place with its label, and whether more match than are listed.
 */
export interface PlaceChoice {
  name: string;
  places: Array<{ id: number; label: string; locality: string; sublocality: string | null; postcode: string; region: string | null }>;
  more: boolean;
}
