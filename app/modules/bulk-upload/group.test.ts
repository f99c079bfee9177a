import { describe, expect, it } from "vitest";
import { buildInput, errorsByLine, skippedLines, typeLookup, type SenderSite } from "./build";
import { exampleCells, headerProblem, mapHeaders, templateCsv } from "./columns";
import { groupReference, groupRows, NO_SITE_FIRST, parseUploadDate, parseUploadTime, type Row } from "./group";

const r = (line: number, cells: Record<string, string>): Row => ({ line, cells });

describe("parseUploadDate", () => {
  it("reads DD/MM/YYYY and DD-MM-YYYY, and nothing else", () => {
    expect(parseUploadDate("01/12/2026")).toBe("2026-12-01");
    expect(parseUploadDate("1-2-2027")).toBe("2027-02-01");
    expect(parseUploadDate("29/02/2028")).toBe("2028-02-29");
    for (const bad of ["2026-12-01", "01/12-2026", "31/02/2027", "29/02/2027", "01/13/2026", "tomorrow", "", "1/12/26"]) expect(parseUploadDate(bad), bad).toBeNull();
  });
});

describe("groupRows", () => {
  it("starts a consignment at each row with a site code and adds the rows after it; rows before any are orphans", () => {
    const { groups, orphans } = groupRows([r(2, { item_type: "Carton" }), r(3, { site_code: "MEL" }), r(4, {}), r(5, { site_code: "SYD" }), r(6, {}), r(7, {})]);
    expect(orphans).toEqual([{ line: 2, errors: [NO_SITE_FIRST] }]);
    expect(groups.map((g) => g.rows.map((x) => x.line))).toEqual([
      [3, 4],
      [5, 6, 7],
    ]);
  });
});

describe("groupReference", () => {
  it("is the same for the same consignment written another way, and differs by kind and content", () => {
    const a = groupRows([r(2, { site_code: "MEL", despatch_date: "01/12/2026", receiver_name: "Acme", item_type: "Carton", quantity: "1" }), r(3, { item_type: "carton", quantity: "2" })]).groups[0]!;
    const b = groupRows([r(9, { site_code: "mel", despatch_date: "1-12-2026", receiver_name: "Acme", item_type: "CARTON", quantity: "1" }), r(10, { item_type: "Carton", quantity: "2" })]).groups[0]!;
    const c = groupRows([r(2, { site_code: "MEL", despatch_date: "01/12/2026", receiver_name: "Acme", item_type: "Carton", quantity: "1" }), r(3, { item_type: "carton", quantity: "3" })]).groups[0]!;
    expect(groupReference("consignment", a)).toBe(groupReference("consignment", b));
    expect(groupReference("consignment", a)).not.toBe(groupReference("quote", a));
    expect(groupReference("consignment", a)).not.toBe(groupReference("consignment", c));
  });
});

describe("columns", () => {
  it("maps aliases in any case and names what is missing, unknown or twice", () => {
    const h = mapHeaders(["Site", "date", "Receiver", "suburb", "postcode", "type", "qty", "length", "width", "height", "weight"]);
    expect(headerProblem(h)).toBeNull();
    expect(h.map.get("suburb")).toBe("receiver_locality");
    expect(headerProblem(mapHeaders(["site_code"]))).toMatch(/^Missing columns: despatch_date, receiver_name/);
    expect(headerProblem(mapHeaders([...h.map.keys(), "colour"]))).toBe("Unknown columns: colour");
    expect(headerProblem(mapHeaders([...h.map.keys(), "qty2", "quantity"]))).toMatch(/Unknown columns: qty2|Columns named twice: quantity/);
  });

  it("the template's own header passes, and a row without a site code is an item line", () => {
    const [header, ...rows] = templateCsv([exampleCells(), exampleCells("item")]).trim().split("\r\n");
    expect(headerProblem(mapHeaders(header!.split(",")))).toBeNull();
    expect(rows).toHaveLength(2);
    expect(rows[1]!.startsWith(",")).toBe(true);
  });

  it("reads a pickup or delivery time as a date and time, or a time on the despatch date", () => {
    expect(parseUploadTime("03/12/2026 9:30", "2026-12-01")).toBe("2026-12-03 09:30");
    expect(parseUploadTime("03-12-2026 10:00", null)).toBe("2026-12-03 10:00");
    expect(parseUploadTime("14:45", "2026-12-01")).toBe("2026-12-01 14:45");
    for (const bad of ["14:45x", "24:00", "31/02/2026 10:00", "2026-12-03 10:00", "10"]) expect(parseUploadTime(bad, "2026-12-01"), bad).toBeNull();
    expect(parseUploadTime("14:45", null)).toBeNull();
  });
});

