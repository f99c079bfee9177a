/**
 * The kinds the one consignment form serves (issue 4: one form, not five copies): where each
 * lives, what its messages call it, and how it is saved.
 */
export const VARIANTS = {
  consignment: { path: "/consignment", noun: "consignment", title: "consignment", isQuote: false, returnType: null, incomplete: "Consignment is incomplete" },
  quote: { path: "/quote", noun: "quote", title: "Quote", isQuote: true, returnType: null, incomplete: "Quote is incomplete" },
  return: { path: "/return", noun: "return", title: "Return", isQuote: false, returnType: "return", incomplete: "Return is incomplete" },
  thirdparty: { path: "/thirdparty", noun: "third party pickup", title: "Third Party Pickup", isQuote: false, returnType: "third_party", incomplete: "Third party pickup is incomplete" },
  return_quote: { path: "/return_quote", noun: "return quote", title: "Return quote", isQuote: true, returnType: "return", incomplete: "Return quote is incomplete" },
  thirdparty_quote: { path: "/thirdparty_quote", noun: "third party quote", title: "Third party quote", isQuote: true, returnType: "third_party", incomplete: "Third party quote is incomplete" },
} as const;
export type Variant = keyof typeof VARIANTS;

/** Does a saved consignment belong on this variant's screen? */
export const belongsTo = (variant: Variant, c: { is_quote: boolean; return_type: string | null }) =>
  c.is_quote === VARIANTS[variant].isQuote && (c.return_type ?? null) === VARIANTS[variant].returnType;

/** The screen a saved consignment of this kind lives on. */
export function variantOf(c: { is_quote: boolean; return_type: string | null }): Variant {
  return (Object.keys(VARIANTS) as Variant[]).find((v) => belongsTo(v, c)) ?? "consignment";
}
