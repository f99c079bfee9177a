/** The reconciliations list and its bulk actions in the OpenAPI document (issue 19 item 2); spread into openapi.ts's paths. */
import { ok } from "./openapi-parts";

const q = (name: string, description: string, schema: Record<string, unknown> = { type: "string" }) => ({ name, in: "query", required: false, schema, description });
const row =
  "{ id, state, version, invoice_detail_id, invoice_id, invoice_number, consignment_id, consignment_number, carrier_id, carrier_code, carrier_name, customer_id, customer_name, from_zone, to_zone, weight, rated_buy, invoiced, margin, margin_percent, discrepancy_amount, reason_categories, reconciliation_reasons: [{ reason }], reconciliation_options: { charge_from_consignment, rerate_required }, reconciled_at }";
const outcome = "{ action, done: [{ id, from, to }], refused: [{ id, message }], message }";
const body = (withNote: boolean) => ({
  required: true,
  content: {
    "application/json": {
      schema: {
        type: "object",
        required: withNote ? ["ids", "note"] : ["ids"],
        properties: {
          ids: { type: "array", items: { type: "integer" }, description: "1 to 10,000 reconciliation ids; repeated ids count once" },
          ...(withNote ? { note: { type: "string", maxLength: 255, description: "required: 'Note needed for bulk updating reconciliations.'" } } : {}),
        },
      },
    },
  },
});
const bulk = (summary: string, withNote: boolean, extra = "") => ({
  put: { summary: `Reconciliation admins (admin, super admin): ${summary}. Lines whose state does not allow it are refused per line ('{Action} is not allowed on {Tab} reconciliations.'), ids not seen 'No such reconciliation.'`, requestBody: body(withNote), responses: { ...ok(`${outcome}${extra}`), "405": { description: "Only PUT" } } },
});

export const reconciliationsListPaths = {
  "/api/reconciliations": {
    get: {
      summary:
        "Finance users: a page of one tab's reconciliations (a customer's finance user: their customer's only). Column filters: consignment_number and invoice_number from their start, zones whole (case aside), weight, margin and discrepancy equal. meta_data=true answers { states: { reconciling, disputed, reconciled }, totals: { margin, discrepancy } } for the same filters (counts over every tab, totals of the tab)",
      parameters: [
        q("state", "reconciling (default), disputed or reconciled", { type: "string", enum: ["reconciling", "disputed", "reconciled"] }),
        q("per_page", "20, 50, 100 or 150; default the user option reconciliation_per_page, else 20", { type: "integer", enum: [20, 50, 100, 150] }),
        q("page", "from 1", { type: "integer" }),
        q("invoice_id", "one invoice's lines", { type: "integer" }),
        q("reasons", "comma list of reason categories: lines with any of them"),
        q("carrier_code", "the carrier's code"),
        q("customer_id", "one customer's lines", { type: "integer" }),
        ...["consignment_number", "invoice_number", "from_zone", "to_zone", "weight", "margin", "discrepancy"].map((f) => q(f, "column filter")),
        q("order_by", "id (default, newest first), consignment_number, invoice_number, from_zone, to_zone, weight, margin or discrepancy"),
        q("order_direction", "asc or desc", { type: "string", enum: ["asc", "desc"] }),
        q("meta_data", "true: the counts and totals instead of the rows", { type: "boolean" }),
      ],
      responses: ok(`{ reconciliations: [${row}], pagination: { current_page, total_pages, total_records, per_page } }`),
    },
  },
  "/api/reconciliations/dispute": bulk(
    "dispute Un-Reconciled lines with a note; then the disputed lines and their evidence are e-mailed to each carrier's support address (one e-mail per address)",
    true,
    " plus emails: { sent: [{ to, ids }], not_emailed: [ids] }",
  ),
  "/api/reconciliations/accept": bulk("accept Un-Reconciled or Disputed lines with a note: reconciled, reconciled_at set", true),
  "/api/reconciliations/use_consignment_costs": bulk("charge Un-Reconciled lines at the consignment's rated costs with a note: reconciled, charge_from_consignment true", true),
  "/api/reconciliations/reset": bulk("put Disputed or Reconciled lines back to Un-Reconciled, deleting their notes and reasons and comparing them again; message 'Failed to reset reconciliations, {message}' when none could be", false),
} satisfies Record<string, unknown>;

