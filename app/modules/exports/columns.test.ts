import { describe, expect, it } from "vitest";
import { COST_HEADERS, ddmmyyyy, exportHeaders, exportRow, type ExportSource } from "./columns";
import { csvLine } from "./files.server";
import { checkCriteria, criteriaSchema, exportFilename, MESSAGES, readDate } from "./criteria";

const source = (over: Partial<ExportSource> = {}): ExportSource => ({
  consignmentNumber: "ACME000123",
  reference: "PO-1",
  customReference: null,
  siteCode: "MEL",
  despatchDate: "2026-08-03",
  estimatedDeliveryDate: "2026-08-05",
  createdAt: new Date("2026-08-01T02:00:00Z"),
  state: "despatched",
  returnType: null,
  senderName: "Acme",
  senderLocality: "DANDENONG SOUTH",
  senderRegion: "VIC",
  senderPostcode: "3175",
  receiverName: "Bob's Shop",
  receiverLocality: "SYDNEY",
  receiverRegion: "NSW",
  receiverPostcode: "2000",
  carrierName: "Simex",
  serviceName: "Road",
  itemCount: 3,
  totalWeight: "12.500",
  totalVolume: "0.1250",
  serviceRate: "110.00",
  serviceRateExclGst: "100.00",
  ratingDetail: {
    sell: [
      { category: "freight_charge", amount: 80 },
      { category: "fuel_charge", amount: 12 },
      { category: "remote_surcharge", amount: 5 },
      { category: "remote_surcharge", amount: 3 },
      { category: "gst", amount: 10 },
    ],
    buy: [{ category: "freight_charge", amount: 60 }],
    total_sell: 100,
    total_buy: 60,
  },
  kgCo2e: "42.806",
  ...over,
});

const cell = (row: unknown[], header: string, newExport = false) => row[exportHeaders(newExport).indexOf(header)];

describe("export columns", () => {
  it("ends the row with the stored kg CO2e, empty when there is no figure", () => {
    expect(exportHeaders(false).at(-1)).toBe("kg CO2e");
    expect(cell(exportRow(source(), false), "kg CO2e")).toBe(42.806);
    expect(cell(exportRow(source({ kgCo2e: null }), false), "kg CO2e")).toBeNull();
  });

  it("has one cell a header, numbers as numbers and dates as DD/MM/YYYY", () => {
    const row = exportRow(source(), false);
    expect(row).toHaveLength(exportHeaders(false).length);
    expect(cell(row, "Despatch date")).toBe("03/08/2026");
    expect(cell(row, "Weight (kg)")).toBe(12.5);
    expect(cell(row, "Volume (m3)")).toBe(0.125);
    expect(cell(row, "Price excl GST")).toBe(100);
    expect(cell(row, "GST")).toBe(10);
    expect(cell(row, "Price incl GST")).toBe(110);
    expect(cell(row, "Type")).toBe("Outbound");
    expect(exportRow(source({ returnType: "third_party" }), false)[exportHeaders(false).indexOf("Type")]).toBe("Third party");
  });

  it("names the state with its label, not its code (issue 31 #6)", () => {
    expect(cell(exportRow(source({ state: "delivered_with_pod" }), false), "State")).toBe("Delivered with POD");
    expect(cell(exportRow(source({ state: "despatched" }), false), "State")).toBe("Despatched");
  });

  it("leaves prices empty for an unrated consignment", () => {
    const row = exportRow(source({ serviceRate: null, serviceRateExclGst: null }), false);
    expect([cell(row, "Price excl GST"), cell(row, "GST"), cell(row, "Price incl GST")]).toEqual([null, null, null]);
  });

  it("the new export adds the cost lines summed per category", () => {
    const row = exportRow(source(), true);
    expect(exportHeaders(true)).toEqual([...exportHeaders(false), ...COST_HEADERS]);
    expect(row).toHaveLength(exportHeaders(true).length);
    expect(cell(row, "Sell Freight charge", true)).toBe(80);
    expect(cell(row, "Sell Remote surcharge", true)).toBe(8);
    expect(cell(row, "Sell Oversize surcharge", true)).toBeNull();
    expect(cell(row, "Sell total excl GST", true)).toBe(100);
    expect(cell(row, "Buy Freight charge", true)).toBe(60);
    expect(cell(row, "Buy total", true)).toBe(60);
  });

  it.each(["=HYPERLINK(\"x\")", "+1+1", "-1+cmd", "@SUM(A1)", "\tx", "\rx"])("neutralises a text cell starting %j", (evil) => {
    const row = exportRow(source({ receiverName: evil, reference: evil }), false);
    expect(cell(row, "Receiver")).toBe(`'${evil}`);
    expect(cell(row, "Reference")).toBe(`'${evil}`);
  });

  it("leaves ordinary text and numbers alone", () => {
    const row = exportRow(source({ totalWeight: "-1" }), false);
    expect(cell(row, "Receiver")).toBe("Bob's Shop");
    expect(cell(row, "Weight (kg)")).toBe(-1);
  });

  it("reads timestamps and blanks as dates", () => {
    expect(ddmmyyyy(null)).toBe("");
    expect(ddmmyyyy("2026-10-31T13:00:00Z")).toBe("31/10/2026");
    expect(ddmmyyyy("2026-10-31")).toBe("31/10/2026");
    expect(ddmmyyyy(new Date("2026-10-31T23:30:00Z"))).toBe("31/10/2026");
    // anything not a day is left as it was
    expect(ddmmyyyy("2026-1-31")).toBe("2026-1-31");
    expect(ddmmyyyy("2026/10/31")).toBe("2026/10/31");
    expect(ddmmyyyy("2026-1x-31")).toBe("2026-1x-31");
  });
});

describe("export criteria", () => {
  const check = (raw: Record<string, unknown>, limited = true) => checkCriteria(criteriaSchema.parse(raw), limited);

  it("reads DD/MM/YYYY and ISO dates, and refuses others", () => {
    expect(readDate("1/8/2026")).toBe("2026-08-01");
    expect(readDate("2026-08-01")).toBe("2026-08-01");
    expect(readDate("31/02/2026")).toBeNull();
    expect(readDate("08/01/1999")).toBeNull();
  });

  it("requires both dates", () => {
    expect(check({}).errors).toEqual({ from_date: [MESSAGES.fromRequired], to_date: [MESSAGES.toRequired] });
  });

  it("limits non-admins to 3 months, and not admins", () => {
    expect(check({ from_date: "01/08/2026", to_date: "01/11/2026" }).errors).toEqual({});
    expect(check({ from_date: "01/08/2026", to_date: "02/11/2026" }).errors).toEqual({ to_date: [MESSAGES.rangeTooLarge] });
    expect(check({ from_date: "01/08/2026", to_date: "02/11/2026" }, false).errors).toEqual({});
  });

  it("defaults to ALL sites and csv", () => {
    const { criteria } = check({ from_date: "01/08/2026", to_date: "31/10/2026" });
    expect(criteria).toEqual({ siteCode: "ALL", from: "2026-08-01", to: "2026-10-31", format: "csv", newExport: false });
    expect(exportFilename({ ...criteria, format: "xlsx" })).toBe("consignments-2026-08-01-to-2026-10-31.xlsx");
  });
});

describe("csvLine", () => {
  it("quotes text with a quote, comma or line break (RFC 4180), leaves numbers and blanks bare", () => {
    expect(csvLine(["a", 'say "hi"', "x,y", "two\nlines", "", null, 12.5, -1])).toBe('a,"say ""hi""","x,y","two\nlines",,,12.5,-1\r\n');
  });
});
