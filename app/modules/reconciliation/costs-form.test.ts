import { describe, expect, it } from "vitest";
import { costsFromForm } from "./costs-form";

const form = (entries: Array<[string, string]>) => {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
};

describe("costsFromForm", () => {
  it("reads the rows in index order, leaves out removed rows and the blank new row", () => {
    const rows = costsFromForm(
      form([
        ["costs.1.id", "8"],
        ["costs.1.category", "fuel_charge"],
        ["costs.1.description", "Fuel"],
        ["costs.1.amount", "2.00"],
        ["costs.0.id", "7"],
        ["costs.0.category", "freight_charge"],
        ["costs.0.description", "Freight"],
        ["costs.0.amount", "10.00"],
        ["costs.2.id", "9"],
        ["costs.2.category", "gst"],
        ["costs.2.description", "GST"],
        ["costs.2.amount", "1.20"],
        ["costs.2.remove", "on"],
        ["costs.3.category", ""],
        ["costs.3.description", " "],
        ["costs.3.amount", ""],
        ["costs.4.category", "miscellaneous_fee"],
        ["costs.4.description", ""],
        ["costs.4.amount", ""],
        ["note", "ignored"],
      ]),
    );
    expect(rows).toEqual([
      { id: "7", category: "freight_charge", description: "Freight", amount: "10.00" },
      { id: "8", category: "fuel_charge", description: "Fuel", amount: "2.00" },
      // half filled: kept, so the check says it is invalid rather than dropping it silently
      { category: "miscellaneous_fee", description: "", amount: "" },
    ]);
  });
});
