/**
 * Who sees and does what in the finance area (spec 3 sections 1 and 6; docs/decisions/019).
 * Pure, so screens, /api routes and the browser bundle ask the same rules.
 *
 * - The provider's staff (devs, super admin, admin, customer service) see every invoice.
 * - Anyone else who opens a finance screen (the spec leaves those routes open to every signed-in
 *   user; a customer's finance user has view FINANCE or can_reconcile) sees only the lines
 *   allocated to their own customer, and the invoices that hold such lines, read only.
 * - Invoice admin actions (import, delete, allocate, export, edit a line, templates and
 *   allocation rules): admin or super admin (devs count as super admin), spec 3 section 6.
 */
import { isAdmin, isSuperAdmin, type AccessSubject } from "../auth/roles";

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
 * The finance screens: staff, and a customer's finance users (view FINANCE or can_reconcile).
 * A despatcher's view shows no finance menu, and the finance layout sends them to "/".
 */
export const canUseFinance = (u: AccessSubject) => isAdmin(u) || u.view === "FINANCE" || Boolean(u.canReconcile);
