/** What the app shell offers a user (spec 1 section 2 "Navigation"); pure, rendered by the shell. */
import { canManageWebhooks, homeButtons, isAdmin, isSuperAdmin, type AccessSubject } from "../auth/roles";

export interface NavLink {
  to: string;
  label: string;
}

export function mainNavigation(u: AccessSubject): NavLink[] {
  if (u.view === "FINANCE") {
    return [
      { to: "/invoices_payable", label: "Payable" },
      { to: "/reconciliations", label: "Reconciliations" },
      { to: "/invoices_receivable", label: "Receivable" },
      { to: "/insight", label: "Insight" },
    ];
  }
  return [
    { to: "/home", label: "Home" },
    { to: "/consignments", label: "Consignments" },
    { to: "/manifests", label: "Manifests" },
    ...(u.canBook ? [{ to: "/bookings", label: "Bookings" }] : []),
    { to: "/quotes", label: "Quotes" },
    // the dashboards (issue 33): beyond the spec's list, for everyone, each reader's own figures
    { to: "/insight", label: "Insight" },
  ];
}

/** The user menu: export and reconciliation only with their flags. */
export function userMenu(u: AccessSubject): NavLink[] {
  return [
    ...(u.canExport ? [{ to: "/export", label: "Export" }] : []),
    ...(u.canReconcile ? [{ to: "/reconciliation", label: "Reconciliation" }] : []),
    // a customer's admin (staff reach it from the home page's admin buttons)
    ...(canManageWebhooks(u) && !isAdmin(u) ? [{ to: "/webhooks", label: "Webhooks" }] : []),
    { to: "/advanced", label: "Advanced search" },
    { to: "/configure_printers", label: "Configure printers" },
    { to: "/users/edit", label: "Change password" },
  ];
}

/** The enquiries dropdown; finance users also reach invoice templates and allocation rules here. */
export function enquiriesMenu(u: AccessSubject, enquiryTypes: string[] = []): NavLink[] {
  return [
    ...enquiryTypes.map((t) => ({ to: `/enquiries?type=${encodeURIComponent(t)}`, label: t })),
    { to: "/enquiries", label: "All Enquiries" },
    ...(u.view === "FINANCE"
      ? [
          { to: "/carrier_invoice_configs", label: "Invoice Templates" },
          { to: "/allocation_rules", label: "Allocation rules" },
        ]
      : []),
  ];
}

/**
 * Home page admin buttons, each by its role rule (spec 2 "Home (admin part)"). `customerId`, the
 * customer the user works in, adds the links into that customer's administration.
 */
export function adminButtons(u: AccessSubject, customerId?: number): NavLink[] {
  const all: Array<[keyof typeof homeButtons, NavLink]> = [
    ["editCustomers", { to: "/index_customers", label: "Edit Customers" }],
    ["editCarriers", { to: "/carriers", label: "Edit Carriers" }],
    ["zones", { to: "/zones", label: "Zones" }],
    ["notificationTypes", { to: "/index_notification_types", label: "Notification Types" }],
    ...(customerId ? [["notificationPreferences", { to: `/customers/${customerId}/notification_configs`, label: "Notification Preferences" }] satisfies [keyof typeof homeButtons, NavLink]] : []),
    ["rateEditor", { to: "/rate_editor", label: "Rate Editor" }],
    ["notices", { to: "/notices", label: "Notices" }],
    ["manageTracking", { to: "/manage_tracking", label: "Manage Tracking" }],
    ["branding", { to: "/branding", label: "Branding" }],
    ["myob", { to: "/myob", label: "MYOB" }],
    ["mailbox", { to: "/mailbox", label: "Mailbox" }],
    ["jobs", { to: "/jobs", label: "Jobs" }],
    ["webhooks", { to: "/webhooks", label: "Webhooks" }],
  ];
  return all.filter(([rule]) => homeButtons[rule](u)).map(([, link]) => link);
}

export const showsCustomerSwitcher = isAdmin;
export const canRunMaintenance = isSuperAdmin;
