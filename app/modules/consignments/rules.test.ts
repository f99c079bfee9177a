import { describe, expect, it } from "vitest";
import type { ConsignmentState } from "../../../db/schema/consignments";
import type { AccessSubject } from "../auth/roles";
import {
  cancelWindowOpen,
  canRequestRates,
  canRerate,
  cleanPhone,
  footerButtons,
  formatDate,
  formatWeight,
  isDespatchable,
  isEditable,
  offersTrackingUrl,
  quoteReference,
  ratingHints,
  returnDespatchButtons,
  roundUpToQuarter,
  summarise,
  SUPPORT_EMAIL_MISSING,
  type GridLine,
} from "./rules";

const despatcher: AccessSubject = { role: "despatcher" };
const admin: AccessSubject = { role: "admin" };
const customerService: AccessSubject = { role: "customer_service" };
const superAdmin: AccessSubject = { role: "super_admin" };
const devs: AccessSubject = { role: "devs" };

const visible = (state: ConsignmentState | null, user = despatcher, extra: Record<string, unknown> = {}, cancelOffered = true) =>
  Object.entries(footerButtons({ id: state ? 5 : null, state, ...extra }, user, { cancelOffered, now: new Date("2026-11-22T00:00:00Z") }))
    .filter(([, r]) => r.visible)
    .map(([k]) => k)
    .sort();

describe("footer buttons by state and role", () => {
  it("a new consignment: New, Save, Save and Print", () => {
    expect(visible(null)).toEqual(["new", "save", "saveAndPrint"]);
  });

  it("open and despatchable: editing buttons; Info only for admin, super admin and devs", () => {
    expect(visible("open")).toEqual(["new", "save", "saveAndPrint"]);
    expect(visible("despatchable")).toEqual(["new", "save", "saveAndPrint"]);
    expect(visible("despatchable", admin)).toEqual(["info", "new", "save", "saveAndPrint"]);
    expect(visible("despatchable", devs)).toContain("info");
    expect(visible("despatchable", customerService)).not.toContain("info");
  });

  it("a quote has Save but not Save and Print", () => {
    expect(visible("quote", despatcher, { isQuote: true })).toEqual(["new", "save"]);
  });

  it("despatched: Reprint, Print connote, Tracking, Enquiries; no Save", () => {
    expect(visible("despatched", despatcher, { numbered: true, printConnote: true }, false)).toEqual(["enquiries", "new", "printConnote", "reprint", "tracking"]);
    for (const state of ["in_transit", "delivered", "booked", "despatching"] as const) {
      expect(visible(state, despatcher, {}, false)).toContain("tracking");
      expect(visible(state, despatcher, {}, false)).not.toContain("save");
    }
  });

  it("failed: Reprint and Re-Despatch; the charge-account Save only for admin or super admin", () => {
    expect(visible("despatch_failure", despatcher, { numbered: true, printConnote: true })).toEqual(["new", "printConnote", "redespatch", "reprint"]);
    expect(visible("permanently_failed", admin, { numbered: true, printConnote: true })).toEqual(["info", "new", "printConnote", "redespatch", "reprint", "saveChargeAccount"]);
    expect(visible("despatch_failure", superAdmin)).toContain("saveChargeAccount");
    expect(visible("despatch_failure", customerService)).not.toContain("saveChargeAccount");
    expect(visible("despatch_failure")).not.toContain("tracking");
  });

  it("Cancel: only where offered, despatched within the window (always for admins) or auto-delivered", () => {
    const within = { cancellationAllowedDate: "2026-11-23T00:00:00Z" };
    const past = { cancellationAllowedDate: "2026-11-21T00:00:00Z" };
    expect(visible("despatched", despatcher, within)).toContain("cancel");
    expect(visible("despatched", despatcher, past)).not.toContain("cancel");
    expect(visible("despatched", admin, past)).toContain("cancel");
    expect(visible("despatched", customerService, past)).toContain("cancel");
    expect(visible("despatched", despatcher, within, false)).not.toContain("cancel");
    expect(visible("open", despatcher, { autoDelivered: true })).toContain("cancel");
    expect(visible("open", despatcher, within)).not.toContain("cancel");
    expect(visible("cancelling", admin, within)).not.toContain("cancel");
    expect(visible("cancelled", admin, within)).not.toContain("cancel");
    // the screen passes the window as its loader read it: a page is made from its data, not the clock at render
    expect(visible("despatched", despatcher, { ...past, cancelWindowOpen: true })).toContain("cancel");
    expect(visible("despatched", despatcher, { ...within, cancelWindowOpen: false })).not.toContain("cancel");
    const at = new Date("2026-11-22T00:00:00Z");
    expect(cancelWindowOpen(within, despatcher, at)).toBe(true);
    expect(cancelWindowOpen(past, despatcher, at)).toBe(false);
    expect(cancelWindowOpen({ cancellationAllowedDate: null }, despatcher, at)).toBe(false);
    expect(cancelWindowOpen(past, admin, at)).toBe(true);
  });

  it("Cancel is disabled with a hint when the account's support email is empty", () => {
    const rules = footerButtons({ id: 1, state: "despatched", supportEmailEmpty: true }, admin, { cancelOffered: true });
    expect(rules.cancel).toEqual({ visible: true, enabled: false, hint: SUPPORT_EMAIL_MISSING });
  });

  it("Confirm Cancel needs the customer service role and state cancelling", () => {
    expect(visible("cancelling", customerService)).toContain("confirmCancel");
    expect(visible("cancelling", admin)).toContain("confirmCancel");
    expect(visible("cancelling", superAdmin)).not.toContain("confirmCancel");
    expect(visible("cancelling", despatcher)).not.toContain("confirmCancel");
    expect(visible("despatched", customerService)).not.toContain("confirmCancel");
  });

  it("Print connote once the consignment has its number, for carriers that print consignment notes", () => {
    expect(visible("despatchable", despatcher, { numbered: true, printConnote: true })).toContain("printConnote");
    expect(visible("despatchable", despatcher, { numbered: true, printConnote: false })).not.toContain("printConnote");
    expect(visible("despatched", despatcher, { numbered: true })).not.toContain("printConnote");
    expect(visible("despatchable")).not.toContain("printConnote");
    expect(visible("despatched")).not.toContain("printConnote");
    expect(visible("cancelled", despatcher, { numbered: true, printConnote: true })).not.toContain("printConnote");
  });

  it("Save is disabled while saving is blocked after a save", () => {
    const rules = footerButtons({ state: "open" }, despatcher, { cancelOffered: false, saveBlocked: true });
    expect(rules.save).toEqual({ visible: true, enabled: false });
    expect(rules.saveAndPrint.enabled).toBe(false);
  });
});

