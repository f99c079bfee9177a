/**
 * Customer branding (issue 17 item 7, spec 2 "Branding"): a logo and a background image per
 * customer, country, environment and (optionally) site, shown on the login page of the customer's
 * URL. Admins (not customer service) and super admins manage them.
 */
import { and, asc, eq, isNull, or, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { brandings, customers, sites } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { homeButtons } from "../auth/roles";
import { customerForStaff } from "../tenancy/customers.server";
import { AppError, notFound } from "../../utils/errors";
import { env } from "../../utils/env.server";
import { rowsOf } from "../../utils/sql-rows";
import { parseOrThrow } from "../../utils/validation";
import { BRANDING_COUNTRIES, NO_IMAGE, brandingImagePath, brandingSchema, type BrandingJson } from "./branding";
import { checkBrandingImage } from "./images.server";

export const assertBrandingUser = (user: CurrentUser) => authorize(user, homeButtons.branding);

type Row = typeof brandings.$inferSelect & { siteName: string | null };

const columns = {
  id: brandings.id,
  customerId: brandings.customerId,
  siteId: brandings.siteId,
  country: brandings.country,
  environment: brandings.environment,
  logoType: brandings.logoType,
  bgType: brandings.bgType,
  updatedAt: brandings.updatedAt,
  updatedBy: brandings.updatedBy,
  siteName: sites.name,
};

function toJson(r: Omit<Row, "logoImage" | "bgImage">): BrandingJson {
  return {
    id: r.id,
    customer_id: r.customerId,
    site_id: r.siteId,
    site_name: r.siteName,
    country_code: r.country,
    env: r.environment,
    logo_url: r.logoType ? brandingImagePath(r.id, "logo", r.updatedAt) : null,
    logo_type: r.logoType,
    bg_url: r.bgType ? brandingImagePath(r.id, "bg", r.updatedAt) : null,
    bg_type: r.bgType,
    updated_at: new Date(r.updatedAt).toISOString(),
  };
}

/** GET /api/branding (and the screen): the brandings of one customer, or of all when none is named. */
export async function listBrandings(db: DbOrTx, user: CurrentUser, customerId?: number | null): Promise<BrandingJson[]> {
  assertBrandingUser(user);
  const rows = await db
    .select(columns)
    .from(brandings)
    .leftJoin(sites, eq(sites.id, brandings.siteId))
    .where(customerId ? eq(brandings.customerId, customerId) : undefined)
    .orderBy(asc(brandings.customerId), asc(brandings.country), asc(brandings.environment), asc(sql`coalesce(${sites.name}, '')`));
  return rows.map(toJson);
}

const fileOf = (form: FormData, name: string): File | null => {
  const value = form.get(name);
  return value instanceof File && value.size > 0 ? value : null;
};

/**
 * PUT /api/customers/{id}/branding (multipart: country_code, env, site_id, logo_image, bg_image):
 * sets the branding of that scope; an image not sent keeps the one stored. The first save of a
 * scope needs at least one image.
 */
export async function saveBranding(db: DbOrTx, user: CurrentUser, customerId: number, form: FormData): Promise<BrandingJson> {
  assertBrandingUser(user);
  await customerForStaff(db, user, customerId);
  const input = parseOrThrow(brandingSchema, { country_code: form.get("country_code") ?? undefined, env: form.get("env") ?? undefined, site_id: form.get("site_id") ?? undefined });
  if (input.site_id) {
    const [site] = await db.select({ id: sites.id }).from(sites).where(and(eq(sites.id, input.site_id), eq(sites.customerId, customerId)));
    if (!site) throw new AppError("invalid", "Site must be one of the customer's sites", { site_id: ["Site must be one of the customer's sites"] });
  }
  // each file is checked on its own, so both fields' messages come back together
  const errors: Record<string, string[]> = {};
  const checked: Partial<Record<"logo" | "bg", Awaited<ReturnType<typeof checkBrandingImage>>>> = {};
  for (const [kind, field] of [["logo", "logo_image"], ["bg", "bg_image"]] as const) {
    const file = fileOf(form, field);
    if (!file) continue;
    try {
      checked[kind] = await checkBrandingImage(file, field);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      Object.assign(errors, error.fieldErrors);
    }
  }
  if (Object.keys(errors).length) throw new AppError("invalid", Object.values(errors)[0]![0]!, errors);
  const { logo, bg } = checked;
  // One statement: two admins saving the same scope at once both land on its one row (the unique
  // index), the later images winning, instead of one failing on the index.
  const saved = rowsOf<{ id: number; logo_type: string | null; bg_type: string | null }>(
    await db.execute(sql`
      insert into brandings (customer_id, site_id, country, environment, logo_image, logo_type, bg_image, bg_type, updated_by, updated_at)
      values (${customerId}, ${input.site_id}, ${input.country_code}, ${input.env}, ${logo?.bytes ?? null}, ${logo?.type ?? null}, ${bg?.bytes ?? null}, ${bg?.type ?? null}, ${user.id}, now())
      on conflict (customer_id, coalesce(site_id, 0), country, environment) do update set
        logo_image = coalesce(excluded.logo_image, brandings.logo_image),
        logo_type = coalesce(excluded.logo_type, brandings.logo_type),
        bg_image = coalesce(excluded.bg_image, brandings.bg_image),
        bg_type = coalesce(excluded.bg_type, brandings.bg_type),
        updated_by = excluded.updated_by,
        updated_at = now()
      returning id, logo_type, bg_type`),
  )[0]!;
  if (!saved.logo_type && !saved.bg_type) {
    // a first save without an image: nothing to show, so nothing is kept
    await db.delete(brandings).where(eq(brandings.id, saved.id));
    throw new AppError("invalid", NO_IMAGE, { logo_image: [NO_IMAGE] });
  }
  const [row] = await db.select(columns).from(brandings).leftJoin(sites, eq(sites.id, brandings.siteId)).where(eq(brandings.id, saved.id));
  return toJson(row!);
}

/** DELETE: a branding of the customer's, gone (another customer's id answers 404). */
export async function deleteBranding(db: DbOrTx, user: CurrentUser, customerId: number, brandingId: number): Promise<void> {
  assertBrandingUser(user);
  const gone = await db.delete(brandings).where(and(eq(brandings.id, brandingId), eq(brandings.customerId, customerId))).returning({ id: brandings.id });
  if (!gone.length) throw notFound("Branding");
}

/** A branding image as stored (checked on upload), for anyone: the login page shows it before sign-in. */
export async function brandingImage(db: DbOrTx, id: number, kind: "logo" | "bg"): Promise<{ type: string; bytes: Buffer } | null> {
  const [row] = await db.select({ logoImage: brandings.logoImage, logoType: brandings.logoType, bgImage: brandings.bgImage, bgType: brandings.bgType }).from(brandings).where(eq(brandings.id, id));
  if (!row) return null;
  const [bytes, type] = kind === "logo" ? [row.logoImage, row.logoType] : [row.bgImage, row.bgType];
  return bytes && type ? { type, bytes: Buffer.from(bytes) } : null;
}

export interface LoginBrand {
  customerName: string;
  logoUrl: string | null;
  bgUrl: string | null;
}

/**
 * The branding the login page shows on a customer URL (/login?brand={branding_prefix}, with
 * optional country=au|nz, default au, and site={site code}): that site's branding if it has one,
 * else the customer's, for this installation's environment (APP_ENV). An unknown prefix, or a
 * disabled customer, shows the plain page.
 */
export async function loginBrand(db: DbOrTx, query: { brand?: string | null; country?: string | null; site?: string | null }): Promise<LoginBrand | null> {
  const prefix = query.brand?.trim();
  if (!prefix || !/^[A-Za-z0-9_-]{1,20}$/.test(prefix)) return null;
  const country = (BRANDING_COUNTRIES as readonly string[]).includes(query.country?.toLowerCase() ?? "") ? (query.country!.toLowerCase() as "au" | "nz") : "au";
  const siteCode = query.site?.trim().toLowerCase() || null;
  const rows = await db
    .select({ ...columns, customerName: customers.name, siteCode: sites.code })
    .from(brandings)
    .innerJoin(customers, eq(customers.id, brandings.customerId))
    .leftJoin(sites, eq(sites.id, brandings.siteId))
    .where(
      and(
        eq(sql`lower(${customers.brandingPrefix})`, prefix.toLowerCase()),
        eq(customers.disabled, false),
        eq(brandings.country, country),
        eq(brandings.environment, env().APP_ENV),
        siteCode ? or(isNull(brandings.siteId), eq(sql`lower(${sites.code})`, siteCode)) : isNull(brandings.siteId),
      ),
    )
    // the site's own first; then the lowest customer id, should two customers share a prefix
    .orderBy(sql`${brandings.siteId} is null`, asc(brandings.customerId));
  const row = rows[0];
  if (!row) return null;
  const json = toJson(row);
  return { customerName: row.customerName, logoUrl: json.logo_url, bgUrl: json.bg_url };
}

/** The branding screen's choices: every customer (with its prefix) and the chosen one's sites. */
export async function brandingChoices(db: DbOrTx, user: CurrentUser, customerId: number) {
  assertBrandingUser(user);
  const customer = await customerForStaff(db, user, customerId);
  const [all, siteRows] = await Promise.all([
    db.select({ id: customers.id, code: customers.code, name: customers.name }).from(customers).orderBy(asc(customers.name)),
    db.select({ id: sites.id, code: sites.code, name: sites.name }).from(sites).where(eq(sites.customerId, customerId)).orderBy(asc(sites.name)),
  ]);
  return { customer: { id: customer.id, name: customer.name, brandingPrefix: customer.brandingPrefix }, customers: all, sites: siteRows };
}
