/**
 * The notification preferences screens (spec 2 /{parentType}/{parentId}/notification_configs/):
 * what a level's page shows for one notification type and trigger state (its own template, the
 * one it inherits, where each site and account stands) and what its form posts do. The screens'
 * routes stay thin: parse, call here, respond.
 */
import { data, redirect, type AppLoadContext, type LoaderFunctionArgs } from "@remix-run/node";
import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carrierAccounts, carriers, notificationConfigs, notificationTypes, sites } from "../../../db/schema";
import type { NotificationParent, NotificationTriggerState } from "../../../db/schema/notifications";
import type { Alert } from "../../components/Alerts";
import type { CurrentUser } from "../auth/current-user.server";
import { requireStaff, type Signed } from "../auth/guard.server";
import { canViewNotifications } from "../auth/roles";
import { AppError, type FieldErrors } from "../../utils/errors";
import { readPageForm } from "../../utils/http.server";
import { throwIfAccessError } from "../../utils/ui.server";
import { MESSAGES, preferencesPath, TRIGGER_STATES, type ConfigJson } from "./configs";
import { assertNotificationsUser, deleteConfig, findParent, getConfig, saveConfig, type Parent, type ParentRef } from "./configs.server";
import { TEMPLATE_TAGS } from "../templates/tags";

/** Devs, super admins and admins; everyone else (customer service too, whom the path rule lets in) goes to "/". */
export async function requirePreferencesUser(context: AppLoadContext, request: Request): Promise<Signed> {
  const signed = await requireStaff(context, request);
  if (!canViewNotifications(signed.user)) throw redirect("/");
  return signed;
}

/** A level of the customer as the screen lists it, with what applies there for the chosen notification. */
export interface LevelView {
  type: NotificationParent;
  id: number;
  label: string;
  path: string;
  /** 0 the customer, 1 a site, 2 a carrier account */
  depth: number;
  /** the level whose template applies here, or null when none does (nothing is sent) */
  applies: { type: NotificationParent; label: string; enabled: boolean } | null;
  active: boolean;
}

export interface PreferencesPageData {
  parent: { type: NotificationParent; id: number; label: string; customerId: number; customerName: string; siteId: number | null; siteName: string | null };
  path: string;
  types: Array<{ id: number; name: string; field_name: "email" | "phone"; max_length: number | null }>;
  selected: { typeId: number; typeName: string; state: NotificationTriggerState } | null;
  own: ConfigJson | null;
  /** what applies here without a template of the level's own: the nearest level above with one */
  inherited: { type: NotificationParent; label: string; path: string; enabled: boolean; template: string } | null;
  /** at a customer or a site: the accounts under it with their own template for this type and state */
  customAccounts: Array<{ id: number; label: string; siteName: string; enabled: boolean; path: string }>;
  levels: LevelView[];
  /** every template this level has of its own */
  setHere: Array<{ typeId: number; typeName: string; state: NotificationTriggerState; enabled: boolean }>;
  tags: readonly string[];
}

const isState = (s: string | null): s is NotificationTriggerState => (TRIGGER_STATES as readonly string[]).includes(s ?? "");

