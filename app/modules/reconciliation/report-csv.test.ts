import { describe, expect, it } from "vitest";
import { parseCsv } from "../../utils/csv.server";
import {
  MAX_REPORT_LINES,
  REPORT_COLUMNS,
  REPORT_MESSAGES,
  ReportFileError,
  evaluateLine,
  parseReportRows,
  reportOptionsSchema,
  resultRow,
  resultsCaption,
  summarise,
  type ReportLine,
} from "./report-csv";

const parse = async (text: string) => parseReportRows(await parseCsv(text));
const header = REPORT_COLUMNS.join(",");

describe("parseReportRows", () => {
  it("reads the template's columns: amount to cents, weight and zones optional", async () => {
    const r = await parse(`${header}\nCN1,42.50,12.5,MEL,SYD\ncn2,"$1,234.5",,,\n`);
    expect(r.errors).toEqual([]);
    expect(r.lines).toEqual([
      { line: 2, consignment_number: "CN1", charged: 4250, charge_weight: 12.5, from_zone: "MEL", to_zone: "SYD" },
      { line: 3, consignment_number: "cn2", charged: 123450, charge_weight: null, from_zone: null, to_zone: null },
    ]);
  });

  it("takes a file with only the two required columns, in any order", async () => {
    expect((await parse("charged_amount,consignment_number\n10,CN9\n")).lines).toEqual([{ line: 2, consignment_number: "CN9", charged: 1000, charge_weight: null, from_zone: null, to_zone: null }]);
  });

  it("refuses a file without the required columns, an empty file and a header alone", async () => {
    await expect(parse("consignment,amount\nCN1,1\n")).rejects.toThrow(REPORT_MESSAGES.header);
    await expect(parse("consignment_number\nCN1\n")).rejects.toThrow(ReportFileError);
    expect(() => parseReportRows({ headers: [], rows: [] })).toThrow(REPORT_MESSAGES.empty);
    await expect(parse(`${header}\n`)).rejects.toThrow(REPORT_MESSAGES.headerOnly);
    // rows of blank cells (a spreadsheet's trailing commas) are no lines
    await expect(parse(`${header}\n,,,,\n , ,,,\n`)).rejects.toThrow(REPORT_MESSAGES.headerOnly);
  });

  it(`refuses more than ${MAX_REPORT_LINES} lines`, () => {
    const rows = Array.from({ length: MAX_REPORT_LINES + 1 }, (_, i) => ({ line: i + 2, values: { consignment_number: `C${i}`, charged_amount: "1" } }));
    expect(() => parseReportRows({ headers: ["consignment_number", "charged_amount"], rows })).toThrow(REPORT_MESSAGES.tooMany);
    expect(parseReportRows({ headers: ["consignment_number", "charged_amount"], rows: rows.slice(1) }).lines).toHaveLength(MAX_REPORT_LINES);
  });

  it("reports each malformed line with its number and keeps the good ones", async () => {
    const text = [
      header,
      "CN1,10,,,", // 2 good
      ",10,,,", // 3 no number
      `${"X".repeat(51)},10,,,`, // 4 number too long
      "CN4,,,,", // 5 no amount
      "CN5,abc,,,", // 6 not a number
      "CN6,1.234,,,", // 7 three decimals
      "CN7,-5,,,", // 8 negative
      "CN8,99999999999,,,", // 9 too large
      "CN9,10,0,,", // 10 weight 0
      "CN10,10,heavy,,", // 11 weight not a number
      "CN11,10,1.2345,,", // 12 weight four decimals
      "CN12,10,100000,,", // 13 weight too large
      `CN13,10,,${"Z".repeat(21)},`, // 14 zone too long
      ",x,-1,,", // 15 three faults at once
      "CN15,0,,,", // 16 good: nothing charged
    ].join("\n");
    const r = await parse(text);
    expect(r.lines.map((l) => l.line)).toEqual([2, 16]);
    expect(r.errors).toEqual([
      { line: 3, message: REPORT_MESSAGES.numberRequired },
      { line: 4, message: REPORT_MESSAGES.numberTooLong },
      { line: 5, message: REPORT_MESSAGES.amountRequired },
      { line: 6, message: REPORT_MESSAGES.amountInvalid },
      { line: 7, message: REPORT_MESSAGES.amountInvalid },
      { line: 8, message: REPORT_MESSAGES.amountInvalid },
      { line: 9, message: REPORT_MESSAGES.amountTooLarge },
      { line: 10, message: REPORT_MESSAGES.weightInvalid },
      { line: 11, message: REPORT_MESSAGES.weightInvalid },
      { line: 12, message: REPORT_MESSAGES.weightInvalid },
      { line: 13, message: REPORT_MESSAGES.weightInvalid },
      { line: 14, message: REPORT_MESSAGES.zoneTooLong },
      { line: 15, message: `${REPORT_MESSAGES.numberRequired} ${REPORT_MESSAGES.amountInvalid} ${REPORT_MESSAGES.weightInvalid}` },
    ]);
  });

  it("reads a short row's missing cells as blanks and numbers lines as the house's CSV reader does", async () => {
    // parseCsv skips a blank line without counting it (utils/csv.server.ts): lines are the file's non-blank lines
    const r = await parse(`${header}\nCN1,1\n\nCN2,x\n`);
    expect(r.lines).toEqual([{ line: 2, consignment_number: "CN1", charged: 100, charge_weight: null, from_zone: null, to_zone: null }]);
    expect(r.errors).toEqual([{ line: 3, message: REPORT_MESSAGES.amountInvalid }]);
  });
});

