/**
 * Notification preferences (issue 14 item 6; spec 2 "Notification config"): a template for one
 * notification type and trigger state, at a customer, one of its sites or one carrier account;
 * the most specific applies (account, then site, then customer). Devs, super admins and admins
 * only (spec 2 section 6); staff work on any customer, as with the customer's other administration
 * (tenancy/customers.server.ts customerForStaff). Templates are checked when saved, never first
 * found wrong when sending.
 */
import { and, asc, eq, inArray, or, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, customers, notificationConfigs, notificationTypes, sites } from "../../../db/schema";
import type { NotificationParent, NotificationTriggerState } from "../../../db/schema/notifications";
import type { CurrentUser } from "../auth/current-user.server";
import { authorize } from "../auth/guard.server";
import { canViewNotifications } from "../auth/roles";
import { AppError, notFound, type FieldErrors } from "../../utils/errors";
import { idParam, parseOrThrow } from "../../utils/validation";
import { accountNotificationsSchema, configChangeSchema, configSchema, MESSAGES, PARENT_PATHS, TRIGGER_STATES, type ConfigJson } from "./configs";
import { checkTemplate } from "../templates/templates.server";
import { mostSpecific, type Placement } from "./resolve";

/** Throws 403 unless the user may view and edit notification preferences (devs, super_admin, admin). */
export function assertNotificationsUser(user: CurrentUser): void {
  authorize(user, canViewNotifications);
}

// ---------------------------------------------------------------------------------------------
// Parents

/** A level named by a path: the customer (and site) of a page's path must be its own, or it is not found. */
export interface ParentRef {
  type: NotificationParent;
  id: number;
  customerId?: number;
  siteId?: number;
}

export interface Parent {
  type: NotificationParent;
  id: number;
  customerId: number;
  customerName: string;
  siteId: number | null;
  siteName: string | null;
  /** the account's carrier and number; the site's or customer's name */
  label: string;
}

/** The level of /api/{parentType}/{parentId}/...: customers, sites or accounts and an id; anything else is not found. */
export function apiParentRef(params: { parentType?: string; parentId?: string }): ParentRef {
  const type = Object.hasOwn(PARENT_PATHS, params.parentType ?? "") ? PARENT_PATHS[params.parentType as keyof typeof PARENT_PATHS] : null;
  if (!type) throw new AppError("not_found", `No notification configs under ${params.parentType}: use customers, sites or accounts`);
  return { type, id: idParam(params.parentId, `${type === "account" ? "Account" : type === "site" ? "Site" : "Customer"} id`) };
}

const NOT_FOUND: Record<NotificationParent, string> = { customer: "Customer", site: "Site", account: "Carrier account" };

/** The level, or 404 when there is none (or it is not under the page's customer and site). */
export async function findParent(db: DbOrTx, ref: ParentRef): Promise<Parent> {
  const missing = () => notFound(NOT_FOUND[ref.type]);
  if (ref.type === "customer") {
    const [c] = await db.select({ id: customers.id, name: customers.name }).from(customers).where(eq(customers.id, ref.id));
    if (!c || (ref.customerId !== undefined && ref.customerId !== c.id)) throw missing();
    return { type: "customer", id: c.id, customerId: c.id, customerName: c.name, siteId: null, siteName: null, label: c.name };
  }
  if (ref.type === "site") {
    const [s] = await db
      .select({ id: sites.id, name: sites.name, customerId: customers.id, customerName: customers.name })
      .from(sites)
      .innerJoin(customers, eq(customers.id, sites.customerId))
      .where(eq(sites.id, ref.id));
    if (!s || (ref.customerId !== undefined && ref.customerId !== s.customerId)) throw missing();
    return { type: "site", id: s.id, customerId: s.customerId, customerName: s.customerName, siteId: s.id, siteName: s.name, label: s.name };
  }
  const [a] = await db
    .select({ id: carrierAccounts.id, number: carrierAccounts.accountNumber, carrier: carriers.name, siteId: sites.id, siteName: sites.name, customerId: customers.id, customerName: customers.name })
    .from(carrierAccounts)
    .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
    .innerJoin(sites, eq(sites.id, carrierAccounts.siteId))
    .innerJoin(customers, eq(customers.id, sites.customerId))
    .where(eq(carrierAccounts.id, ref.id));
  if (!a || (ref.customerId !== undefined && ref.customerId !== a.customerId) || (ref.siteId !== undefined && ref.siteId !== a.siteId)) throw missing();
  return { type: "account", id: a.id, customerId: a.customerId, customerName: a.customerName, siteId: a.siteId, siteName: a.siteName, label: `${a.carrier} ${a.number}` };
}