describe("buildInput and the lines of its errors", () => {
  const sites = new Map<string, SenderSite>([["mel", { id: 1, code: "MEL", address: { name: "Melbourne DC", locality: "DANDENONG SOUTH", postcode: "3175", country: "AUSTRALIA" } }]]);
  const types = typeLookup([
    { id: 10, name: "Carton", description: "Small carton" },
    { id: 11, name: "Pallet", description: "Chep pallet" },
    { id: 12, name: "Pallet", description: "Plain pallet" },
  ]);
  const group = groupRows([
    r(2, { site_code: "MEL", despatch_date: "01-12-2026", receiver_name: "Acme", receiver_locality: "SYDNEY", receiver_postcode: "2000", item_type: "carton", quantity: "1", weight: "5" }),
    r(3, { item_type: "small carton", quantity: "2", dg_un_number: "1263", dg_class: "3" }),
  ]).groups[0]!;

  it("fills the consignment input with the site's address as sender and item types by name or description", () => {
    const built = buildInput(group, sites, types);
    expect(built.errors).toEqual([]);
    expect(built.raw).toMatchObject({ site_code: "MEL", despatch_date: "2026-12-01", sender_address: { name: "Melbourne DC" }, receiver_address: { name: "Acme", locality: "SYDNEY" } });
    const items = built.raw!.items as Array<Record<string, unknown>>;
    expect(items.map((i) => i.item_type_id)).toEqual([10, 10]);
    expect(items[1]!.dangerous_goods_items).toEqual([expect.objectContaining({ un_number: "1263", hazard_class: "3" })]);
  });

  it("reports an unknown site, a bad date and unknown or ambiguous item types on their lines", () => {
    const bad = groupRows([r(2, { site_code: "XYZ", despatch_date: "2026-12-01", item_type: "crate" }), r(3, { item_type: "pallet" })]).groups[0]!;
    const built = buildInput(bad, sites, types);
    expect(built.raw).toBeNull();
    expect(built.errors).toEqual([
      { line: 2, errors: ["Unknown site code XYZ: not one of your sites", expect.stringMatching(/DD\/MM\/YYYY or DD-MM-YYYY/), "Unknown item type crate"] },
      { line: 3, errors: ["Item type pallet names more than one item type: use its description"] },
    ]);
  });

  it("fills the time columns a service needs, and reports a time it cannot read on the consignment's first line", () => {
    const timed = groupRows([r(2, { site_code: "MEL", despatch_date: "01/12/2026", receiver_name: "Acme", pickup_at: "10:15", deliver_by: "02/12/2026 17:00", item_type: "carton" })]).groups[0]!;
    expect(buildInput(timed, sites, types).raw).toMatchObject({ pickup_at: "2026-12-01 10:15", deliver_by: "2026-12-02 17:00", deliver_at: null });
    const bad = groupRows([r(2, { site_code: "MEL", despatch_date: "01/12/2026", receiver_name: "Acme", pickup_at: "tomorrow", item_type: "carton" })]).groups[0]!;
    expect(buildInput(bad, sites, types).errors).toEqual([{ line: 2, errors: ["Pickup time must be DD/MM/YYYY HH:mm, or HH:mm on the despatch date (not tomorrow)"] }]);
  });

  it("puts an item's field errors on its row and the rest on the first; every line of the consignment is skipped", () => {
    const lines = errorsByLine(group, { "items.1.weight_in_uom": ["Must have weight"], "receiver_address.locality": ["Invalid receiver locality"] });
    expect(lines).toEqual([
      { line: 2, errors: ["Invalid receiver locality"] },
      { line: 3, errors: ["Must have weight"] },
    ]);
    expect(skippedLines(group, [{ line: 3, errors: ["Must have weight"] }])).toEqual([
      { line: 2, errors: ["Skipped with its consignment: line 3 has errors"] },
      { line: 3, errors: ["Must have weight"] },
    ]);
  });
});
