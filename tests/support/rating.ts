/**
 * The lane the rating tests, the end-to-end tests and the bench price: Dandenong South
 * (Melbourne) to Woolloongabba (Brisbane), from the demo Melbourne site.
 */
export const MEL_TO_BNE = {
  site_code: "MEL",
  sender_locality: "DANDENONG SOUTH",
  sender_postcode: "3175",
  sender_country: "AUSTRALIA",
  receiver_locality: "WOOLLOONGABBA",
  receiver_postcode: "4102",
  receiver_country: "AUSTRALIA",
} as const;

/** Its two localities, for a test that loads hand-picked localities rather than the full set. */
export const MEL_TO_BNE_LOCALITIES = [
  { country: "AUSTRALIA", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", remoteTier: 0 },
  { country: "AUSTRALIA", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD", remoteTier: 0 },
] as const;
