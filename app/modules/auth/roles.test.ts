import { describe, expect, it } from "vitest";
import type { RoleName } from "../../../db/schema/users";
import {
  isSafeLocalPath,
  RESTRICTED_SEGMENTS,
  canAccessPath,
  canEditFailedChargeAccount,
  canSaveZones,
  canSeeConsignmentInformation,
  canSwitchCustomer,
  canViewNotifications,
  homeButtons,
  isAdmin,
  isAdminOrSuperAdmin,
  isCustomerServiceRole,
  isPublicPath,
  isSuperAdmin,
  isSuperDespatcherOrAbove,
  landingPath,
  redirectAfterSignIn,
  type AccessSubject,
} from "./roles";

const as = (role: RoleName, extra: Partial<AccessSubject> = {}): AccessSubject => ({ role, ...extra });
const ROLES: RoleName[] = ["despatcher", "admin", "super_admin", "customer_service", "devs"];
const holders = (rule: (u: AccessSubject) => boolean) => ROLES.filter((r) => rule(as(r)));

describe("role helpers (spec 3 section 6)", () => {
  it("super admin is devs or super_admin", () => {
    expect(holders(isSuperAdmin)).toEqual(["super_admin", "devs"]);
  });
  it("admin is super admin, admin or customer_service", () => {
    expect(holders(isAdmin)).toEqual(["admin", "super_admin", "customer_service", "devs"]);
  });
  it("admin-or-super-admin is the admin or super_admin role only", () => {
    expect(holders(isAdminOrSuperAdmin)).toEqual(["admin", "super_admin"]);
  });
  it("super despatcher or above is the flag, admin or super admin", () => {
    expect(holders(isSuperDespatcherOrAbove)).toEqual(["admin", "super_admin", "customer_service", "devs"]);
    expect(isSuperDespatcherOrAbove(as("despatcher", { superDespatcher: true }))).toBe(true);
    expect(isSuperDespatcherOrAbove(as("despatcher"))).toBe(false);
  });
  it("customer service role check is admin or customer_service", () => {
    expect(holders(isCustomerServiceRole)).toEqual(["admin", "customer_service"]);
  });
  it("notifications, consignment information and zone saving: devs, super_admin and admin", () => {
    for (const rule of [canViewNotifications, canSeeConsignmentInformation, canSaveZones]) {
      expect(holders(rule)).toEqual(["admin", "super_admin", "devs"]);
    }
  });
  it("only admins (incl. customer service) switch customer", () => {
    expect(holders(canSwitchCustomer)).toEqual(["admin", "super_admin", "customer_service", "devs"]);
  });
  it("charge account of a failed despatch: admin or super admin", () => {
    expect(holders(canEditFailedChargeAccount)).toEqual(["admin", "super_admin", "devs"]);
  });
});

describe("home admin buttons (spec 2 Home)", () => {
  it("zones and rate editor for the team", () => {
    expect(holders(homeButtons.zones)).toEqual(["admin", "super_admin", "customer_service", "devs"]);
    expect(holders(homeButtons.rateEditor)).toEqual(["admin", "super_admin", "customer_service", "devs"]);
  });
  it("notification types for super admin only", () => {
    expect(holders(homeButtons.notificationTypes)).toEqual(["super_admin", "devs"]);
  });
  it("notices hidden from customer_service", () => {
    expect(holders(homeButtons.notices)).toEqual(["admin", "super_admin", "devs"]);
  });
  it("manage tracking for admin or super admin", () => {
    expect(holders(homeButtons.manageTracking)).toEqual(["admin", "super_admin", "devs"]);
  });
  it("branding and accounting link: admin but not customer_service, or super admin", () => {
    expect(holders(homeButtons.branding)).toEqual(["admin", "super_admin", "devs"]);
    expect(holders(homeButtons.myob)).toEqual(["admin", "super_admin", "devs"]);
  });
});