// ---------------------------------------------------------------------------------------------
// Reading

const configColumns = {
  id: notificationConfigs.id,
  customerId: notificationConfigs.customerId,
  parentType: notificationConfigs.parentType,
  parentId: notificationConfigs.parentId,
  notificationTypeId: notificationConfigs.notificationTypeId,
  typeName: notificationTypes.name,
  consignmentState: notificationConfigs.consignmentState,
  enabled: notificationConfigs.enabled,
  template: notificationConfigs.template,
  updatedAt: notificationConfigs.updatedAt,
};
type ConfigRow = { id: number; customerId: number; parentType: NotificationParent; parentId: number; notificationTypeId: number; typeName: string; consignmentState: NotificationTriggerState; enabled: boolean; template: string; updatedAt: Date };

const selectConfigs = (db: DbOrTx, where: SQL | undefined) =>
  db
    .select(configColumns)
    .from(notificationConfigs)
    .innerJoin(notificationTypes, eq(notificationTypes.id, notificationConfigs.notificationTypeId))
    .where(where)
    .orderBy(asc(notificationTypes.name), asc(notificationConfigs.notificationTypeId), asc(notificationConfigs.consignmentState)) as Promise<ConfigRow[]>;

/** Every account-level config of a customer, with the account's site. */
export async function accountConfigsOf(db: DbOrTx, customerId: number) {
  return db
    .select({ id: notificationConfigs.id, accountId: carrierAccounts.id, siteId: carrierAccounts.siteId, typeId: notificationConfigs.notificationTypeId, state: notificationConfigs.consignmentState, enabled: notificationConfigs.enabled })
    .from(notificationConfigs)
    .innerJoin(carrierAccounts, eq(carrierAccounts.id, notificationConfigs.parentId))
    .innerJoin(sites, eq(sites.id, carrierAccounts.siteId))
    .where(and(eq(notificationConfigs.parentType, "account"), eq(sites.customerId, customerId)));
}
type AccountConfig = Awaited<ReturnType<typeof accountConfigsOf>>[number];

/** The accounts under a customer or a site with a template of their own for this type and state (none under an account). */
export function accountsWithCustomTemplates(parent: Pick<Parent, "type" | "id">, accountConfigs: readonly AccountConfig[], typeId: number, state: string): number[] {
  if (parent.type === "account") return [];
  return accountConfigs.filter((a) => a.typeId === typeId && a.state === state && (parent.type === "customer" || a.siteId === parent.id)).map((a) => a.accountId);
}

const toJson = (r: ConfigRow, accountConfigs: readonly AccountConfig[]): ConfigJson => ({
  id: r.id,
  customer_id: r.customerId,
  parent_type: r.parentType,
  parent_id: r.parentId,
  notification_type: r.notificationTypeId,
  notification_type_name: r.typeName,
  consignment_state: r.consignmentState,
  status: r.enabled,
  template: r.template,
  accounts_with_custom_templates: accountsWithCustomTemplates({ type: r.parentType, id: r.parentId }, accountConfigs, r.notificationTypeId, r.consignmentState),
  updated_at: r.updatedAt.toISOString(),
});

const stateOrder = (s: NotificationTriggerState) => TRIGGER_STATES.indexOf(s);

const ofParent = (parent: Pick<Parent, "type" | "id">) => and(eq(notificationConfigs.parentType, parent.type), eq(notificationConfigs.parentId, parent.id));

