/**
 * Payable invoices, their lines, export and search (issue 18 items 3, 4, 7 and 8) in the OpenAPI
 * document; spread into its paths.
 */
import { errorResponses, idParam, ok } from "./openapi-parts";

const scoped = "Staff see every invoice; a customer's finance user only their own lines and the invoices holding them.";
const admin = "Admin or super admin; others 403.";
const filters = "?carrier_id, customer_id, date (this_week, last_week, fortnight, this_month, last_month, custom with from and to, YYYY-MM-DD; default fortnight: the 14 days up to today in the user's time zone and any invoice dated later), state (all, unallocated, allocated, exported; default unallocated, or all when none is)";

export const invoicePaths = {
  "/api/invoices": {
    get: { summary: `Payable invoices ${filters}: { invoices, meta: { counts, totals: { cost, consignments }, filters, truncated, audit } }; audit holds per carrier { carrier_id, carrier_name, lines, matched_automatically, matched_automatically_pct, discrepancy_found, disputed, recovered, duplicates_caught { count, amount } } over every invoice the filters pick, whatever its state (decision 029). ${scoped}`, responses: { ...ok("{ invoices, meta }"), ...errorResponses } },
  },
  "/api/invoices/groups": {
    get: { summary: `The same, grouped per carrier: { groups: [{ carrier_id, carrier_name, invoices, total_cost, consignments }], meta }. ${scoped}`, responses: { ...ok("{ groups, meta }"), ...errorResponses } },
  },
  "/api/invoices/{id}": {
    get: { summary: `One invoice with its line counters, possible_duplicate_of (the carrier invoice most of its lines repeat, set at import) the audit figure duplicates_caught { count, amount } (its lines found on another carrier invoice, decision 021) and, for a payable invoice, audit { lines, matched_automatically, matched_automatically_pct, discrepancy_found, disputed, recovered, duplicates_caught } (decision 029). ${scoped}`, parameters: [idParam("id")], responses: { ...ok("Invoice"), ...errorResponses } },
    put: { summary: `{ invoice_number, invoice_date (dd/mm/yyyy), total }. ${admin}`, parameters: [idParam("id")], responses: { ...ok("Invoice"), ...errorResponses } },
    delete: { summary: `Deletes the invoice, its lines, costs and kept file; 409 once exported. ${admin}`, parameters: [idParam("id")], responses: { ...ok("{ deleted, message }"), ...errorResponses } },
  },
  "/api/invoices/export": {
    post: {
      summary: `{ ids, format: csv | xlsx | accounting }, the ids all payable or all receivable (400 when mixed): csv/xlsx answer the file of lines and cost lines (formulas neutralised; a receivable invoice's at sell); accounting sends payable invoices as bills where the carrier is mapped to a supplier ({ exported, bills, skipped, message }) and receivable ones as sales invoices to the customer's card, made on first use ({ exported, sales, skipped, message }). Exported payable invoices and lines get state exported; receivable ones keep state invoiced and get exported_at. ${admin}`,
      responses: { ...ok("File, or { exported, bills | sales, skipped, message }"), ...errorResponses },
    },
  },
  "/api/invoices/search": {
    get: { summary: `?query= (3 characters or more): at most 10 { id, invoice_number (or 'Pending'), references, consignment_numbers, state, invoice_date, url }. ${scoped}`, responses: { ...ok("{ invoices }"), ...errorResponses } },
  },
  "/api/invoice_details": {
    get: { summary: `Invoice detail search: ?invoice_id, state, accounting_type, page, per_page (20, 50, 100, 150), order_by, order_direction; meta_data=true for the counters only. ${scoped}`, responses: { ...ok("{ invoice_details, pagination, meta }"), ...errorResponses } },
  },
  "/api/invoices/{invoiceId}/invoice_details/{id}": {
    get: { summary: `One line with its costs and position ('n of total', first, previous, next, last). ${scoped}`, parameters: [idParam("invoiceId"), idParam("id")], responses: { ...ok("Invoice detail"), ...errorResponses } },
    put: { summary: `The payable line's fields, customer_id, site_id, service_id (or 'unquoted'); all three set make it allocated by hand. ${admin}`, parameters: [idParam("invoiceId"), idParam("id")], responses: { ...ok("Invoice detail"), ...errorResponses } },
  },
};
