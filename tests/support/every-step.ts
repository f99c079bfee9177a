/**
 * A template with every step type and every action (and each option an action may leave out, given
 * and left out), for the template language's round trips (issue 29 item 6): the editor's form, and
 * GET, open in the editor, save unchanged, GET again.
 */
export const EVERY_STEP: { type: string; options: Record<string, unknown> }[] = [
  { type: "HeaderCells", options: { header_row: 6, cells: [{ name: "Invoice", label: "Invoice No", beside: "RIGHT" }, { name: "Date", column: "B", row: 3 }, { name: "Period", label: "Billing period", beside: "BELOW" }] } },
  { type: "NameColumns", options: { action: "ROW_INDEX", row: 6 } },
  { type: "NameColumns", options: { action: "MAPPINGS", mappings: [{ column: "A", name: "Con" }] } },
  { type: "DeleteRows", options: { action: "ROW_INDEXES", indexes: [1, -1] } },
  { type: "DeleteRows", options: { action: "COLUMN_MATCH", column: "Con", pattern: "^total" } },
  { type: "EditValues", options: { action: "COPY", from: "A", to: "B", when: { column: "C", pattern: "^FSC$" } } },
  { type: "EditValues", options: { action: "COPY", from: "A", to: "D" } },
  { type: "EditValues", options: { action: "REPLACE", column: "A", pattern: "(\\d+)", replacement: "N$1" } },
  { type: "EditValues", options: { action: "STRIP", column: "Total" } },
  { type: "EditValues", options: { action: "STRIP", column: "Fuel", characters: "$," } },
  { type: "EditValues", options: { action: "WEEKS_TO_DATE", column: "Week", to: "Monday" } },
  { type: "EditValues", options: { action: "WEEKS_TO_DATE", column: "Week" } },
  { type: "EditValues", options: { action: "CALCULATE", operation: "DIFFERENCE", operands: [{ column: "Total" }, { column: "Fuel" }, { number: 2.5 }, { column: "7" }], to: "Freight" } },
  { type: "EditValues", options: { action: "CALCULATE", operation: "PRODUCT", operands: [{ column: "Kg" }, { number: 1.1 }], to: "Kg", decimals: 3 } },
  { type: "GroupBy", options: { action: "SUM", by: ["Con"], columns: ["Freight", "Fuel"] } },
  { type: "GroupBy", options: { action: "JOIN", by: ["Con"], columns: ["Ref"], separator: " / " } },
  { type: "JoinRows", options: { size: 2 } },
  { type: "JoinRows", options: { continuation: { column: "A", pattern: "^$" } } },
  {
    type: "MapFields",
    options: {
      mappings: [
        { field: "invoice_number", column: "Invoice" },
        { field: "invoice_date", column: "Date" },
        { field: "consignment_number", column: "Con" },
        { field: "total_cost", column: "Total" },
      ],
      costs: [
        { category: "freight_charge", column: "Freight" },
        { category: "freight_charge", column: "Linehaul", description: "Linehaul" },
        { category: "fuel_charge", column: "Fuel", when: { column: "Total", compare: "GE", value: 0 } },
        { category: "credit_adjustment", column: "Fuel", when: { column: "Total", compare: "LT", value: 0 } },
        { category: "tail_lift_surcharge", column: "TL", when: { column: "Service", compare: "MATCHES", value: "^tail" } },
        { category: "security_surcharge", column: "SEC" },
      ],
    },
  },
];