describe("reportOptionsSchema", () => {
  const ok = (raw: Record<string, unknown>) => reportOptionsSchema.safeParse(raw);
  it("defaults to 0.2 and 2 when blank or missing", () => {
    expect(ok({}).data).toEqual({ threshold_amount: 0.2, threshold_percentage: 2, rerate: false });
    expect(ok({ threshold_amount: " ", threshold_percentage: "" }).data).toMatchObject({ threshold_amount: 0.2, threshold_percentage: 2 });
  });
  it("takes numbers within their lengths (6 and 4 characters)", () => {
    expect(ok({ threshold_amount: "999.99", threshold_percentage: "2.25", rerate: "true" }).data).toEqual({ threshold_amount: 999.99, threshold_percentage: 2.25, rerate: true });
    expect(ok({ threshold_amount: "0", threshold_percentage: "100" }).data).toMatchObject({ threshold_amount: 0, threshold_percentage: 100 });
  });
  it.each([
    ["threshold_amount", "1000.00"],
    ["threshold_amount", "abc"],
    ["threshold_amount", "-1"],
    ["threshold_amount", "1.234"],
    ["threshold_amount", "."],
    ["threshold_percentage", "2.255"],
    ["threshold_percentage", "101"],
    ["threshold_percentage", "x"],
    ["threshold_percentage", "12345"],
  ])("refuses %s %s with its message", (field, value) => {
    const r = ok({ [field]: value });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual([field]);
    expect(r.error!.issues[0]!.message).toBe(field === "threshold_amount" ? REPORT_MESSAGES.thresholdAmount : REPORT_MESSAGES.thresholdPercentage);
  });
});

