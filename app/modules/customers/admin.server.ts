/**
 * Customers administration (issue 16 item 1; spec 2 sections 3, 5, 6, 8): the team view (devs,
 * super admin, admin, customer service) lists, creates and changes customers; going live is for
 * super admins only. Every function checks the rule, so the /customers screens and /api/customers
 * share it.
 */
import { and, count, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { consignments, customers, manifests, sites, type CustomerOptions, type PostalAddress } from "../../../db/schema";
import { authorize } from "../auth/guard.server";
import type { CurrentUser } from "../auth/current-user.server";
import { customerStatus } from "../auth/current-user.server";
import { isAdmin, isSuperAdmin } from "../auth/roles";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import {
  ADDRESS_FIELDS,
  CUSTOMER_FLAGS,
  MESSAGES,
  applyFlagRules,
  completeFormInput,
  foldBillingRegions,
  customerSchema,
  despatchEnabledSchema,
  isGoingLive,
  type CustomerInput,
} from "./admin";

type Customer = typeof customers.$inferSelect;
type Flag = (typeof CUSTOMER_FLAGS)[number];

/** A customer as the customer screens and /api/customers show it (spec 2 section 3). */
export type CustomerAdminJson = Record<Flag, boolean> & {
  id: number;
  code: string;
  name: string;
  status: "LIVE" | "TEST" | "DISABLED";
  branding_prefix: string | null;
  zendesk_org_id: string | null;
  /** how many manifests the customer has (read-only) */
  manifests: number;
  test_account_previous: boolean;
  delete_consignments: boolean;
  custom_consignment_reference_type: Customer["customConsignmentReferenceType"];
  custom_consignment_reference_label: string | null;
  special_instructions: string | null;
  support_email: string | null;
  billing_address: PostalAddress | null;
  options: CustomerOptions;
  sites: { id: number; code: string; name: string }[];
};

/** Throws 403 unless the user has the team view. */
export function assertCustomerAdmin(user: CurrentUser): void {
  authorize(user, isAdmin);
}

const FLAG_COLUMNS: Record<Flag, keyof Customer> = {
  test_account: "testAccount",
  disabled: "disabled",
  despatch_enabled: "despatchEnabled",
  customer_despatch_enabled: "customerDespatchEnabled",
  tracking_despatch_enabled: "trackingDespatchEnabled",
  offers_customer_collect: "offersCustomerCollect",
  receivers_carrier_permitted: "receiversCarrierPermitted",
  merging_enabled: "mergingEnabled",
  dg_merging_enabled: "dgMergingEnabled",
  merging_custom_reference_enabled: "mergingCustomReferenceEnabled",
  print_declarations: "printDeclarations",
};

async function toJson(db: DbOrTx, c: Customer): Promise<CustomerAdminJson> {
  const [[m], siteRows] = await Promise.all([
    db.select({ n: count() }).from(manifests).where(eq(manifests.customerId, c.id)),
    db.select({ id: sites.id, code: sites.code, name: sites.name }).from(sites).where(eq(sites.customerId, c.id)).orderBy(sites.name),
  ]);
  return {
    id: c.id,
    code: c.code,
    name: c.name,
    status: customerStatus(c),
    branding_prefix: c.brandingPrefix,
    zendesk_org_id: c.zendeskOrgId,
    manifests: Number(m?.n ?? 0),
    ...(Object.fromEntries(CUSTOMER_FLAGS.map((k) => [k, Boolean(c[FLAG_COLUMNS[k]])])) as Record<Flag, boolean>),
    test_account_previous: c.testAccountPrevious,
    delete_consignments: c.deleteConsignments,
    custom_consignment_reference_type: c.customConsignmentReferenceType,
    custom_consignment_reference_label: c.customConsignmentReferenceLabel,
    special_instructions: c.specialInstructions,
    support_email: c.supportEmail,
    billing_address: c.billingAddress ?? null,
    options: c.options ?? {},
    sites: siteRows,
  };
}

async function findCustomer(db: DbOrTx, id: number, lock = false): Promise<Customer> {
  const query = db.select().from(customers).where(eq(customers.id, id));
  const [row] = lock ? await query.for("update") : await query;
  if (!row) throw notFound("Customer");
  return row;
}

/** One customer with its options, billing address, manifests count and sites. */
export async function getCustomerForAdmin(db: DbOrTx, user: CurrentUser, id: number): Promise<CustomerAdminJson> {
  assertCustomerAdmin(user);
  return toJson(db, await findCustomer(db, id));
}

/** Options as stored: the given keys over the stored ones; a blank (null) value removes its key, so its default applies. */
function mergeOptions(stored: CustomerOptions, given: CustomerInput["options"]): CustomerOptions {
  const out: Record<string, unknown> = { ...stored };
  for (const [k, v] of Object.entries(given ?? {})) {
    if (k === "placeholder_texts" && v && typeof v === "object") {
      const texts: Record<string, unknown> = { ...(stored.placeholder_texts ?? {}) };
      for (const [p, t] of Object.entries(v)) if (t === null || t === undefined) delete texts[p];
      else texts[p] = t;
      out.placeholder_texts = texts;
    } else if (v === null) delete out[k];
    else if (v !== undefined) out[k] = typeof v === "number" && k === "billing_address_from" ? String(v) : v;
  }
  return out as CustomerOptions;
}

function mergeAddress(stored: PostalAddress | null, given: CustomerInput["billing_address"]): PostalAddress | null {
  if (given === undefined) return stored;
  if (given === null) return null;
  const out: Record<string, string> = { ...(stored ?? {}) } as Record<string, string>;
  for (const k of ADDRESS_FIELDS) {
    const v = given[k];
    if (v === null) delete out[k];
    else if (v !== undefined) out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}

/** The checks that need the database or the whole record: required fields, a unique code, billing sites of this customer. */
async function checkRecord(db: DbOrTx, id: number | null, row: { name: string; code: string; options: CustomerOptions }, errors: FieldErrors) {
  if (!row.name) (errors.name ??= []).push(MESSAGES.nameRequired);
  if (!row.code) (errors.code ??= []).push(MESSAGES.codeRequired);
  else if (!errors.code) {
    const [taken] = await db
      .select({ id: customers.id })
      .from(customers)
      .where(and(sql`lower(${customers.code}) = lower(${row.code})`, id ? ne(customers.id, id) : undefined));
    if (taken) errors.code = [MESSAGES.codeTaken];
  }
  const from = row.options.billing_address_from;
  const wanted = typeof from === "string" ? (/^\d+$/.test(from) ? [Number(from)] : []) : Object.values(from ?? {});
  if (wanted.length) {
    const own = id ? await db.select({ id: sites.id }).from(sites).where(eq(sites.customerId, id)) : [];
    if (wanted.some((s) => !own.some((o) => o.id === s))) errors["options.billing_address_from"] = [MESSAGES.billingSite];
  }
}

function parseInput(raw: unknown, form: boolean): CustomerInput {
  const input = parseOrThrow(customerSchema, raw ?? {});
  return form ? completeFormInput(input) : foldBillingRegions(input);
}

/** The row to store: the input's fields over the current ones, with the flag rules applied. */
function merged(current: Customer | null, input: CustomerInput) {
  const flags = Object.fromEntries(CUSTOMER_FLAGS.map((k) => [k, input[k] ?? (current ? Boolean(current[FLAG_COLUMNS[k]]) : DEFAULT_FLAGS[k])])) as Record<Flag, boolean>;
  const pick = <T>(given: T | undefined, stored: T) => (given === undefined ? stored : given);
  const options = mergeOptions(current?.options ?? {}, input.options);
  const ruled = applyFlagRules({ ...flags, options });
  return {
    flags: ruled,
    options: ruled.options,
    name: pick(input.name, current?.name ?? null) ?? "",
    code: pick(input.code, current?.code ?? null) ?? "",
    brandingPrefix: pick(input.branding_prefix, current?.brandingPrefix ?? null),
    customConsignmentReferenceType: input.custom_consignment_reference_type ?? current?.customConsignmentReferenceType ?? "text",
    customConsignmentReferenceLabel: pick(input.custom_consignment_reference_label, current?.customConsignmentReferenceLabel ?? null),
    specialInstructions: pick(input.special_instructions, current?.specialInstructions ?? null),
    supportEmail: pick(input.support_email, current?.supportEmail ?? null),
    billingAddress: mergeAddress(current?.billingAddress ?? null, input.billing_address),
  };
}

/** A new customer starts as a test account: going live is a super admin's decision (spec 2 section 6). */
const DEFAULT_FLAGS: Record<Flag, boolean> = {
  test_account: true,
  disabled: false,
  despatch_enabled: true,
  customer_despatch_enabled: true,
  tracking_despatch_enabled: false,
  offers_customer_collect: false,
  receivers_carrier_permitted: false,
  merging_enabled: false,
  dg_merging_enabled: false,
  merging_custom_reference_enabled: false,
  print_declarations: false,
};

const columnsOf = (m: ReturnType<typeof merged>) => ({
  ...Object.fromEntries(CUSTOMER_FLAGS.map((k) => [FLAG_COLUMNS[k], m.flags[k]])),
  name: m.name,
  code: m.code,
  brandingPrefix: m.brandingPrefix,
  customConsignmentReferenceType: m.customConsignmentReferenceType,
  customConsignmentReferenceLabel: m.customConsignmentReferenceLabel,
  specialInstructions: m.specialInstructions,
  supportEmail: m.supportEmail,
  billingAddress: m.billingAddress,
  options: m.options,
});

function throwIfErrors(errors: FieldErrors): void {
  const first = Object.values(errors)[0]?.[0];
  if (first) throw new AppError("invalid", first, errors);
}

const privilege = () => new AppError("forbidden", MESSAGES.privilege, { test_account: [MESSAGES.privilege] });

/** POST: a new customer (any team role, customer service included); a live one from the start is going live, for super admins. */
export async function createCustomerForAdmin(db: DbOrTx, user: CurrentUser, raw: unknown, opts: { form?: boolean } = {}): Promise<CustomerAdminJson> {
  assertCustomerAdmin(user);
  const input = parseInput(raw, opts.form ?? false);
  const row = merged(null, input);
  if (!row.flags.test_account && !isSuperAdmin(user)) throw privilege();
  const errors: FieldErrors = {};
  await checkRecord(db, null, row, errors);
  throwIfErrors(errors);
  const [created] = await db
    .insert(customers)
    .values({ ...(columnsOf(row) as typeof customers.$inferInsert), testAccountPrevious: row.flags.test_account })
    .returning();
  return toJson(db, created!);
}

export interface SaveResult {
  customer: CustomerAdminJson;
  /** what going live removed, when it was asked to */
  deleted?: { consignments: number; manifests: number };
}

/**
 * PUT: the fields given replace the stored ones (a form names every field). Unticking Test
 * Account is going live: super admins only ('Your privilege level does not allow this'), and
 * with delete_consignments it removes every consignment and manifest of the customer.
 */
export async function updateCustomerForAdmin(db: DbOrTx, user: CurrentUser, id: number, raw: unknown, opts: { form?: boolean } = {}): Promise<SaveResult> {
  assertCustomerAdmin(user);
  const input = parseInput(raw, opts.form ?? false);
  // one transaction with the customer row locked: two saves at once cannot both judge "was a test
  // account" from the same old row, and going live never stores the new status without the deletion
  // (nor deletes while a concurrent save turns the customer back into a test account)
  return db.transaction(async (tx) => {
    const current = await findCustomer(tx, id, true);
    const row = merged(current, input);
    const goingLive = isGoingLive({ test_account: current.testAccount }, row.flags);
    if (goingLive && !isSuperAdmin(user)) throw privilege();
    const errors: FieldErrors = {};
    await checkRecord(tx, id, row, errors);
    throwIfErrors(errors);
    let deleted: SaveResult["deleted"];
    if (goingLive && input.delete_consignments) deleted = await deleteConsignmentsAndManifests(tx, id);
    const changed = row.flags.test_account !== current.testAccount;
    const [saved] = await tx
      .update(customers)
      .set({ ...columnsOf(row), testAccountPrevious: changed ? current.testAccount : current.testAccountPrevious, deleteConsignments: false, updatedAt: new Date() })
      .where(eq(customers.id, id))
      .returning();
    return { customer: await toJson(tx, saved!), ...(deleted ? { deleted } : {}) };
  });
}

/**
 * Going live's clean slate: the test consignments and their manifests. A consignment's items,
 * dangerous goods, change history, tracking events, journeys and notification deliveries go with
 * it (ON DELETE CASCADE); its enquiries stay, without the consignment (SET NULL). Consignments go
 * first, since they name their manifest. Runs inside the caller's transaction.
 */
async function deleteConsignmentsAndManifests(tx: DbOrTx, customerId: number) {
  const gone = await tx.delete(consignments).where(eq(consignments.customerId, customerId)).returning({ id: consignments.id });
  const goneManifests = await tx.delete(manifests).where(eq(manifests.customerId, customerId)).returning({ id: manifests.id });
  return { consignments: gone.length, manifests: goneManifests.length };
}

/** PUT /api/customers/{id}/update_sites_customer_despatch_enabled: every site of the customer at once, in one statement. */
export async function setSitesDespatchEnabled(db: DbOrTx, user: CurrentUser, id: number, raw: unknown): Promise<{ id: number; despatch_enabled: boolean; sites: number }> {
  assertCustomerAdmin(user);
  const { despatch_enabled } = parseOrThrow(despatchEnabledSchema, raw);
  await findCustomer(db, id);
  const rows = await db.update(sites).set({ despatchEnabled: despatch_enabled, updatedAt: new Date() }).where(eq(sites.customerId, id)).returning({ id: sites.id });
  return { id, despatch_enabled, sites: rows.length };
}
