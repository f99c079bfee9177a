/** The reconciliation detail calls in the OpenAPI document (issue 19 item 3); spread into openapi.ts's paths. */
import { errorResponses, idParam, ok } from "./openapi-parts";

const conflict = { "404": { description: "No such reconciliation (or another customer's)" }, "409": { description: "Stale version (error_code stale: 'Unable to save. {message}') or not allowed in its state" } };

export const reconciliationDetailPaths = {
  "/api/reconciliations/{id}": {
    get: {
      summary: "Finance users (scoped to their customer): one reconciliation",
      parameters: [idParam("id")],
      responses: {
        ...ok(
          "{ id, state, version, invoice_detail (with costs), customer_invoice_detail, consignment { buy_costs, sell_costs, total_buy_cost, total_sell_cost, rating_detail { charge_weight, from_zone, to_zone, markup, surcharge_markup }, sender_address, receiver_address }, notes [{ text, user_name, timestamp, user_id }], reconciliation_options { charge_from_consignment, rerate_required, not_rerated }, discrepancy_amount, margin and margin_percent (the customer's charge without GST less the carrier's), charged { source, excluding_gst, gst, including_gst }, reason_categories, reconciliation_reasons, sell { charged_from, credit, fallback, total, lines }, preview, rerate { status, label, error, disabled, buy_costs, sell_costs, rating_detail } }",
        ),
        "404": conflict["404"],
      },
    },
    put: {
      summary:
        "Invoice admins: { version, note?, state?: 'reconciled', charge_from_consignment? } saves (a note is needed: errors.notable ['Note required.']), Save + Accept, or the Charge From preview alone; or { version, costs: [{ id?, category, description, amount }], cost_note } saves the line's costs ('Invalid data, ...', 'Nothing to save.', 'Note required.'); answers the reconciliation",
      parameters: [idParam("id")],
      requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["version"], properties: { version: { type: "integer" }, note: { type: "string", maxLength: 255 }, state: { type: "string", enum: ["reconciled"] }, charge_from_consignment: { type: "boolean" }, costs: { type: "array", items: { type: "object" } }, cost_note: { type: "string", maxLength: 255 } } } } } },
      responses: { ...ok("the reconciliation, as GET answers it"), ...conflict },
    },
  },
  "/api/reconciliations/{id}/reconcile": {
    post: {
      summary: "Invoice admins (Re Run): the line compared again and re-rated; 409 'Failed to reconcile, reason: {message}' when reconciled",
      parameters: [idParam("id")],
      responses: { ...ok("the reconciliation, as GET answers it"), ...conflict, ...errorResponses },
    },
  },
};
