import { describe, expect, it } from "vitest";
import { csvRowToInput, itemTypeSchema, itemTypeToCsvRow, MESSAGES, roundUpToIncrement, vendorFor } from "./item-types";

const parse = (raw: Record<string, unknown>) => itemTypeSchema.safeParse(raw);
const errorsOf = (raw: Record<string, unknown>) => {
  const r = parse(raw);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [i.path.join("."), i.message]));
};

describe("pallet vendor", () => {
  it("keeps the vendor only when the name contains pallet", () => {
    expect(vendorFor("Pallet", 2)).toBe(2);
    expect(vendorFor("Carton", 1)).toBe(0);
    expect(parse({ description: "Box", name: "Carton", pallet_vendor: "2" }).data?.pallet_vendor).toBe(0);
    expect(parse({ description: "Chep pallet", name: "Pallet", pallet_vendor: 1 }).data?.pallet_vendor).toBe(1);
  });
});

describe("weight rounded to the increments", () => {
  it("rounds up to the next multiple without drifting", () => {
    expect(roundUpToIncrement("5.2", "0.5")).toBe("5.5");
    expect(roundUpToIncrement("5.5", "0.5")).toBe("5.5");
    expect(roundUpToIncrement("0.3", "0.1")).toBe("0.3");
    expect(roundUpToIncrement("4.01", "1")).toBe("5");
    expect(roundUpToIncrement("7", null)).toBe("7");
    expect(roundUpToIncrement("1.2", "0.25")).toBe("1.25");
  });
  it("applies when an item type is checked", () => {
    expect(parse({ description: "Box", weight: "2.1", increments: "0.5" }).data).toMatchObject({ weight: "2.5", increments: "0.5" });
    expect(parse({ description: "Box", weight: "2.1" }).data).toMatchObject({ weight: "3", increments: "1" });
  });
});

describe("the item type schema", () => {
  it("gives a new item type the spec's defaults", () => {
    expect(parse({ description: "Box" }).data).toMatchObject({ name: "Carton", labels: 1, pallet_vendor: 0, som: "metric", increments: "1", length: null, site_id: null, manual_handling: false, has_dangerous_goods: false });
  });
  it("names each bad field", () => {
    expect(
      errorsOf({ description: " ", name: "Crate", som: "cubits", pallet_vendor: "7", site_id: "x", length: "12345", width: "1.234", height: "-1", weight: "123456", increments: "0", labels: "0" }),
    ).toEqual({
      description: MESSAGES.descriptionRequired,
      name: MESSAGES.type,
      som: MESSAGES.som,
      pallet_vendor: MESSAGES.palletVendor,
      site_id: MESSAGES.site,
      length: MESSAGES.dimension("Length"),
      width: MESSAGES.dimension("Width"),
      height: MESSAGES.dimension("Height"),
      weight: MESSAGES.weight,
      increments: MESSAGES.increments,
      labels: MESSAGES.labels,
    });
  });
  it("takes increments with or without a decimal point, and 4-digit dimensions", () => {
    expect(parse({ description: "Box", increments: "2", length: "9999", weight: "99998" }).success).toBe(true);
    expect(parse({ description: "Box", increments: "0.25" }).data?.increments).toBe("0.25");
    expect(errorsOf({ description: "Box", increments: "1,5" })).toEqual({ increments: MESSAGES.increments });
  });
  it("keeps preselected dangerous goods only with the flag, and needs their names", () => {
    const dg = [{ un_number: "1203", proper_shipping_name: "PETROL", hazard_class: "3" }, { un_number: "" }];
    expect(parse({ description: "Fuel", has_dangerous_goods: "on", preselected_dg_items: dg }).data?.preselected_dg_items).toHaveLength(1);
    expect(parse({ description: "Fuel", has_dangerous_goods: false, preselected_dg_items: dg }).data?.preselected_dg_items).toEqual([]);
    expect(errorsOf({ description: "Fuel", has_dangerous_goods: true, preselected_dg_items: [{ hazard_class: "3" }] })).toEqual({ "preselected_dg_items.0.un_number": MESSAGES.dgItem });
  });
});

describe("CSV rows", () => {
  const row = (values: Record<string, string>) => itemTypeSchema.safeParse(csvRowToInput(values));
  it("reads a full row, names and vendors in any case, unknown columns ignored", () => {
    const r = row({ description: "Chep pallet", type: "pallet", unit_of_measurement: "Imperial", vendor: "CHEP", length: "120", width: "100", height: "150", weight: "20.2", increments: "0.5", label_count: "2", manual_handling: "yes", colour: "blue", "": "x" });
    expect(r.data).toMatchObject({ description: "Chep pallet", name: "Pallet", som: "imperial", pallet_vendor: 1, length: "120", weight: "20.5", labels: 2, manual_handling: true });
  });
  it("applies the import defaults", () => {
    expect(row({ description: "Bag", type: "Satchel" }).data).toMatchObject({ som: "metric", pallet_vendor: 0, increments: "1", labels: 1, length: null, weight: null });
  });
  it("refuses a row without description or type, or with an unknown type or vendor", () => {
    expect(row({ description: "", type: "Carton" }).success).toBe(false);
    expect(row({ description: "Box", type: "" }).error?.issues[0]?.message).toBe(MESSAGES.type);
    expect(row({ description: "Box", type: "Crate" }).error?.issues[0]?.message).toBe(MESSAGES.type);
    expect(row({ description: "Box", type: "Pallet", vendor: "acme" }).error?.issues[0]?.message).toBe(MESSAGES.palletVendor);
  });
  it("writes an item type back as the same columns", () => {
    const input = row({ description: "Box", type: "Carton", length: "40" }).data!;
    const csv = itemTypeToCsvRow({ ...input, item_type_options: { manual_handling: false } });
    expect(csv).toMatchObject({ description: "Box", type: "Carton", unit_of_measurement: "metric", vendor: "plain", length: "40", label_count: 1, manual_handling: "false" });
    expect(row(Object.fromEntries(Object.entries(csv).map(([k, v]) => [k, String(v)]))).data).toMatchObject({ description: "Box", name: "Carton", length: "40" });
  });
});
