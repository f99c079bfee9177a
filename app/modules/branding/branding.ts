import { z } from "zod";
import { idSchema } from "../../utils/ids";

/** Spec 2 section 9: branding countries and environments. */
export const BRANDING_COUNTRIES = ["au", "nz"] as const;
export const BRANDING_ENVIRONMENTS = ["development", "qa", "uat", "production"] as const;
export const BRANDING_SAVED = "Branding was saved.";
export const BRANDING_NOT_SAVED = "Branding was not saved.";
export const NO_IMAGE = "Choose a logo or a background image.";

const blankToNull = (v: unknown) => (v === "" || v === undefined || v === "null" ? null : v);

/** The fields of PUT /api/customers/{id}/branding and the branding screen's form (besides the two files). */
export const brandingSchema = z.object({
  country_code: z.enum(BRANDING_COUNTRIES, { error: "Country must be au or nz" }),
  env: z.enum(BRANDING_ENVIRONMENTS, { error: "Environment must be development, qa, uat or production" }),
  // no site: the branding of every site of the customer
  site_id: z.preprocess(blankToNull, idSchema("Site must be one of the customer's sites").nullable()),
});
export type BrandingInput = z.infer<typeof brandingSchema>;

export interface BrandingJson {
  id: number;
  customer_id: number;
  site_id: number | null;
  site_name: string | null;
  country_code: (typeof BRANDING_COUNTRIES)[number];
  env: (typeof BRANDING_ENVIRONMENTS)[number];
  logo_url: string | null;
  logo_type: string | null;
  bg_url: string | null;
  bg_type: string | null;
  updated_at: string;
}

/** Where a branding's image is served (public: the login page shows it before anyone signs in); `v` changes with each save. */
export const brandingImagePath = (id: number, kind: "logo" | "bg", updatedAt: Date | string) => `/branding_images/${id}/${kind}?v=${new Date(updatedAt).getTime()}`;
