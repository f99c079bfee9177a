/**
 * Who sees and does what in the finance area: the finance access module (spec 3 sections 1 and 6;
 * docs/decisions/019 and 022). Pure, so screens, /api routes and the browser bundle ask the same
 * rules; the SQL that applies a scope to invoices and lines is its server half, scope.server.ts.
 *
 * - Finance is a permission, never a view: the provider's staff (devs, super admin, admin,
 *   customer service) and users given can_reconcile. The view option (DESPATCHER or FINANCE) is a
 *   preference for the navigation; only a user with the permission may choose FINANCE, and a
 *   FINANCE view stored without it counts as DESPATCHER (decision 022).
 * - Staff see every invoice. A customer's finance user sees only the lines allocated to their own
 *   customer, and the invoices that hold such lines, read only; everything they read of a shared
 *   carrier invoice (total, counts, state, line numbers, names) comes from their own lines.
 * - A carrier's original file holds every customer's lines: staff only.
 * - Invoice admin actions (import, delete, allocate, export, edit a line, templates and
 *   allocation rules): admin or super admin (devs count as super admin), spec 3 section 6.
 */
import { canSeeBuyCosts, isAdmin, isSuperAdmin, type AccessSubject } from "../auth/roles";

export interface FinanceSubject extends AccessSubject {
  homeCustomerId: number;
}

/** Which lines a user may see: all of them, or one customer's. */
export type FinanceScope = { kind: "all" } | { kind: "customer"; customerId: number };

export function financeScope(u: FinanceSubject): FinanceScope {
  return isAdmin(u) ? { kind: "all" } : { kind: "customer", customerId: u.homeCustomerId };
}

/** Import, delete, allocate, export, edit a line, keep templates and allocation rules. */
export const canAdministerInvoices = (u: AccessSubject) => u.role === "admin" || isSuperAdmin(u);

/**
 * The finance screens and every finance read: staff and can_reconcile, the same people who see buy
 * costs (decision 009). Never the view: a despatcher who set view FINANCE is still a despatcher.
 */
export const canUseFinance = (u: AccessSubject) => canSeeBuyCosts(u);

export type ViewName = "DESPATCHER" | "FINANCE";

/** The view a user works in: a stored FINANCE counts only with the finance permission. */
export const effectiveView = (u: AccessSubject, stored: unknown): ViewName => (stored === "FINANCE" && canUseFinance(u) ? "FINANCE" : "DESPATCHER");

/** May this user be given this view (by themself or by staff)? */
export const canChooseView = (u: AccessSubject, view: ViewName) => view !== "FINANCE" || canUseFinance(u);

/** A carrier invoice's original file: staff only, as it holds every customer's lines. */
export const canReadCarrierFile = (u: AccessSubject) => isAdmin(u);

export const FINANCE_ACCESS_MESSAGES = {
  viewRefused: "The Finance view needs finance permission (can reconcile). Ask an administrator.",
  carrierFileStaffOnly: "The carrier's original file holds other customers' lines and is for staff only.",
  otherCustomer: "The rules would allocate this line to another customer.",
} as const;
