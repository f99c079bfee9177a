/** Column layouts of the rating CSV files; shared by the server modules and the screens. */
export const RATE_CARD_COLUMNS = [
  "carrier_code",
  "service_code",
  "rate_code",
  "from_zone",
  "to_zone",
  "basic",
  "per_kg",
  "per_item",
  "minimum",
  "transit_days",
  "cubic_factor",
  "effective_from",
  "som",
] as const;

export const ZONE_COLUMNS = ["postcode", "locality", "sublocality", "region", "country", "zone"] as const;
