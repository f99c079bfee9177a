/**
 * Receivable invoicing and its schedules (issue 19 points 5 to 7) in the OpenAPI document; spread
 * into its paths after openapi-invoices (whose GET /api/invoices it keeps, adding the POST).
 */
import { invoicePaths } from "./openapi-invoices";
import { errorResponses, idParam, ok } from "./openapi-parts";

const admin = "Admin or super admin; others 403.";
const scoped = "Staff see every customer's; a customer's finance user only their own customer's.";

export const invoicingPaths = {
  "/api/invoices": {
    ...invoicePaths["/api/invoices"],
    post: {
      summary: `{ invoice_detail_ids, rebill?, note? }: queues the invoicing job, { job_id }. A consignment's charge of a cost category is billed once (decision 021): a line whose charge a customer invoice bills already, or two lines billing the same charge, are a 422 on invoice_detail_ids naming the consignment, category and customer invoice; rebill: true with a note (required, at most 255 characters) bills them again, recorded. The lines must be invoiceable (payable lines whose reconciliation is reconciled and that no customer invoice bills yet, GET /api/invoice_details?state=invoiceable&accounting_type=payable); others, and lines the user cannot see, are skipped, and none invoiceable is a 422 on invoice_detail_ids. The job groups the lines by the customer's invoice_allocate_by (CUSTOMER, SITE, REGION) into receivable invoices numbered without gaps, with GST by the billing country (AU 10 %, NZ 15 %, US none), renders each PDF and e-mails it to the customer's invoicing_email; done 'Invoicing complete: ...', failure 'Invoicing error'. ${admin}`,
      responses: { ...ok("{ job_id }"), ...errorResponses },
    },
  },
  "/api/invoicing_schedules": {
    get: { summary: `Invoicing schedules: { invoicing_schedules: [{ id, period, options: { invoice_detail_ids, invoicing_options: { day, date, hour, time_zone } }, next_run_at, last_run_at, last_job_id }] }. ${scoped}`, responses: { ...ok("{ invoicing_schedules }"), ...errorResponses } },
    post: {
      summary: `{ period: ONCE | WEEKLY, options: { invoice_detail_ids, invoicing_options: { day (Monday..Sunday; WEEKLY needs it), date (YYYY-MM-DD, ONCE), hour (HH:MM in 30-minute steps), time_zone (Australian zones, Pacific/Auckland) } } }: { invoicing_schedule } with next_run_at on the zone's wall clock; a time passed or a date before today (UTC) is a 422 on next_run_at. Each due run queues the invoicing job for its lines still invoiceable, at most once. ${admin}`,
      responses: { ...ok("{ invoicing_schedule }"), ...errorResponses },
    },
  },
  "/api/invoices/{id}/original_file": {
    get: {
      summary: "The file of the invoice: the carrier's file it was imported from (payable), or its PDF (receivable, application/pdf). Finance users; a customer's users only for invoices holding their lines.",
      parameters: [idParam("id")],
      responses: { "200": { description: "the file" }, ...errorResponses },
    },
  },
};
