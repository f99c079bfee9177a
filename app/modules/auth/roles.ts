/**
 * Role helpers (spec 3 section 6, spec 1 section 6, spec 2 section 6) and route access
 * (spec 1 and 3 section 2). The one place these rules live: loaders, actions, /api routes
 * and the UI all ask here. Pure, so the browser bundle uses it too.
 */
import type { RoleName } from "../../../db/schema/users";

export type { RoleName };

/** The part of a user the rules read. */
export interface AccessSubject {
  role: RoleName;
  superDespatcher?: boolean;
  despatcherOnly?: boolean;
  canBook?: boolean;
  canExport?: boolean;
  canReconcile?: boolean;
  canBulkupload?: boolean;
  canBulkquote?: boolean;
  canPostTrackingEvents?: boolean;
  passwordResetRequired?: boolean;
  view?: "DESPATCHER" | "FINANCE";
}

/** Super admin = devs or super_admin. */
export const isSuperAdmin = (u: AccessSubject) => u.role === "devs" || u.role === "super_admin";

/** Admin = super admin, admin or customer_service (also the "team view" of spec 2). */
export const isAdmin = (u: AccessSubject) => isSuperAdmin(u) || u.role === "admin" || u.role === "customer_service";

/** Admin-or-super-admin = the admin or super_admin role only. */
export const isAdminOrSuperAdmin = (u: AccessSubject) => u.role === "admin" || u.role === "super_admin";

/** Super despatcher or above = super_despatcher flag, admin or super admin. */
export const isSuperDespatcherOrAbove = (u: AccessSubject) => Boolean(u.superDespatcher) || isAdmin(u);

/** Customer service role check = admin or customer_service. */
export const isCustomerServiceRole = (u: AccessSubject) => u.role === "admin" || u.role === "customer_service";

export const isDevs = (u: AccessSubject) => u.role === "devs";

/**
 * The provider's buy price, lane and markups (docs/decisions/009): the provider's staff and finance
 * users (can_reconcile) only; everyone else sees what they pay.
 */
export const canSeeBuyCosts = (u: AccessSubject) => isAdmin(u) || Boolean(u.canReconcile);

/**
 * Carriers' tracking events (POST /api/tracking_events): staff, for every customer's consignments,
 * and users given can_post_tracking_events (a customer's carrier feed), for their customer's.
 */
export const canPostTrackingEvents = (u: AccessSubject) => isAdmin(u) || Boolean(u.canPostTrackingEvents);

/**
 * Webhooks (docs/decisions/039): staff for any customer, and a customer's admins (its super
 * despatchers, the customer's lead users) for their own customer.
 */
export const canManageWebhooks = (u: AccessSubject) => isAdmin(u) || Boolean(u.superDespatcher);

/** Staff may switch customer and see the customer list on home. */
export const canSwitchCustomer = isAdmin;

/** Notifications are viewed by devs, super_admin and admin. */
export const canViewNotifications = (u: AccessSubject) => u.role === "devs" || u.role === "super_admin" || u.role === "admin";

/** The consignment information button: admin, super_admin and devs. */
export const canSeeConsignmentInformation = canViewNotifications;

/** Zones may be saved by admin, super_admin or devs; the same rule guards site service updates. */
export const canSaveZones = canViewNotifications;
export const canUpdateSiteServices = canSaveZones;

/** Charge account of a failed despatch: admin or super admin (devs count as super admin). */
export const canEditFailedChargeAccount = (u: AccessSubject) => u.role === "admin" || isSuperAdmin(u);

/** Admins (incl. customer service) may always cancel despatched consignments. */
export const canAlwaysCancel = isAdmin;

/** Home page admin buttons (spec 2 "Home (admin part)"). */
export const homeButtons = {
  zones: isAdmin,
  rateEditor: isAdmin,
  notificationTypes: isSuperAdmin,
  /** the working customer's notification preferences (spec 2 section 6: the notifications view) */
  notificationPreferences: canViewNotifications,
  notices: (u: AccessSubject) => isAdmin(u) && u.role !== "customer_service",
  manageTracking: (u: AccessSubject) => u.role === "admin" || isSuperAdmin(u),
  // "admin but not customer_service, or super admin": the admin role itself, not the Admin helper
  branding: (u: AccessSubject) => u.role === "admin" || isSuperAdmin(u),
  myob: (u: AccessSubject) => u.role === "admin" || isSuperAdmin(u),
  editCustomers: isAdmin,
  editCarriers: isAdmin,
  /** e-mail stored when no SMTP is configured (DESIGN section 1) */
  mailbox: isAdmin,
  /** every background job and start-up report (the file upgrade's missing files, decision 030) */
  jobs: isAdmin,
  /** any customer's webhooks (docs/decisions/039); a customer's admin finds theirs in the user menu */
  webhooks: isAdmin,
} satisfies Record<string, (u: AccessSubject) => boolean>;