/** Everything a level's page shows for the type and state chosen in its query (`type`, `state`; the first type and despatched by default). */
export async function preferencesPage(db: DbOrTx, user: CurrentUser, ref: ParentRef, query: URLSearchParams): Promise<PreferencesPageData> {
  assertNotificationsUser(user);
  const parent = await findParent(db, ref);
  const [types, siteRows, accountRows, ownRows] = await Promise.all([
    db.select({ id: notificationTypes.id, name: notificationTypes.name, field_name: notificationTypes.fieldName, max_length: notificationTypes.maxLength }).from(notificationTypes).orderBy(asc(notificationTypes.name), asc(notificationTypes.id)),
    db.select({ id: sites.id, name: sites.name }).from(sites).where(eq(sites.customerId, parent.customerId)).orderBy(asc(sites.name), asc(sites.id)),
    db
      .select({ id: carrierAccounts.id, siteId: carrierAccounts.siteId, number: carrierAccounts.accountNumber, carrier: carriers.name, active: carrierAccounts.active })
      .from(carrierAccounts)
      .innerJoin(sites, eq(sites.id, carrierAccounts.siteId))
      .innerJoin(carriers, eq(carriers.id, carrierAccounts.carrierId))
      .where(eq(sites.customerId, parent.customerId))
      .orderBy(asc(carriers.name), asc(carrierAccounts.accountNumber), asc(carrierAccounts.id)),
    db
      .select({ typeId: notificationConfigs.notificationTypeId, typeName: notificationTypes.name, state: notificationConfigs.consignmentState, enabled: notificationConfigs.enabled })
      .from(notificationConfigs)
      .innerJoin(notificationTypes, eq(notificationTypes.id, notificationConfigs.notificationTypeId))
      .where(and(eq(notificationConfigs.parentType, parent.type), eq(notificationConfigs.parentId, parent.id))),
  ]);
  const order = (s: NotificationTriggerState) => TRIGGER_STATES.indexOf(s);
  const setHere = ownRows.sort((a, b) => a.typeName.localeCompare(b.typeName) || a.typeId - b.typeId || order(a.state) - order(b.state));
  const base = {
    parent: { type: parent.type, id: parent.id, label: parent.label, customerId: parent.customerId, customerName: parent.customerName, siteId: parent.siteId, siteName: parent.siteName },
    path: pathOf(parent),
    types,
    setHere,
    tags: TEMPLATE_TAGS,
  };
  const wanted = Number(query.get("type"));
  const type = types.find((t) => t.id === wanted) ?? types[0];
  if (!type) return { ...base, selected: null, own: null, inherited: null, customAccounts: [], levels: [] };
  const state = isState(query.get("state")) ? (query.get("state") as NotificationTriggerState) : "despatched";

  // every template of this customer for the type and state: one per level at most
  const configs = await db
    .select({ id: notificationConfigs.id, parentType: notificationConfigs.parentType, parentId: notificationConfigs.parentId, enabled: notificationConfigs.enabled, template: notificationConfigs.template })
    .from(notificationConfigs)
    .where(and(eq(notificationConfigs.customerId, parent.customerId), eq(notificationConfigs.notificationTypeId, type.id), eq(notificationConfigs.consignmentState, state)));
  const at = (t: NotificationParent, id: number | null) => (id == null ? undefined : configs.find((c) => c.parentType === t && c.parentId === id));
  const siteName = new Map(siteRows.map((s) => [s.id, s.name]));
  const accountLabel = (a: (typeof accountRows)[number]) => `${a.carrier} ${a.number}`;
  const customerConfig = at("customer", parent.customerId);

  /** The template that applies at a level: its own, else its site's, else its customer's. */
  const applying = (siteId: number | null, accountId: number | null): LevelView["applies"] => {
    const account = at("account", accountId);
    if (account) return { type: "account", label: "its own", enabled: account.enabled };
    const site = at("site", siteId);
    if (site) return { type: "site", label: accountId ? `the site's (${siteName.get(siteId!)})` : "its own", enabled: site.enabled };
    if (customerConfig) return { type: "customer", label: siteId ? `the customer's (${parent.customerName})` : "its own", enabled: customerConfig.enabled };
    return null;
  };

  const levels: LevelView[] = [{ type: "customer", id: parent.customerId, label: parent.customerName, path: preferencesPath(parent.customerId), depth: 0, applies: applying(null, null), active: true }];
  for (const s of siteRows) {
    levels.push({ type: "site", id: s.id, label: s.name, path: preferencesPath(parent.customerId, s.id), depth: 1, applies: applying(s.id, null), active: true });
    for (const a of accountRows.filter((r) => r.siteId === s.id)) {
      levels.push({ type: "account", id: a.id, label: accountLabel(a), path: preferencesPath(parent.customerId, s.id, a.id), depth: 2, applies: applying(s.id, a.id), active: a.active });
    }
  }

  const ownRow = at(parent.type, parent.id);
  const own = ownRow ? await getConfig(db, user, ref, ownRow.id) : null;
  let inherited: PreferencesPageData["inherited"] = null;
  const siteConfig = parent.type === "account" ? at("site", parent.siteId) : undefined;
  if (siteConfig) inherited = { type: "site", label: parent.siteName!, path: preferencesPath(parent.customerId, parent.siteId), enabled: siteConfig.enabled, template: siteConfig.template };
  else if (parent.type !== "customer" && customerConfig) {
    inherited = { type: "customer", label: parent.customerName, path: preferencesPath(parent.customerId), enabled: customerConfig.enabled, template: customerConfig.template };
  }

  const customAccounts = accountRows
    .filter((a) => parent.type === "customer" || (parent.type === "site" && a.siteId === parent.id))
    .flatMap((a) => {
      const c = at("account", a.id);
      return c ? [{ id: a.id, label: accountLabel(a), siteName: siteName.get(a.siteId) ?? "", enabled: c.enabled, path: preferencesPath(parent.customerId, a.siteId, a.id) }] : [];
    });

  return { ...base, selected: { typeId: type.id, typeName: type.name, state }, own, inherited, customAccounts, levels };
}