describe("route access (spec 1 and 3 section 2)", () => {
  it("keeps the notices list and its editor from customer service and despatchers", () => {
    for (const path of ["/notices", "/notices/", "/notice", "/notice/3", "/Notice/3"]) {
      expect(canAccessPath(as("customer_service"), path)).toBe(false);
      expect(canAccessPath(as("despatcher", { superDespatcher: true }), path)).toBe(false);
      for (const role of ["admin", "super_admin", "devs"] as const) expect(canAccessPath(as(role), path)).toBe(true);
    }
  });

  it("reserves every restricted first segment to the team, whatever follows", () => {
    expect(RESTRICTED_SEGMENTS).toEqual([
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
    ]);
    for (const segment of RESTRICTED_SEGMENTS) {
      for (const path of [`/${segment}`, `/${segment}/12/sites`]) {
        expect(canAccessPath(as("despatcher", { superDespatcher: true }), path)).toBe(false);
        for (const role of ["admin", "super_admin", "customer_service", "devs"] as const) {
          // customer service does not see notices (spec 2 section 6): tested on its own below
          if (segment === "notices" && role === "customer_service") continue;
          expect(canAccessPath(as(role), path)).toBe(true);
        }
      }
    }
  });
  it("matches segments regardless of case and escapes, as the routes do", () => {
    for (const path of ["/RATE_EDITOR", "/Zones", "/rate%5Feditor", "/Customers/1/surcharges"]) {
      expect(canAccessPath(as("despatcher"), path)).toBe(false);
    }
    expect(canAccessPath(as("despatcher"), "/Bookings")).toBe(false);
    expect(isPublicPath("/LOGIN")).toBe(true);
  });
  it("lets despatchers reach their customer's recipients and item types, and nothing else under /customers", () => {
    const despatcher = as("despatcher");
    for (const path of ["/customers/7/index_recipients", "/customers/7/index_item_types", "/customers/7/item_types", "/customers/7/item_types/3", "/Customers/7/Index_Recipients"]) {
      expect(canAccessPath(despatcher, path)).toBe(true);
    }
    for (const path of [
      "/customers/7",
      "/customers/7/index_sites",
      "/customers/7/index_users",
      "/customers/7/reference_types",
      "/customers/7/item_types/3/extra",
      "/customers/x/index_recipients",
      "/customers/7/index_recipients/9",
      "/customers/%E0%A4%A/index_recipients",
    ]) {
      expect(canAccessPath(despatcher, path)).toBe(false);
    }
  });
  it("decides by the first segment only (a restricted word later in the path is fine)", () => {
    expect(canAccessPath(as("despatcher"), "/consignment/customers")).toBe(true);
    expect(canAccessPath(as("despatcher"), "/customersx")).toBe(true);
  });
  it("blocks bookings without can_book, for every role", () => {
    for (const role of ROLES) {
      expect(canAccessPath(as(role), "/bookings")).toBe(false);
      expect(canAccessPath(as(role, { canBook: true }), "/bookings")).toBe(true);
    }
  });
  it("leaves every other area open to any signed-in user", () => {
    for (const path of ["/", "/consignments/incomplete", "/manifests", "/invoices_payable", "/reconciliations", "/home", "/users/edit"]) {
      expect(canAccessPath(as("despatcher"), path)).toBe(true);
    }
  });
  it("knows the public paths", () => {
    expect(isPublicPath("/login")).toBe(true);
    expect(isPublicPath("/forgot_password/")).toBe(true);
    expect(isPublicPath("/home")).toBe(false);
  });
});

describe("landing and the wanted path", () => {
  it("FINANCE lands on /invoices_payable, others on /", () => {
    expect(landingPath(as("despatcher", { view: "FINANCE" }))).toBe("/invoices_payable");
    expect(landingPath(as("despatcher", { view: "DESPATCHER" }))).toBe("/");
    expect(landingPath(as("admin"))).toBe("/");
  });
  it("a forced password change always lands on /users/edit", () => {
    expect(landingPath(as("despatcher", { passwordResetRequired: true }))).toBe("/users/edit");
    expect(redirectAfterSignIn(as("despatcher", { passwordResetRequired: true }), "/manifests")).toBe("/users/edit");
  });
  it("restores a wanted local path the user may open", () => {
    expect(redirectAfterSignIn(as("despatcher"), "/manifests?x=1")).toBe("/manifests?x=1");
  });
  it("refuses open redirects, public paths and paths the user may not open", () => {
    const u = as("despatcher");
    for (const wanted of ["//evil.example", "https://evil.example", "/\\evil", "/\t/evil.example", "/%09/evil.example", "/%2F/evil.example", "/login", "/index_customers", "/INDEX_CUSTOMERS", "", null]) {
      expect(redirectAfterSignIn(u, wanted)).toBe("/");
    }
  });
  it("a FINANCE user whose wanted path is / goes to /invoices_payable", () => {
    expect(redirectAfterSignIn(as("despatcher", { view: "FINANCE" }), "/")).toBe("/invoices_payable");
  });
});

describe("safe local paths", () => {
  it("accepts local paths and refuses anything that could leave the site", () => {
    expect(isSafeLocalPath("/manifests?from=2026-11-01")).toBe(true);
    expect(isSafeLocalPath("/consignment/12#items")).toBe(true);
    for (const bad of ["//evil.example", "/\\evil.example", "/\t/evil.example", "/%09/evil.example", "/%5C/evil.example", "/%2F/evil.example", "https://evil.example", "javascript:alert(1)", "evil", "/\n/x"]) {
      expect(isSafeLocalPath(bad), bad).toBe(false);
    }
  });
});
