/**
 * Breadcrumbs (issue 15 item 7; spec 1 and 3 section 7 GET /api/breadcrumbs with model, id, parent
 * and parent_id): the trail of links to a record or screen that sits under a customer or a carrier.
 * One table of models: a screen that lands later adds its line here (a record with its parent, list
 * and path, or a screen under a record), and the API and every page's <Breadcrumbs> follow.
 */
import { eq } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, customers, declarations, itemTypes, services, sites, users } from "../../../db/schema";
import { authorize } from "../auth/guard.server";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { AppError } from "../../utils/errors";
import { idSchema } from "../../utils/ids";
import { parseOrThrow } from "../../utils/validation";
import type { Crumb } from "./breadcrumbs";

const RECORD_MODELS = ["customer", "site", "account", "user", "item_type", "declaration", "carrier", "service"] as const;
type RecordModel = (typeof RECORD_MODELS)[number];
const SCREEN_MODELS = ["notification_configs", "site_services", "surcharges", "recipients", "reference_types", "custom_emails", "enquiry_types"] as const;
type ScreenModel = (typeof SCREEN_MODELS)[number];

type Ids = Partial<Record<RecordModel, number>>;
type Found = { label: string; parentId: number | null } | null;

interface RecordDef {
  kind: "record";
  parent: RecordModel | null;
  /** the list the record is chosen from, when there is one */
  list?: { label: string; path: (ids: Ids) => string };
  path: (ids: Ids) => string;
  find: (db: DbOrTx, id: number) => Promise<Found>;
}
interface ScreenDef {
  kind: "screen";
  parents: readonly RecordModel[];
  label: string;
  /** the screen's address under its parent's */
  segment: string;
}

const one = async <T>(rows: Promise<T[]>) => (await rows)[0] ?? null;

const RECORDS: Record<RecordModel, RecordDef> = {
  customer: {
    kind: "record",
    parent: null,
    list: { label: "Customers", path: () => "/index_customers" },
    path: (ids) => `/customers/${ids.customer}`,
    find: (db, id) => one(db.select({ label: customers.name, parentId: customers.id }).from(customers).where(eq(customers.id, id))).then((r) => r && { label: r.label, parentId: null }),
  },
  site: {
    kind: "record",
    parent: "customer",
    list: { label: "Sites", path: (ids) => `/customers/${ids.customer}/index_sites` },
    path: (ids) => `/customers/${ids.customer}/sites/${ids.site}`,
    find: (db, id) => one(db.select({ label: sites.name, parentId: sites.customerId }).from(sites).where(eq(sites.id, id))),
  },
  account: {
    kind: "record",
    parent: "site",
    path: (ids) => `/customers/${ids.customer}/sites/${ids.site}/accounts/${ids.account}`,
    find: (db, id) =>
      one(db.select({ number: carrierAccounts.accountNumber, carrier: carriers.name, parentId: carrierAccounts.siteId }).from(carrierAccounts).innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId)).where(eq(carrierAccounts.id, id))).then(
        (r) => r && { label: `${r.carrier} ${r.number}`, parentId: r.parentId },
      ),
  },
  user: {
    kind: "record",
    parent: "customer",
    list: { label: "Users", path: (ids) => `/customers/${ids.customer}/index_users` },
    path: (ids) => `/customers/${ids.customer}/users/${ids.user}`,
    find: (db, id) => one(db.select({ label: users.fullName, parentId: users.customerId }).from(users).where(eq(users.id, id))),
  },
  item_type: {
    kind: "record",
    parent: "customer",
    list: { label: "Item Types", path: (ids) => `/customers/${ids.customer}/index_item_types` },
    path: (ids) => `/customers/${ids.customer}/item_types/${ids.item_type}`,
    find: (db, id) => one(db.select({ label: itemTypes.description, parentId: itemTypes.customerId }).from(itemTypes).where(eq(itemTypes.id, id))),
  },
  declaration: {
    kind: "record",
    parent: "customer",
    list: { label: "Declarations", path: (ids) => `/customers/${ids.customer}/index_declarations` },
    path: (ids) => `/customers/${ids.customer}/declarations/${ids.declaration}`,
    find: (db, id) => one(db.select({ label: declarations.name, parentId: declarations.customerId }).from(declarations).where(eq(declarations.id, id))),
  },
  carrier: {
    kind: "record",
    parent: null,
    list: { label: "Carriers", path: () => "/carriers" },
    path: (ids) => `/carrier/${ids.carrier}`,
    find: (db, id) => one(db.select({ label: carriers.name }).from(carriers).where(eq(carriers.id, id))).then((r) => r && { label: r.label, parentId: null }),
  },
  service: {
    kind: "record",
    parent: "carrier",
    list: { label: "Services", path: (ids) => `/carriers/${ids.carrier}/services` },
    path: (ids) => `/carriers/${ids.carrier}/service/${ids.service}`,
    find: (db, id) => one(db.select({ label: services.name, parentId: services.carrierId }).from(services).where(eq(services.id, id))),
  },
};