/** GET /api/{parentType}/{parentId}/notification_configs: the level's own configs, by type name and state. */
export async function listConfigs(db: DbOrTx, user: CurrentUser, ref: ParentRef): Promise<{ notification_configs: ConfigJson[] }> {
  assertNotificationsUser(user);
  const parent = await findParent(db, ref);
  const [rows, accountConfigs] = await Promise.all([selectConfigs(db, ofParent(parent)), accountConfigsOf(db, parent.customerId)]);
  rows.sort((a, b) => a.typeName.localeCompare(b.typeName) || a.notificationTypeId - b.notificationTypeId || stateOrder(a.consignmentState) - stateOrder(b.consignmentState));
  return { notification_configs: rows.map((r) => toJson(r, accountConfigs)) };
}

async function configOf(db: DbOrTx, parent: Parent, id: number): Promise<ConfigJson> {
  const [row] = await selectConfigs(db, and(ofParent(parent), eq(notificationConfigs.id, id)));
  if (!row) throw new AppError("not_found", MESSAGES.notFound);
  return toJson(row, await accountConfigsOf(db, parent.customerId));
}

/** GET /api/{parentType}/{parentId}/notification_configs/{id}: one of the level's own configs; 404 for another's. */
export async function getConfig(db: DbOrTx, user: CurrentUser, ref: ParentRef, id: number): Promise<ConfigJson> {
  assertNotificationsUser(user);
  return configOf(db, await findParent(db, ref), id);
}

// ---------------------------------------------------------------------------------------------
// Which applies

export interface ResolvedConfig {
  id: number;
  customerId: number;
  parentType: NotificationParent;
  parentId: number;
  notificationTypeId: number;
  consignmentState: NotificationTriggerState;
  /** false: turned off at this level, so nothing is sent (the levels above are not asked) */
  enabled: boolean;
  template: string;
}

// the ranking is resolve.ts's, shared with the sending
export { mostSpecific, type Placement };

/**
 * The config that applies at (customer, site, account) for each notification type and trigger
 * state (or only `only`'s): the most specific one. A disabled one is returned too and wins: a
 * site or account that turned a notification off is not sent its customer's. Answers are ordered
 * by type id, then the trigger states' order. No user check: for the sending, not for callers.
 */
export async function resolveConfigs(
  db: DbOrTx,
  at: Placement,
  only: { notificationTypeId?: number; consignmentState?: NotificationTriggerState } = {},
): Promise<ResolvedConfig[]> {
  const levels = [and(eq(notificationConfigs.parentType, "customer"), eq(notificationConfigs.parentId, at.customerId))];
  if (at.siteId != null) levels.push(and(eq(notificationConfigs.parentType, "site"), eq(notificationConfigs.parentId, at.siteId)));
  if (at.carrierAccountId != null) levels.push(and(eq(notificationConfigs.parentType, "account"), eq(notificationConfigs.parentId, at.carrierAccountId)));
  const rows = await db
    .select({
      id: notificationConfigs.id,
      customerId: notificationConfigs.customerId,
      parentType: notificationConfigs.parentType,
      parentId: notificationConfigs.parentId,
      notificationTypeId: notificationConfigs.notificationTypeId,
      consignmentState: notificationConfigs.consignmentState,
      enabled: notificationConfigs.enabled,
      template: notificationConfigs.template,
    })
    .from(notificationConfigs)
    .where(
      and(
        eq(notificationConfigs.customerId, at.customerId),
        or(...levels),
        only.notificationTypeId !== undefined ? eq(notificationConfigs.notificationTypeId, only.notificationTypeId) : undefined,
        only.consignmentState !== undefined ? eq(notificationConfigs.consignmentState, only.consignmentState) : undefined,
      ),
    );
  return mostSpecific(rows, at).sort((a, b) => a.notificationTypeId - b.notificationTypeId || stateOrder(a.consignmentState) - stateOrder(b.consignmentState));
}

// ---------------------------------------------------------------------------------------------
// Writing

function sqlState(error: unknown): string | null {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return null;
}

const invalid = (errors: FieldErrors) => new AppError("invalid", Object.values(errors)[0]![0]!, errors);

