/** The export report calls of the OpenAPI document (issue 15 item 4); spread into openapi.ts's paths. */
import { MESSAGES } from "../exports/criteria";
import { exportHeaders } from "../exports/columns";
import { errorResponses, idParam } from "./openapi-parts";

const date = (description: string) => ({ type: "string", pattern: "^\\d{1,2}/\\d{1,2}/\\d{4}$", description });

export const exportPaths = {
  "/api/exports": {
    post: {
      summary:
        `Users with can_export: queue an export of the active consignments despatched between the dates (the user's customer and sites). 202 { job_id }; GET /api/job_status/{job_id} reports progress, then GET /api/exports/{job_id}/download. 422 per field: '${MESSAGES.fromRequired}', '${MESSAGES.toRequired}', '${MESSAGES.invalidDate}', '${MESSAGES.rangeTooLarge}' (not for admins), '${MESSAGES.unknownSite}'. Columns: ${exportHeaders(false).join(", ")}; new_export (admins and super admins, else 403) adds the sell and buy cost lines by category. Text cells starting with = + - @ tab or CR gain a leading apostrophe`,
      parameters: [
        { name: "format", in: "query", required: false, schema: { type: "string", enum: ["csv", "xlsx"], default: "csv" } },
        { name: "new_export", in: "query", required: false, schema: { type: "boolean", default: false } },
      ],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["from_date", "to_date"],
              properties: { site_code: { type: "string", default: "ALL", description: "ALL or one of the user's site codes" }, from_date: date("DD/MM/YYYY"), to_date: date("DD/MM/YYYY") },
            },
          },
        },
      },
      responses: { "202": { description: "{ job_id }", content: { "application/json": {} } }, ...errorResponses },
    },
  },
  "/api/exports/{jobId}/download": {
    get: {
      summary: "The finished export's file (text/csv or xlsx), named like consignments-2026-08-01-to-2026-10-31.csv; only for the user who ran it (anyone else, or a file past its 2 days: 404)",
      parameters: [idParam("jobId")],
      responses: { "200": { description: "The file", content: { "text/csv": {}, "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": {} } }, ...errorResponses, "404": { ...errorResponses["401"], description: "No such export of yours" } },
    },
  },
} as const;