describe("evaluateLine", () => {
  const rating = { buy: [{ category: "freight_charge", amount: 90 }, { category: "fuel_charge", amount: 10 }, { category: "gst", amount: 10 }], sell: [{ category: "freight_charge", amount: 130 }], charge_weight: 12.5, from_zone: "MEL", to_zone: "SYD" };
  const line = (charged: number, over: Partial<ReportLine> = {}): ReportLine => ({ line: 2, consignment_number: "CN1", charged, charge_weight: null, from_zone: null, to_zone: null, ...over });
  const t = (amount: number, percentage: number) => ({ amount, percentage });

  it("is within at the flat edge and outside a cent past it (GST left out of the rated buy)", () => {
    expect(evaluateLine(line(10_020), { rating_detail: rating }, t(0.2, 0))).toMatchObject({ status: "within", rated_buy: 10_000, variance: 20, variance_percentage: 0.2 });
    expect(evaluateLine(line(10_021), { rating_detail: rating }, t(0.2, 0)).status).toBe("outside");
    // both directions: charged less than rated
    expect(evaluateLine(line(9_980), { rating_detail: rating }, t(0.2, 0))).toMatchObject({ status: "within", variance: -20, variance_percentage: -0.2 });
    expect(evaluateLine(line(9_979), { rating_detail: rating }, t(0.2, 0)).status).toBe("outside");
  });

  it("is within at the percentage edge and outside a cent past it", () => {
    expect(evaluateLine(line(10_200), { rating_detail: rating }, t(0, 2)).status).toBe("within");
    expect(evaluateLine(line(10_201), { rating_detail: rating }, t(0, 2)).status).toBe("outside");
    // either threshold is enough
    expect(evaluateLine(line(10_300), { rating_detail: rating }, t(3, 2)).status).toBe("within");
  });

  it("names the weight and zones the carrier billed differently", () => {
    expect(evaluateLine(line(10_000, { charge_weight: 15, from_zone: "mel ", to_zone: "BNE" }), { rating_detail: rating }, t(0.2, 2))).toMatchObject({
      status: "within",
      rated_charge_weight: 12.5,
      rated_from_zone: "MEL",
      rated_to_zone: "SYD",
      differences: ["charge weight", "to zone"],
    });
  });

  it("says not found without a consignment and not rated without a buy", () => {
    expect(evaluateLine(line(100), null, t(0.2, 2))).toMatchObject({ status: "not_found", rated_buy: null, variance: null });
    expect(evaluateLine(line(100), { rating_detail: null }, t(0.2, 2))).toMatchObject({ status: "not_rated", rated_buy: null });
    expect(evaluateLine(line(100), { rating_detail: { buy: [{ category: "freight_charge", amount: 0 }] } }, t(0.2, 2)).status).toBe("not_rated");
  });

  it("writes result rows in dollars with the status in words, skipped lines with their message", () => {
    const r = evaluateLine(line(10_021, { charge_weight: 12.5 }), { rating_detail: rating }, t(0.2, 0));
    expect(resultRow(r)).toMatchObject({ line: 2, status: "Outside thresholds", charged_amount: "100.21", rated_buy: "100.00", variance: "0.21", variance_percentage: "0.21", charge_weight: 12.5, differences: "" });
    expect(resultRow({ line: 7, message: "Charged amount is required." })).toEqual({ line: 7, status: "Skipped", differences: "Charged amount is required." });
    const s = summarise([r, evaluateLine(line(1), null, t(0, 0))], [{ line: 7, message: "x" }]);
    expect(s).toEqual({ lines: 3, within: 0, outside: 1, not_found: 1, not_rated: 0, skipped: 1, variance: 21 });
  });
});

describe("resultsCaption (issue 31 #5)", () => {
  const summary = (over: Partial<ReturnType<typeof summarise>>) => ({ lines: 4, within: 4, outside: 0, not_found: 0, not_rated: 0, skipped: 0, variance: 0, ...over });
  it("says every line reconciled only when every line was compared and shown", () => {
    expect(resultsCaption(summary({ within: 2, outside: 2 }), 4)).toBe("Every line reconciled.");
  });
  it("does not say every line reconciled beside skipped or unmatched lines", () => {
    // the report of the issue: 3 skipped, 1 consignment not found
    const s = summary({ lines: 8, within: 4, not_found: 1, skipped: 3 });
    expect(resultsCaption(s, 5)).toBe("4 of 8 lines reconciled; 4 could not be (see the summary).");
    expect(resultsCaption(summary({ within: 3, not_rated: 1 }), 4)).not.toContain("Every line");
  });
  it("says when the table holds only the first lines", () => {
    expect(resultsCaption(summary({ lines: 600, within: 600 }), 500)).toBe("The first 500 lines; the file has them all.");
    expect(resultsCaption(summary({ lines: 600, within: 599, skipped: 1 }), 500)).toBe("599 of 600 lines reconciled; 1 could not be (see the summary). The first 500 lines; the file has them all.");
  });
});