describe("return despatch buttons", () => {
  const saved = { id: 3, state: "despatchable" as ConsignmentState, hasRate: true, errors: {}, email: "pat@example.com" };
  it("enabled only when despatchable; e-mail needs an address; hidden once despatched", () => {
    expect(returnDespatchButtons(saved)).toEqual({ despatchPrint: { visible: true, enabled: true }, despatchEmail: { visible: true, enabled: true }, resendEmail: { visible: false, enabled: true } });
    expect(returnDespatchButtons({ ...saved, email: null }).despatchEmail).toEqual({ visible: true, enabled: false });
    expect(returnDespatchButtons({ ...saved, state: "open" }).despatchPrint).toEqual({ visible: true, enabled: false });
    expect(returnDespatchButtons({ ...saved, errors: { x: ["y"] } }).despatchPrint.enabled).toBe(false);
    expect(returnDespatchButtons(null).despatchPrint).toEqual({ visible: true, enabled: false });
    const despatched = returnDespatchButtons({ ...saved, state: "despatched" });
    expect(despatched.despatchPrint.visible).toBe(false);
    expect(despatched.despatchEmail.visible).toBe(false);
    expect(despatched.resendEmail.visible).toBe(true);
    expect(returnDespatchButtons({ ...saved, state: "despatched", email: null }).resendEmail.visible).toBe(false);
  });
});

describe("state rules", () => {
  it("editable: new, open, despatchable, quote", () => {
    expect(isEditable(null)).toBe(true);
    expect(["open", "despatchable", "quote"].every((s) => isEditable(s as ConsignmentState))).toBe(true);
    expect(["despatched", "despatch_failure", "cancelled", "merged"].some((s) => isEditable(s as ConsignmentState))).toBe(false);
  });

  it("re-rating only when not despatched, failed or cancelled", () => {
    expect(canRerate("open")).toBe(true);
    expect(canRerate(null)).toBe(true);
    for (const s of ["despatched", "in_transit", "despatch_failure", "permanently_failed", "cancelled", "cancelling"] as const) expect(canRerate(s)).toBe(false);
  });

  it("despatchable: an id, a rate, no errors and state despatchable", () => {
    const base = { id: 1, state: "despatchable" as const, hasRate: true, errors: {} };
    expect(isDespatchable(base)).toBe(true);
    expect(isDespatchable({ ...base, id: null })).toBe(false);
    expect(isDespatchable({ ...base, hasRate: false })).toBe(false);
    expect(isDespatchable({ ...base, errors: { despatch_date: ["x"] } })).toBe(false);
    expect(isDespatchable({ ...base, state: "open" })).toBe(false);
  });

  it("a tracking URL only when the state is not open, not quote and not empty", () => {
    expect(offersTrackingUrl("despatched")).toBe(true);
    expect(offersTrackingUrl("open")).toBe(false);
    expect(offersTrackingUrl("quote")).toBe(false);
    expect(offersTrackingUrl(null)).toBe(false);
  });
});