const SCREENS: Record<ScreenModel, ScreenDef> = {
  notification_configs: { kind: "screen", parents: ["customer", "site", "account"], label: "Notification Preferences", segment: "notification_configs" },
  site_services: { kind: "screen", parents: ["customer"], label: "Carriers & Services", segment: "site_services" },
  surcharges: { kind: "screen", parents: ["customer"], label: "Surcharges", segment: "surcharges" },
  recipients: { kind: "screen", parents: ["customer"], label: "Recipients", segment: "index_recipients" },
  reference_types: { kind: "screen", parents: ["customer"], label: "Custom References", segment: "reference_types" },
  custom_emails: { kind: "screen", parents: ["customer"], label: "Custom E-mails", segment: "custom_emails" },
  enquiry_types: { kind: "screen", parents: ["customer"], label: "Enquiry Types", segment: "enquiry_types" },
};

/** Every model the breadcrumbs know, by the name callers give. */
export const BREADCRUMB_MODELS: Record<RecordModel | ScreenModel, RecordDef | ScreenDef> = { ...RECORDS, ...SCREENS };
const RECORD_NAMES = RECORD_MODELS;
const MODEL_NAMES = [...RECORD_MODELS, ...SCREEN_MODELS] as const;

const optionalId = (message: string) => z.preprocess((v) => (v === "" ? undefined : v), idSchema(message).optional());
export const breadcrumbsQuery = z.object({
  model: z.enum(MODEL_NAMES, { error: `model must be one of ${MODEL_NAMES.join(", ")}` }),
  id: optionalId("id must be a record id"),
  parent: z.preprocess((v) => (v === "" ? undefined : v), z.enum(RECORD_NAMES, { error: `parent must be one of ${RECORD_NAMES.join(", ")}` }).optional()),
  parent_id: optionalId("parent_id must be a record id"),
});
export type BreadcrumbsQuery = z.infer<typeof breadcrumbsQuery>;

const missing = () => new AppError("not_found", "Record not found");

/** The crumbs down to a record (its ancestors' lists and records, then its own), and the ids on the way. */
async function recordTrail(db: DbOrTx, model: RecordModel, id: number): Promise<{ crumbs: Crumb[]; ids: Ids }> {
  const def: RecordDef = RECORDS[model];
  const found = await def.find(db, id);
  if (!found) throw missing();
  const above = def.parent && found.parentId ? await recordTrail(db, def.parent, found.parentId) : { crumbs: [], ids: {} };
  const ids = { ...above.ids, [model]: id };
  const crumbs = [...above.crumbs];
  if (def.list) crumbs.push({ label: def.list.label, url: def.list.path(ids) });
  crumbs.push({ label: found.label, url: def.path(ids) });
  return { crumbs, ids };
}

/**
 * The trail for { model, id?, parent?, parent_id? }: a record (its parent may be named, and must
 * be its own), a record model's list under a parent (no id), or a screen under a parent. Staff only
 * today, since every model is an administration screen; an id that is not there is 404.
 */
export async function breadcrumbTrail(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<Crumb[]> {
  authorize(user, isAdmin);
  const q = parseOrThrow(breadcrumbsQuery, raw);
  const def: RecordDef | ScreenDef = BREADCRUMB_MODELS[q.model];
  const parentNeeded = def.kind === "screen" || (!q.id && def.parent);
  if (parentNeeded && (!q.parent || !q.parent_id)) {
    throw new AppError("invalid", "parent and parent_id are required for this model without an id", { parent: ["parent and parent_id are required"] });
  }
  const allowed = def.kind === "screen" ? def.parents : def.parent ? [def.parent] : [];
  if (q.parent && !allowed.includes(q.parent)) throw new AppError("invalid", `${q.model} does not sit under ${q.parent}`, { parent: [`${q.model} does not sit under ${q.parent}`] });

  if (def.kind === "record" && q.id) {
    const trail = await recordTrail(db, q.model as RecordModel, q.id);
    // a record named under another parent than its own names nothing
    if (q.parent_id && def.parent && trail.ids[def.parent] !== q.parent_id) throw missing();
    return trail.crumbs;
  }
  if (def.kind === "record" && !def.parent) return def.list ? [{ label: def.list.label, url: def.list.path({}) }] : [];
  const above = await recordTrail(db, q.parent!, q.parent_id!);
  if (def.kind === "screen") return [...above.crumbs, { label: def.label, url: `${above.crumbs.at(-1)!.url}/${def.segment}` }];
  return def.list ? [...above.crumbs, { label: def.list.label, url: def.list.path(above.ids) }] : above.crumbs;
}