/** The bulk uploader: users with can_bulkupload or can_bulkquote (spec 2 section 6). */
export const canBulkUpload = (u: AccessSubject) => Boolean(u.canBulkupload) || Boolean(u.canBulkquote);

/** Bulk redespatch: admins, super admins and devs (spec 2 section 6). */
export const canBulkRedespatch = (u: AccessSubject) => u.role === "admin" || isSuperAdmin(u);

/** First path segments reserved to devs, super_admin, admin and customer_service. */
export const RESTRICTED_SEGMENTS = [
  "index_customers",
  "customers",
  "carriers",
  "index_notification_types",
  "notification_types",
  "notices",
  "zones",
  "manage_tracking",
  "rate_editor",
  "carrier",
  "branding",
] as const;

/**
 * Screens under /customers/{customerId}/ that a customer's own despatchers use too (spec 2 section 1:
 * recipients and item types; shipping rules for its super despatchers, docs/decisions/040). The module still scopes the id: another customer's id answers 404.
 */
export const CUSTOMER_SELF_SERVICE_SCREENS = ["index_recipients", "index_item_types", "item_types", "shipping_rules"] as const;

/** Paths open without a session. */
export const PUBLIC_PATHS = ["/login", "/forgot_password", "/reset_password"] as const;

/** The first path segment, lower-cased: routes match regardless of case, so access must too. */
export function firstSegment(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // a malformed escape stays as it is
  }
  return (path.split("/").filter(Boolean)[0] ?? "").toLowerCase();
}

/**
 * A path to redirect to after a form: local to this site only. Refuses other origins, protocol-
 * relative and backslash forms, and control characters (browsers drop a tab, so "/\t/evil.example"
 * would become "//evil.example").
 */
const unsafeChar = (text: string) => [...text].some((ch) => ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127 || ch === "\\");

export function isSafeLocalPath(path: string | null | undefined): path is string {
  if (!path || !path.startsWith("/")) return false;
  if (unsafeChar(path)) return false;
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  if (unsafeChar(decoded) || decoded.startsWith("//")) return false;
  const base = "http://local.invalid";
  try {
    return new URL(path, base).origin === base && !path.startsWith("//");
  } catch {
    return false;
  }
}

export function isPublicPath(pathname: string): boolean {
  const clean = pathname.toLowerCase().replace(/\/+$/, "") || "/";
  return (PUBLIC_PATHS as readonly string[]).includes(clean);
}

/**
 * May this signed-in user open this path? Decided by the user and the first path segment.
 * A path the user may not open goes to "/".
 */
export function canAccessPath(u: AccessSubject, pathname: string): boolean {
  const segment = firstSegment(pathname);
  // the notices list and its editor (/notice/{id}): staff, but customer service does not see notices (spec 2 section 6)
  if (segment === "notices" || segment === "notice") return homeButtons.notices(u);
  if (segment === "customers" && isCustomerSelfServicePath(pathname)) return true;
  if ((RESTRICTED_SEGMENTS as readonly string[]).includes(segment)) return isAdmin(u);
  if (segment === "bookings" || segment === "booking" || segment === "new_bookings") return Boolean(u.canBook);
  // branding and the accounting link: admin (not customer service) or super admin (spec 2 section 6)
  if (segment === "branding") return homeButtons.branding(u);
  if (segment === "myob") return homeButtons.myob(u);
  // the uploader for the flags' holders; its bulk redespatch form for admins, super admins and devs
  if (segment === "bulk_upload") return canBulkUpload(u) || canBulkRedespatch(u);
  return true;
}

/** /customers/{id}/index_recipients, /customers/{id}/index_item_types, /customers/{id}/item_types/{id?}. */
function isCustomerSelfServicePath(pathname: string): boolean {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  const parts = path.split("/").filter(Boolean).map((p) => p.toLowerCase());
  if (parts.length < 3 || !/^\d+$/.test(parts[1]!)) return false;
  const screen = parts[2]!;
  if (screen === "item_types") return parts.length <= 4;
  return (CUSTOMER_SELF_SERVICE_SCREENS as readonly string[]).includes(screen) && parts.length === 3;
}

/** Where a signed-in user lands: the forced password page, the finance home or "/". */
export function landingPath(u: AccessSubject): string {
  if (u.passwordResetRequired) return "/users/edit";
  return u.view === "FINANCE" ? "/invoices_payable" : "/";
}

/**
 * Where to go after sign-in: the remembered path when it is a safe local path the user may
 * open, else the landing path. Open redirects ("//evil", "https://...") are refused.
 */
export function redirectAfterSignIn(u: AccessSubject, wanted: string | null | undefined): string {
  const landing = landingPath(u);
  if (u.passwordResetRequired) return landing;
  if (!isSafeLocalPath(wanted)) return landing;
  if (isPublicPath(wanted.split("?")[0]!)) return landing;
  if (!canAccessPath(u, wanted.split("?")[0]!)) return landing;
  return wanted === "/" ? landing : wanted;
}