/** A write that lost a race (a type deleted meanwhile, the same level and key saved meanwhile) is the caller's field error, not a 500. */
async function writing<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const code = sqlState(error);
    if (code === "23503") throw invalid({ notification_type: [MESSAGES.unknownType] });
    if (code === "23505") throw invalid({ consignment_state: [MESSAGES.taken] });
    throw error;
  }
}

interface Checked {
  typeId: number;
  state: NotificationTriggerState;
  enabled: boolean;
  html: string;
}

/**
 * The input as it will be stored: the type exists, the template passes (sanitised), and the
 * accounts chosen (when `selected` is given, at a customer or a site) are among those under the
 * level with templates of their own, at least one while there are any. Every field's error at once.
 */
async function check(
  db: DbOrTx,
  parent: Pick<Parent, "type" | "id" | "customerId">,
  input: { notification_type: number; consignment_state: NotificationTriggerState; status: boolean; template: string },
  selected: readonly number[] | undefined,
): Promise<Checked & { accounts: number[] }> {
  const errors: FieldErrors = {};
  const [type] = await db.select({ id: notificationTypes.id }).from(notificationTypes).where(eq(notificationTypes.id, input.notification_type));
  if (!type) errors.notification_type = [MESSAGES.unknownType];
  const template = checkTemplate(input.template);
  if (!template.ok) errors.template = [template.message];
  const custom = accountsWithCustomTemplates(parent, await accountConfigsOf(db, parent.customerId), input.notification_type, input.consignment_state);
  if (parent.type === "account" && selected?.length) errors.selected_account_ids = ["Accounts are chosen at a customer or a site"];
  else if (selected && custom.length && !selected.length) errors.selected_account_ids = [MESSAGES.chooseAccounts];
  else if (selected?.some((id) => !custom.includes(id))) errors.selected_account_ids = [MESSAGES.notCustomAccount];
  if (!template.ok || Object.keys(errors).length) throw invalid(errors);
  return { typeId: input.notification_type, state: input.consignment_state, enabled: input.status, html: template.html, accounts: [...new Set(selected ?? [])] };
}

/** Inserts or replaces a level's template for the type and state. */
async function upsert(db: DbOrTx, user: CurrentUser, parent: Pick<Parent, "type" | "id" | "customerId">, c: Checked): Promise<number> {
  const [row] = await db
    .insert(notificationConfigs)
    .values({ customerId: parent.customerId, parentType: parent.type, parentId: parent.id, notificationTypeId: c.typeId, consignmentState: c.state, enabled: c.enabled, template: c.html, updatedBy: user.id })
    .onConflictDoUpdate({
      target: [notificationConfigs.parentType, notificationConfigs.parentId, notificationConfigs.notificationTypeId, notificationConfigs.consignmentState],
      set: { enabled: c.enabled, template: c.html, updatedBy: user.id, updatedAt: new Date() },
    })
    .returning({ id: notificationConfigs.id });
  return row!.id;
}

/** The same change on the chosen accounts' own templates. */
async function applyToAccounts(db: DbOrTx, user: CurrentUser, customerId: number, accountIds: readonly number[], c: Checked): Promise<void> {
  for (const id of accountIds) await upsert(db, user, { type: "account", id, customerId }, c);
}

export interface SaveResult {
  config: ConfigJson;
  /** the accounts whose own templates took the change too */
  applied_to_accounts: number[];
  created: boolean;
}

/**
 * Saves a level's template for a type and state, creating or replacing it (the screens; `mode`
 * "create" refuses one that exists, as POST does). At a customer or a site, `selected_account_ids`
 * (when given) applies the change to those accounts' own templates too: while accounts have their
 * own, at least one must be chosen. In one transaction: all of it, or none.
 */
