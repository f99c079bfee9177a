/**
 * The three demo templates (issue 18 item 9), one per layout of layouts.ts, in the shape the
 * template editor and POST /api/carrier_invoice_configs send: saved through saveConfig, so they
 * are checked like any other.
 */
export const TEMPLATE_NAMES = { NORTHLINE: "Northline tax invoice (CSV)", auspost: "Australia Post eParcel charges (XLSX)", SIMEX: "Simulated Express weekly statement (XLS)" } as const;

const map = (pairs: Record<string, string>) => Object.entries(pairs).map(([field, column]) => ({ field, column }));

/** Letterhead and preamble (rows 1 to 3), the header on row 5, a total row to drop; "$1,234.50" amounts, DD/MM/YYYY dates. */
export const northlineTemplate = (carrierId: number) => ({
  name: TEMPLATE_NAMES.NORTHLINE,
  carrier_id: carrierId,
  parser: { format: "CSV", sheets: [] },
  transformations: [
    { type: "NameColumns", options: { action: "ROW_INDEX", row: 5 } },
    { type: "DeleteRows", options: { action: "ROW_INDEXES", indexes: [-1] } },
    {
      type: "MapFields",
      options: {
        mappings: map({
          invoice_number: "Invoice No", invoice_date: "Invoice Date", account_number: "Account No", consignment_number: "Con Note", despatch_date: "Despatch Date",
          sender_name: "Sender", sender_locality: "Sender Suburb", sender_postcode: "Sender Postcode", receiver_name: "Receiver", receiver_locality: "Receiver Suburb",
          receiver_postcode: "Receiver Postcode", service_description: "Service", sender_zone: "From Zone", receiver_zone: "To Zone", total_quantity: "Items",
          total_weight_in_uom: "Dead Weight (kg)", total_charge_weight: "Charge Weight (kg)", total_cost: "Total Ex GST",
        }),
        costs: [
          { category: "freight_charge", column: "Freight" },
          { category: "fuel_charge", column: "Fuel Levy" },
          { category: "oversize_surcharge", column: "Surcharges", description: "Oversize surcharge" },
        ],
      },
    },
  ],
});

/** One row per charge: each charge code's amount copied into its own column, then one line per consignment (GroupBy SUM). */
export const auspostTemplate = (carrierId: number) => ({
  name: TEMPLATE_NAMES.auspost,
  carrier_id: carrierId,
  parser: { format: "XLSX", sheets: ["Charges"] },
  transformations: [
    { type: "NameColumns", options: { action: "ROW_INDEX", row: 1 } },
    { type: "EditValues", options: { action: "COPY", from: "Amount Ex GST", to: "Freight", when: { column: "Charge Code", pattern: "^FRT$" } } },
    { type: "EditValues", options: { action: "COPY", from: "Amount Ex GST", to: "Fuel", when: { column: "Charge Code", pattern: "^FSC$" } } },
    { type: "EditValues", options: { action: "COPY", from: "Amount Ex GST", to: "Handling", when: { column: "Charge Code", pattern: "^MHS$" } } },
    { type: "GroupBy", options: { action: "SUM", by: ["Consignment ID"], columns: ["Freight", "Fuel", "Handling"] } },
    {
      type: "MapFields",
      options: {
        mappings: map({
          invoice_number: "Invoice Number", invoice_date: "Invoice Date", account_number: "Account Number", consignment_number: "Consignment ID", despatch_date: "Lodgement Date",
          service_description: "Product", total_charge_weight: "Billed Weight (kg)", sender_zone: "From Zone", receiver_zone: "To Zone", receiver_name: "Addressee",
          receiver_locality: "Suburb", receiver_postcode: "Postcode", receiver_region: "State",
        }),
        costs: [
          { category: "freight_charge", column: "Freight" },
          { category: "fuel_charge", column: "Fuel", description: "Fuel surcharge" },
          { category: "manual_handling_surcharge", column: "Handling" },
        ],
      },
    },
  ],
});

/** A title row, the header on row 2, the billing period as an ISO week turned into its Monday. */
export const simexTemplate = (carrierId: number) => ({
  name: TEMPLATE_NAMES.SIMEX,
  carrier_id: carrierId,
  parser: { format: "XLS", sheets: [] },
  transformations: [
    { type: "NameColumns", options: { action: "ROW_INDEX", row: 2 } },
    { type: "EditValues", options: { action: "WEEKS_TO_DATE", column: "Billing Week", to: "Week Commencing" } },
    {
      type: "MapFields",
      options: {
        mappings: map({
          invoice_number: "Statement No", invoice_date: "Statement Date", despatch_date: "Week Commencing", account_number: "Account", consignment_number: "Connote",
          service_description: "Service", total_quantity: "Pieces", total_weight_in_uom: "Actual Kg", total_charge_weight: "Billed Kg", sender_zone: "Origin Zone",
          receiver_zone: "Dest Zone", receiver_name: "Consignee", receiver_locality: "Consignee Suburb", receiver_postcode: "Consignee P/Code", total_cost: "Net Amount",
        }),
        costs: [
          { category: "freight_charge", column: "Base Charge" },
          { category: "fuel_charge", column: "Fuel" },
        ],
      },
    },
  ],
});
