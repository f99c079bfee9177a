/** The reconciliation report (issue 19 point 4) in the OpenAPI document; spread into openapi.ts's paths. */
import { errorResponses, idParam, ok } from "./openapi-parts";
import { REPORT_COLUMNS, RESULT_COLUMNS } from "../reconciliation/report-csv";

const csv = { "200": { description: "text/csv", content: { "text/csv": {} } }, ...errorResponses };

export const reconciliationReportPaths = {
  "/api/reconciliations_template": {
    get: { summary: `Finance users: the report's CSV template: the header (${REPORT_COLUMNS.join(", ")}) and an example row`, responses: csv },
  },
  "/api/old_reconciliations": {
    post: {
      summary:
        "Finance users: each line's consignment (by number, only the user's customer's for a customer's user) against its stored rating: rated buy, charged, variance and percentage, within or outside the thresholds (|variance| ≤ threshold_amount or ≤ threshold_percentage % of the rated buy; the edge is within). rerate=true (invoice admins only, at most 2,000 lines) also prices each consignment again with the line's charge weight. A file with no line to check (empty, header only, wrong header, over 50,000 lines, not csv, over 10 MB) is refused with 422; bad lines are listed with their line numbers and the others reported. Recorded in reconciliation_reports.",
      parameters: [
        { name: "threshold_amount", in: "query", required: false, schema: { type: "string", maxLength: 6, default: "0.2" } },
        { name: "threshold_percentage", in: "query", required: false, schema: { type: "string", maxLength: 4, default: "2" } },
        { name: "rerate", in: "query", required: false, schema: { type: "string", enum: ["true", "false"] } },
      ],
      requestBody: { required: true, content: { "multipart/form-data": { schema: { type: "object", properties: { file: { type: "string", format: "binary" } } } }, "text/csv": { schema: { type: "string" } } } },
      responses: ok(
        `{ id, file_name, rerate, threshold_amount, threshold_percentage, summary: { lines, within, outside, not_found, not_rated, skipped, variance (cents) }, results: [first 100 rows of the result file], line_errors: [{ line, message }], download_url }`,
      ),
    },
  },
  "/api/old_reconciliations/{id}": {
    get: { summary: `The uploader (or staff): the report's result CSV (${RESULT_COLUMNS.join(", ")}), formulas neutralised`, parameters: [idParam("id")], responses: csv },
  },
};