export async function saveConfig(db: DbOrTx, user: CurrentUser, ref: ParentRef, raw: unknown, mode: "upsert" | "create" = "upsert"): Promise<SaveResult> {
  assertNotificationsUser(user);
  const parent = await findParent(db, ref);
  const input = parseOrThrow(configSchema, raw ?? {});
  const c = await check(db, parent, input, input.selected_account_ids);
  return writing(() =>
    db.transaction(async (tx) => {
      const [existing] = await tx.select({ id: notificationConfigs.id }).from(notificationConfigs).where(and(ofParent(parent), eq(notificationConfigs.notificationTypeId, c.typeId), eq(notificationConfigs.consignmentState, c.state)));
      if (existing && mode === "create") throw new AppError("conflict", MESSAGES.taken, { consignment_state: [MESSAGES.taken] });
      const id = await upsert(tx, user, parent, c);
      await applyToAccounts(tx, user, parent.customerId, c.accounts, c);
      return { config: await configOf(tx, parent, id), applied_to_accounts: c.accounts, created: !existing };
    }),
  );
}

/**
 * PUT (or POST) /api/{parentType}/{parentId}/notification_configs/{id}: changes one of the level's
 * own configs; the fields given replace its own. A type and state another of its configs has: 422.
 */
export async function updateConfig(db: DbOrTx, user: CurrentUser, ref: ParentRef, id: number, raw: unknown): Promise<SaveResult> {
  assertNotificationsUser(user);
  const parent = await findParent(db, ref);
  const current = await configOf(db, parent, id);
  const change = parseOrThrow(configChangeSchema, raw ?? {});
  const input = {
    notification_type: change.notification_type ?? current.notification_type,
    consignment_state: change.consignment_state ?? current.consignment_state,
    status: change.status ?? current.status,
    template: change.template ?? current.template,
  };
  const c = await check(db, parent, input, change.selected_account_ids);
  return writing(() =>
    db.transaction(async (tx) => {
      const [updated] = await tx
        .update(notificationConfigs)
        .set({ notificationTypeId: c.typeId, consignmentState: c.state, enabled: c.enabled, template: c.html, updatedBy: user.id, updatedAt: new Date() })
        .where(and(ofParent(parent), eq(notificationConfigs.id, id)))
        .returning({ id: notificationConfigs.id });
      if (!updated) throw new AppError("not_found", MESSAGES.notFound);
      await applyToAccounts(tx, user, parent.customerId, c.accounts, c);
      return { config: await configOf(tx, parent, id), applied_to_accounts: c.accounts, created: false };
    }),
  );
}

/** DELETE /api/{parentType}/{parentId}/notification_configs/{id}: the level's own template goes; the one above applies again. */
export async function deleteConfig(db: DbOrTx, user: CurrentUser, ref: ParentRef, id: number): Promise<{ id: number; deleted: true }> {
  assertNotificationsUser(user);
  const parent = await findParent(db, ref);
  const [row] = await db.delete(notificationConfigs).where(and(ofParent(parent), eq(notificationConfigs.id, id))).returning({ id: notificationConfigs.id });
  if (!row) throw new AppError("not_found", MESSAGES.notFound);
  return { id: row.id, deleted: true };
}

/**
 * PUT /api/customers/{id}/update_account_notifications: a customer's change (type, state, status,
 * template) applied to the chosen accounts' own templates too. The accounts with templates of
 * their own are the server's to know (`custom_accounts` is what the caller was shown); while there
 * are any, at least one must be chosen, and only those may be.
 */
export async function updateAccountNotifications(db: DbOrTx, user: CurrentUser, customerId: number, raw: unknown): Promise<{ updated: number[]; notification_configs: ConfigJson[] }> {
  assertNotificationsUser(user);
  const parent = await findParent(db, { type: "customer", id: customerId });
  const input = parseOrThrow(accountNotificationsSchema, raw ?? {});
  const c = await check(db, parent, input, input.selected_account_ids);
  const accounts = c.accounts;
  return writing(() =>
    db.transaction(async (tx) => {
      await applyToAccounts(tx, user, parent.customerId, accounts, c);
      const rows = accounts.length
        ? await selectConfigs(
            tx,
            and(eq(notificationConfigs.parentType, "account"), inArray(notificationConfigs.parentId, accounts), eq(notificationConfigs.notificationTypeId, c.typeId), eq(notificationConfigs.consignmentState, c.state)),
          )
        : [];
      return { updated: accounts, notification_configs: rows.map((r) => toJson(r, [])) };
    }),
  );
}
