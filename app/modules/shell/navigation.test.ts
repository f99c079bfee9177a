import { describe, expect, it } from "vitest";
import { adminButtons, enquiriesMenu, mainNavigation, userMenu } from "./navigation";

const labels = (links: { label: string }[]) => links.map((l) => l.label);

describe("navigation by view (spec 1 section 2)", () => {
  it("DESPATCHER (or no view): home, consignments, manifests, bookings, quotes", () => {
    expect(labels(mainNavigation({ role: "despatcher", canBook: true }))).toEqual(["Home", "Consignments", "Manifests", "Bookings", "Quotes", "Insight"]);
    expect(labels(mainNavigation({ role: "despatcher", view: "DESPATCHER", canBook: true }))).toEqual([
      "Home",
      "Consignments",
      "Manifests",
      "Bookings",
      "Quotes",
      "Insight",
    ]);
  });
  it("hides bookings without can_book (the route would send the user to /)", () => {
    expect(labels(mainNavigation({ role: "despatcher" }))).not.toContain("Bookings");
  });
  it("FINANCE: payable, reconciliations, receivable", () => {
    expect(labels(mainNavigation({ role: "despatcher", view: "FINANCE" }))).toEqual(["Payable", "Reconciliations", "Receivable", "Insight"]);
  });
  it("export needs can_export and reconciliation needs can_reconcile", () => {
    expect(labels(userMenu({ role: "despatcher" }))).toEqual(["Advanced search", "Configure printers", "Change password"]);
    expect(labels(userMenu({ role: "despatcher", canExport: true, canReconcile: true }))).toEqual([
      "Export",
      "Reconciliation",
      "Advanced search",
      "Configure printers",
      "Change password",
    ]);
  });
  it("a customer's admin (super despatcher) finds webhooks in the user menu; staff on the home page", () => {
    expect(labels(userMenu({ role: "despatcher", superDespatcher: true }))).toEqual(["Webhooks", "Advanced search", "Configure printers", "Change password"]);
    expect(labels(userMenu({ role: "admin", superDespatcher: true }))).not.toContain("Webhooks");
  });
  it("the enquiries menu gains invoice templates and allocation rules for FINANCE", () => {
    expect(labels(enquiriesMenu({ role: "despatcher" }, ["Damaged"]))).toEqual(["Damaged", "All Enquiries"]);
    expect(labels(enquiriesMenu({ role: "despatcher", view: "FINANCE" }))).toEqual(["All Enquiries", "Invoice Templates", "Allocation rules"]);
  });
  it("admin buttons follow their role rules", () => {
    expect(adminButtons({ role: "despatcher" })).toEqual([]);
    expect(labels(adminButtons({ role: "customer_service" }))).toEqual(["Edit Customers", "Edit Carriers", "Zones", "Rate Editor", "Mailbox", "Jobs", "Webhooks"]);
    expect(labels(adminButtons({ role: "admin" }))).toEqual([
      "Edit Customers",
      "Edit Carriers",
      "Zones",
      "Rate Editor",
      "Notices",
      "Manage Tracking",
      "Branding",
      "MYOB",
      "Mailbox",
      "Jobs",
      "Webhooks",
    ]);
    expect(labels(adminButtons({ role: "super_admin" }))).toContain("Notification Types");
  });
  it("notification preferences of the working customer: devs, super admins and admins, not customer service", () => {
    for (const role of ["devs", "super_admin", "admin"] as const) {
      expect(adminButtons({ role }, 7).find((b) => b.label === "Notification Preferences")?.to, role).toBe("/customers/7/notification_configs");
    }
    for (const role of ["customer_service", "despatcher"] as const) expect(labels(adminButtons({ role }, 7)), role).not.toContain("Notification Preferences");
  });
});