const pathOf = (p: Parent) => preferencesPath(p.customerId, p.siteId, p.type === "account" ? p.id : null);

export interface PreferencesActionData {
  ok: boolean;
  alerts: Alert[];
  errors?: FieldErrors;
  /** what was posted, shown again after a refusal (the form works without JavaScript) */
  values?: { template: string; status: boolean; selected_account_ids: number[] };
}

const text = (form: FormData, name: string) => {
  const v = form.get(name);
  return typeof v === "string" ? v : "";
};

/**
 * A level's form: `intent` save (type, state, status, template and, at a customer or site, the
 * accounts chosen to take the change too: none chosen is sent as none) or remove (the level's own
 * template goes, the one above applies again).
 */
export async function preferencesAction(db: DbOrTx, user: CurrentUser, ref: ParentRef, form: FormData): Promise<{ status: number; data: PreferencesActionData }> {
  const intent = text(form, "intent");
  const selected = form.getAll("selected_account_ids").filter((v): v is string => typeof v === "string");
  const values = { template: text(form, "template"), status: text(form, "status") === "enabled", selected_account_ids: selected.map(Number).filter(Number.isSafeInteger) };
  try {
    if (intent === "remove") {
      await deleteConfig(db, user, ref, Number(text(form, "config_id")) || 0);
      const message = ref.type === "customer" ? "The customer's template was removed: sites and accounts with their own keep theirs." : MESSAGES.removed;
      return { status: 200, data: { ok: true, alerts: [{ type: "success", message }] } };
    }
    const result = await saveConfig(db, user, ref, {
      notification_type: text(form, "notification_type"),
      consignment_state: text(form, "consignment_state"),
      status: values.status,
      template: values.template,
      // an account has no accounts under it; at a customer or a site, none ticked is a choice of none
      ...(ref.type === "account" ? {} : { selected_account_ids: selected }),
    });
    const also = result.applied_to_accounts.length;
    const message = also ? `${MESSAGES.saved} Also applied to ${also} ${also === 1 ? "account" : "accounts"}.` : MESSAGES.saved;
    return { status: 200, data: { ok: true, alerts: [{ type: "success", message }] } };
  } catch (error) {
    if (!(error instanceof AppError) || error.code === "forbidden" || (error.code === "not_found" && intent !== "remove")) throw error;
    return { status: error.status, data: { ok: false, alerts: [{ type: "error", message: MESSAGES.saveFailed }], errors: error.fieldErrors, values } };
  }
}

/**
 * The three preferences routes (customer, site, account) differ only in the parent their path
 * names: their loader and action, given how to read it. Call these inside the route's exported
 * functions (the browser bundle keeps module-level calls, and this module is empty there).
 */
type Params = LoaderFunctionArgs["params"];

export const preferencesRoute = (refOf: (params: Params) => ParentRef) => ({
  async loader({ request, context, params }: { request: Request; context: AppLoadContext; params: Params }) {
    const { user } = await requirePreferencesUser(context, request);
    try {
      return await preferencesPage(context.db, user, refOf(params), new URL(request.url).searchParams);
    } catch (e) {
      throwIfAccessError(e);
      throw e;
    }
  },
  /** intent=save (the template, and at a customer or site the accounts chosen to take it too) or intent=remove */
  async action({ request, context, params }: { request: Request; context: AppLoadContext; params: Params }) {
    const { user } = await requirePreferencesUser(context, request);
    const ref = refOf(params);
    const form = await readPageForm(request);
    try {
      const result = await preferencesAction(context.db, user, ref, form);
      return data(result.data, { status: result.status });
    } catch (e) {
      throwIfAccessError(e);
      throw e;
    }
  },
});
