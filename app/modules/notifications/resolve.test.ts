import { describe, expect, it } from "vitest";
import { applicableConfigs, dedupeKey, fitLength, itemsToSend, type ConfigRow } from "./resolve";

const at = { customerId: 1, siteId: 10, carrierAccountId: 100 };
type Row = ConfigRow & { id: number; enabled: boolean };
const row = (id: number, parentType: ConfigRow["parentType"], parentId: number, over: Partial<Row> = {}): Row => ({ id, parentType, parentId, notificationTypeId: 1, consignmentState: "delivered", enabled: true, ...over });

describe("which config applies", () => {
  it("takes the account's over the site's over the customer's, per type", () => {
    const configs = [row(1, "customer", 1), row(2, "site", 10), row(3, "account", 100), row(4, "customer", 1, { notificationTypeId: 2 })];
    expect(applicableConfigs(configs, at, "delivered").map((c) => c.id).sort()).toEqual([3, 4]);
    expect(applicableConfigs(configs.slice(0, 2), at, "delivered").map((c) => c.id)).toEqual([2]);
  });

  it("ignores other sites', accounts' and customers' configs, and other states", () => {
    const configs = [row(1, "site", 11), row(2, "account", 101), row(3, "customer", 2), row(4, "customer", 1, { consignmentState: "picked_up" })];
    expect(applicableConfigs(configs, at, "delivered")).toEqual([]);
    expect(applicableConfigs(configs, { ...at, carrierAccountId: null }, "picked_up").map((c) => c.id)).toEqual([4]);
  });

  it("a disabled, more specific config turns the notification off there", () => {
    expect(applicableConfigs([row(1, "customer", 1), row(2, "account", 100, { enabled: false })], at, "delivered")).toEqual([]);
  });
});

describe("what to send for", () => {
  it("a change into a trigger state, once; not other states", () => {
    const items = itemsToSend(
      [
        { consignmentId: 1, state: "in_transit" },
        { consignmentId: 1, state: "failed_delivery" },
      ],
      [],
      () => false,
    );
    expect(items).toEqual([{ consignmentId: 1, state: "in_transit", eventId: null }]);
  });

  it("every event for a customer sending every update, and its despatch all the same", () => {
    const items = itemsToSend(
      [
        { consignmentId: 1, state: "despatched" },
        { consignmentId: 1, state: "in_transit" },
      ],
      [
        { id: 7, consignmentId: 1, event: "in_transit" },
        { id: 8, consignmentId: 1, event: "in_transit" },
        { id: 9, consignmentId: 2, event: "in_transit" },
      ],
      (id) => id === 1,
    );
    expect(items).toEqual([
      { consignmentId: 1, state: "despatched", eventId: null },
      { consignmentId: 1, state: "in_transit", eventId: 7 },
      { consignmentId: 1, state: "in_transit", eventId: 8 },
    ]);
  });

  it("keys a notification by consignment, config and state, and by event when every update is sent", () => {
    expect(dedupeKey({ consignmentId: 1, state: "delivered", eventId: null }, 5)).toBe("1:5:delivered");
    expect(dedupeKey({ consignmentId: 1, state: "in_transit", eventId: 9 }, 5)).toBe("1:5:in_transit:9");
  });
});

describe("fitLength", () => {
  it("keeps a message within its type's length, cut at a word", () => {
    expect(fitLength("short", 160)).toBe("short");
    expect(fitLength("x".repeat(200), null)).toHaveLength(200);
    const cut = fitLength("one two three four five six seven", 20);
    expect(cut.length).toBeLessThanOrEqual(20);
    expect(cut).toBe("one two three four…");
  });
});
