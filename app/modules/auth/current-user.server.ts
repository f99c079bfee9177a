import { eq, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { DbOrTx } from "../../../db/client.server";
import { customers, sessions, sites, users, userSites, type CustomerOptions, type UserOptions } from "../../../db/schema";
import type { RoleName } from "../../../db/schema/users";
import { canPostTrackingEvents, isAdmin, type AccessSubject } from "./roles";
import { effectiveView } from "../invoices/access";
import { preparedFor } from "../../utils/prepared.server";
import { resolveClock, type ClockInputs, type UserClock } from "../calendar/user-clock";

export const DEFAULT_SESSION_TIMEOUT_MINUTES = 720;

export interface SiteSummary {
  id: number;
  name: string;
  code: string;
  som: "metric" | "imperial";
  country: string;
  region: string | null;
  /** IANA zone: the site's "today" and its times (calendar/site-time.ts) */
  timezone: string | null;
  csPhoneNumber: string | null;
}

export interface CustomerSummary {
  id: number;
  code: string;
  name: string;
  status: "LIVE" | "TEST" | "DISABLED";
  options: CustomerOptions;
  specialInstructions: string | null;
  customConsignmentReferenceType: "text" | "dropdown_generic" | "dropdown_charge_site";
  customConsignmentReferenceLabel: string | null;
  printDeclarations: boolean;
}

/**
 * The signed-in user as every loader, action and /api route sees it. `customer` is the
 * customer the user is working in (staff may have switched), and every tenant query is
 * scoped by `customer.id` and, for despatchers, `siteIds`.
 */
export interface CurrentUser extends AccessSubject {
  id: number;
  email: string;
  fullName: string;
  firstName: string;
  phoneNumber: string | null;
  role: RoleName;
  superDespatcher: boolean;
  despatcherOnly: boolean;
  canBook: boolean;
  canEditRecipients: boolean;
  canExport: boolean;
  canReconcile: boolean;
  canBulkupload: boolean;
  canBulkquote: boolean;
  /** may post carriers' tracking events for the customer's consignments (staff always may) */
  canPostTrackingEvents: boolean;
  passwordResetRequired: boolean;
  authenticationToken: string | null;
  options: UserOptions;
  view: "DESPATCHER" | "FINANCE";
  homeCustomerId: number;
  customer: CustomerSummary;
  /** sites of the working customer this user may send from */
  sites: SiteSummary[];
  siteIds: number[];
  defaultSiteId: number | null;
  /** the time zone and date format every date this user reads or types goes through (user-clock.ts) */
  clock: UserClock;
  /** the clock's inputs, for the profile and the user form's "Default (…)" */
  clockInputs: ClockInputs;
}

export function customerStatus(c: { disabled: boolean; testAccount: boolean }): CustomerSummary["status"] {
  if (c.disabled) return "DISABLED";
  return c.testAccount ? "TEST" : "LIVE";
}

export function sessionTimeoutMinutes(options: CustomerOptions): number {
  const t = options.session_timeout;
  return typeof t === "number" && Number.isFinite(t) && t >= 1 ? t : DEFAULT_SESSION_TIMEOUT_MINUTES;
}

/** Roles that work in a switched customer; mirrors `isAdmin` for use inside SQL. */
const STAFF_ROLES = ["devs", "super_admin", "admin", "customer_service"];

const STAFF_IN = sql.join(
  STAFF_ROLES.map((r) => sql`${r}`),
  sql`, `,
);

// the user load's statements, prepared once per database handle (it runs on every request)
const statements = preparedFor((db) => {
  const home = alias(customers, "home_customer");
  const workingCustomerId = sql`case when ${users.role} in (${STAFF_IN}) and ${users.currentCustomerId} is not null then ${users.currentCustomerId} else ${users.customerId} end`;
  // staff see every active site of the customer they work in; despatchers only their assigned ones
  const sitesOf = sql<SiteSummary[]>`(
    select coalesce(json_agg(json_build_object('id', s.id, 'name', s.name, 'code', s.code, 'som', s.som, 'country', s.country,
      'region', s.region, 'timezone', s.timezone, 'csPhoneNumber', s.cs_phone_number) order by s.name), '[]'::json)
    from ${sites} s
    where s.customer_id = ${customers.id} and s.active
      and (${users.role} in (${STAFF_IN}) or s.id in (select us.site_id from ${userSites} us where us.user_id = ${users.id})))`;
  // only what CurrentUser carries: never the password hash, on every request
  const user = {
    id: users.id,
    email: users.email,
    fullName: users.fullName,
    phoneNumber: users.phoneNumber,
    role: users.role,
    superDespatcher: users.superDespatcher,
    despatcherOnly: users.despatcherOnly,
    canBook: users.canBook,
    canEditRecipients: users.canEditRecipients,
    canExport: users.canExport,
    canReconcile: users.canReconcile,
    canBulkupload: users.canBulkupload,
    canBulkquote: users.canBulkquote,
    canPostTrackingEvents: users.canPostTrackingEvents,
    passwordResetRequired: users.passwordResetRequired,
    authenticationToken: users.authenticationToken,
    options: users.options,
    customerId: users.customerId,
    defaultSiteId: users.defaultSiteId,
    disabled: users.disabled,
    timezone: users.timezone,
    dateFormat: users.dateFormat,
  };
  // the clock's site: the default site wherever it is (a staff user's may be of their home customer),
  // else a despatcher's first own site; never a staff user's first site of the working customer
  const clockSite = sql<{ timezone: string | null; country: string | null } | null>`(
    select json_build_object('timezone', s.timezone, 'country', s.country) from ${sites} s
    where s.id = coalesce(${users.defaultSiteId}, (select min(us.site_id) from ${userSites} us where us.user_id = ${users.id} and ${users.role} not in (${STAFF_IN}))))`;
  const customer = {
    id: customers.id,
    code: customers.code,
    name: customers.name,
    disabled: customers.disabled,
    testAccount: customers.testAccount,
    options: customers.options,
    specialInstructions: customers.specialInstructions,
    customConsignmentReferenceType: customers.customConsignmentReferenceType,
    customConsignmentReferenceLabel: customers.customConsignmentReferenceLabel,
    printDeclarations: customers.printDeclarations,
  };
  const fields = { user, customer, homeCustomer: { disabled: home.disabled, options: home.options, billingAddress: home.billingAddress }, sites: sitesOf, clockSite };
  // the working customer (a staff user's switch) and the home customer, whose state rules access
  const ofWorkingCustomer = eq(customers.id, workingCustomerId);
  const ofHomeCustomer = eq(home.id, users.customerId);
  const userWhere = (where: SQL) => db.select(fields).from(users).innerJoin(customers, ofWorkingCustomer).innerJoin(home, ofHomeCustomer).where(where);
  return {
    byUserId: userWhere(eq(users.id, sql.placeholder("userId"))).prepare("current_user"),
    byToken: userWhere(eq(users.authenticationToken, sql.placeholder("token"))).prepare("current_user_by_token"),
    bySession: db
      .select({ ...fields, session: sessions })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .innerJoin(customers, ofWorkingCustomer)
      .innerJoin(home, ofHomeCustomer)
      .where(eq(sessions.id, sql.placeholder("sessionId")))
      .prepare("current_user_by_session"),
  };
});

type UserRow = Awaited<ReturnType<ReturnType<typeof statements>["byUserId"]["execute"]>>[number];

/** The signed-in user in one query (user, working customer, sites): this runs on every request. */
export async function loadCurrentUser(db: DbOrTx, userId: number): Promise<CurrentUser | null> {
  const [row] = await statements(db).byUserId.execute({ userId });
  return row ? toCurrentUser(row) : null;
}

/** The user of an API caller's `authentication_token` (Bearer), in the same one query. */
export async function loadCurrentUserByToken(db: DbOrTx, token: string): Promise<CurrentUser | null> {
  const [row] = await statements(db).byToken.execute({ token });
  return row ? toCurrentUser(row) : null;
}

/**
 * A session with its user, in the same one query: what every browser request needs before any
 * work. `user` is null when the user may not sign in (see toCurrentUser); the session's rules are
 * sessions.server's.
 */
export interface SessionWithUser {
  session: typeof sessions.$inferSelect;
  homeCustomerOptions: CustomerOptions;
  user: CurrentUser | null;
}

export async function loadSessionWithUser(db: DbOrTx, sessionId: string): Promise<SessionWithUser | null> {
  const [row] = await statements(db).bySession.execute({ sessionId });
  return row ? { session: row.session, homeCustomerOptions: row.homeCustomer.options ?? {}, user: toCurrentUser(row) } : null;
}

function toCurrentUser({ user, customer, homeCustomer, sites: siteRows, clockSite }: UserRow): CurrentUser | null {
  // disabled users and users of a disabled customer have no access (sessions or tokens); a sign-in
  // lock refuses new sign-ins only, so a stranger's wrong guesses cannot sign the user out
  if (user.disabled || homeCustomer.disabled) return null;
  const options = user.options ?? {};
  const clockInputs: ClockInputs = { own: { timezone: user.timezone, dateFormat: user.dateFormat }, site: clockSite, customerCountry: homeCustomer.billingAddress?.country ?? null };
  return {
    id: user.id,
    email: user.email,
    fullName: user.fullName,
    firstName: user.fullName.trim().split(/\s+/)[0] ?? user.fullName,
    phoneNumber: user.phoneNumber,
    role: user.role,
    superDespatcher: user.superDespatcher,
    despatcherOnly: user.despatcherOnly,
    canBook: user.canBook,
    canEditRecipients: user.canEditRecipients,
    canExport: user.canExport,
    canReconcile: user.canReconcile,
    canBulkupload: user.canBulkupload,
    canBulkquote: user.canBulkquote,
    canPostTrackingEvents: user.canPostTrackingEvents,
    passwordResetRequired: user.passwordResetRequired,
    authenticationToken: user.authenticationToken,
    options,
    // a preference, never a permission: FINANCE stored without finance permission counts as DESPATCHER (decision 022)
    view: effectiveView(user, options.view),
    homeCustomerId: user.customerId,
    customer: {
      id: customer.id,
      code: customer.code,
      name: customer.name,
      status: customerStatus(customer),
      options: customer.options ?? {},
      specialInstructions: customer.specialInstructions,
      customConsignmentReferenceType: customer.customConsignmentReferenceType,
      customConsignmentReferenceLabel: customer.customConsignmentReferenceLabel,
      printDeclarations: customer.printDeclarations,
    },
    sites: siteRows,
    siteIds: siteRows.map((s) => s.id),
    defaultSiteId: user.defaultSiteId,
    clock: resolveClock(clockInputs),
    clockInputs,
  };
}

/** The User object of spec 1 section 3, as GET /api/users/current and sign-in answer it. */
export function currentUserJson(u: CurrentUser) {
  return {
    id: u.id,
    email: u.email,
    full_name: u.fullName,
    phone_number: u.phoneNumber,
    country: u.sites.find((s) => s.id === u.defaultSiteId)?.country ?? u.sites[0]?.country ?? "AUSTRALIA",
    sites: u.sites.map((s) => ({
      id: s.id,
      name: s.name,
      code: s.code,
      cs_phone_number: s.csPhoneNumber,
      som: s.som,
    })),
    customer: {
      id: u.customer.id,
      name: u.customer.name,
      code: u.customer.code,
      status: u.customer.status,
      special_instructions: u.customer.specialInstructions,
      custom_consignment_reference_type: u.customer.customConsignmentReferenceType,
      customer_options: { global_recipients: Boolean(u.customer.options.global_recipients) },
      print_declarations: u.customer.printDeclarations,
    },
    roles: [{ name: u.role }],
    is_admin: isAdmin(u),
    is_super_admin: u.role === "devs" || u.role === "super_admin",
    is_devs: u.role === "devs",
    is_customer_service: u.role === "customer_service",
    is_super_despatcher: u.superDespatcher,
    is_despatcher_only: u.despatcherOnly,
    user_options: u.options,
    can_book: u.canBook,
    can_edit_recipients: u.canEditRecipients || Boolean(u.customer.options.all_users_can_edit_recipients),
    can_export: u.canExport,
    can_reconcile: u.canReconcile,
    can_bulkupload: u.canBulkupload,
    can_bulkquote: u.canBulkquote,
    can_post_tracking_events: canPostTrackingEvents(u),
    password_reset_required: u.passwordResetRequired,
    address_types: ["business", "residential"],
  };
}