const line = (over: Partial<GridLine> = {}): GridLine => ({ quantity: 1, itemTypeId: 1, length: 10, width: 10, height: 10, weight: 5, ...over });

describe("rating readiness", () => {
  it("hints: weight on any line, quantity on the first", () => {
    expect(ratingHints([line()])).toEqual([]);
    expect(ratingHints([line({ weight: 0 })])).toEqual(["Must have weight"]);
    expect(ratingHints([line(), line({ weight: -1 })])).toEqual(["Must have weight"]);
    expect(ratingHints([line({ quantity: 0 })])).toEqual(["Must have quantity"]);
    expect(ratingHints([line(), line({ quantity: 0 })])).toEqual([]);
    expect(ratingHints([])).toEqual(["Must have quantity"]);
  });

  it("rates only when every item qualifies and the date and both places exist", () => {
    const ready = { despatchDate: "2026-11-24", senderReady: true, receiverReady: true, lines: [line()] };
    expect(canRequestRates(ready)).toBe(true);
    expect(canRequestRates({ ...ready, despatchDate: null })).toBe(false);
    expect(canRequestRates({ ...ready, senderReady: false })).toBe(false);
    expect(canRequestRates({ ...ready, receiverReady: false })).toBe(false);
    expect(canRequestRates({ ...ready, lines: [] })).toBe(false);
    for (const k of ["quantity", "length", "width", "height", "weight"] as const) {
      expect(canRequestRates({ ...ready, lines: [line(), line({ [k]: 0 })] }), k).toBe(false);
    }
    expect(canRequestRates({ ...ready, lines: [line({ itemTypeId: null })] })).toBe(false);
  });

  it("dangerous goods lines need UN number, proper shipping name, class and weight", () => {
    const ready = { despatchDate: "2026-11-24", senderReady: true, receiverReady: true };
    const dg = { un_number: "1203", proper_shipping_name: "MOTOR SPIRIT", hazard_class: "3", weight_in_uom: 4 };
    expect(canRequestRates({ ...ready, lines: [line({ dangerousGoods: true, dangerousGoodsItems: [dg] })] })).toBe(true);
    expect(canRequestRates({ ...ready, lines: [line({ dangerousGoods: true, dangerousGoodsItems: [] })] })).toBe(false);
    for (const k of ["un_number", "proper_shipping_name", "hazard_class", "weight_in_uom"] as const) {
      expect(canRequestRates({ ...ready, lines: [line({ dangerousGoods: true, dangerousGoodsItems: [{ ...dg, [k]: null }] })] }), k).toBe(false);
    }
  });
});

describe("summary", () => {
  it("totals weight, volume, items, packages, hazardous items and aggregate quantity", () => {
    const s = summarise(
      [
        line({ quantity: 2, length: 40, width: 30, height: 30, weight: 10 }),
        line({ quantity: 3, length: 100, width: 100, height: 100, weight: 600.5, dangerousGoods: true, dangerousGoodsItems: [{ weight_in_uom: 4 }, { weight_in_uom: "2.5" }] }),
      ],
      "metric",
    );
    expect(s).toEqual({ weight: 610.5, volume: 3.072, items: 2, packages: 5, hazardousItems: 3, aggregateQuantity: 6.5 });
  });

  it("weights of 1000 or more in tonnes with 2 decimals", () => {
    expect(formatWeight(999.5, "metric")).toBe("999.5 kg");
    expect(formatWeight(1000, "metric")).toBe("1.00 t");
    expect(formatWeight(1234.567, "metric")).toBe("1.23 t");
    expect(formatWeight(1234.5678, "imperial")).toBe("1234.568 lb");
  });
});

describe("cleaners and formats", () => {
  it("phone numbers keep digits and spaces only", () => {
    expect(cleanPhone("(03) 9000-1234 ext.5")).toBe("03 90001234 5");
  });

  it("pickup times round up to the next quarter hour", () => {
    expect(roundUpToQuarter("09:00")).toBe("09:00");
    expect(roundUpToQuarter("09:01")).toBe("09:15");
    expect(roundUpToQuarter("09:14")).toBe("09:15");
    expect(roundUpToQuarter("09:46")).toBe("10:00");
    expect(roundUpToQuarter("23:50")).toBe("23:45");
  });

  it("dates DD/MM/YYYY, MM/DD/YYYY for the United States", () => {
    expect(formatDate("2026-11-24", "AUSTRALIA")).toBe("24/11/2026");
    expect(formatDate("2026-11-24", "NEW ZEALAND")).toBe("24/11/2026");
    expect(formatDate("2026-11-24", "UNITED STATES OF AMERICA")).toBe("11/24/2026");
    expect(formatDate(null, "AUSTRALIA")).toBe("");
  });

  it("quote reference: QTE plus the id padded to 8 digits", () => {
    expect(quoteReference(42)).toBe("QTE00000042");
    expect(quoteReference(123456789)).toBe("QTE123456789");
  });
});
