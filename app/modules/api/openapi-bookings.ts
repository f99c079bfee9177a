/** The bookings calls of the OpenAPI document (issue 17 item 5); spread into openapi.ts's paths. */
import { ALL_FAILED, BOOKINGS_SENT, CLOSING_TIME_PASSED, FILL_ADDITIONAL_ITEMS, NO_CONSIGNMENTS_LEFT, NONE_TO_BOOK, NOT_REBOOKABLE, NOTHING_SELECTED, SPECIAL_REQUIREMENTS_TOO_LONG } from "../bookings/rules";
import { DATE_RANGE_TOO_LARGE } from "../despatch/manifest-dates";
import { errorResponses, idParam } from "./openapi-parts";

const ok = (description: string) => ({ "200": { description, content: { "application/json": {} } }, ...errorResponses });
const query = (name: string, description: string) => ({ name, in: "query", required: false, schema: { type: "string" }, description });
const job = `{ job_id, booking_ids, warnings }: GET /api/job_status/{job_id} reports 'Booked n of total bookings', then '${BOOKINGS_SENT}', '${ALL_FAILED}' (failed, with each refusal in errors) or 'Booked n of total bookings' with the refusals. warnings: '${CLOSING_TIME_PASSED}' when the day (or today's closing time, the site's else the booking's) has passed and the pickup moved to the next business day`;

export const bookingPaths = {
  "/api/bookings": {
    get: {
      summary: `Users with can_book: the customer's bookings at the user's sites with booking dates in the range (blank = today at the site; at most 2 months, else 422 '${DATE_RANGE_TOO_LARGE}'), sorted by booking date unless sort names a column; message 'There are no bookings to display.' when none`,
      parameters: [
        query("from_date", "YYYY-MM-DD (also fromDate)"),
        query("to_date", "YYYY-MM-DD (also toDate)"),
        query("site_id", "one of the user's sites (also siteId); blank = all"),
        query("sort", "booking_date | booking_number | state | site_name | carrier_name | service_name | total_consignments"),
        query("direction", "asc | desc"),
      ],
      responses: ok("{ bookings: [{ id, booking_number, state, state_label, carrier_name, service_code, service_name, booking_date, ready_at, closing_at, totals, hazardous_goods, failed_booking, rebook, booking_error, ... }], filters, truncated, message }"),
    },
  },
  "/api/bookings/new": {
    get: {
      summary: `Users with can_book: what a site's day has to book: its despatched consignments not yet booked, by carrier and service (one without weight is not bookable and carries a warning), the default pickup window (ready at the next quarter hour, closing at the site's closing time) and message '${NONE_TO_BOOK}' when there are none`,
      parameters: [query("site_id", "one of the user's sites; blank = the current site"), query("date", "YYYY-MM-DD; blank = today at the site")],
      responses: ok("{ site, date, today, ready_at, closing_at, groups: [{ carrier_code, carrier_name, service_code, service_name, consignments }], message }"),
    },
  },
  "/api/bookings/book_all": {
    put: {
      summary: `Users with can_book: { bookings: [{ site_id, service_code, carrier_code?, booking_date?, consignment_ids, ready_at, closing_at (HH:MM on the quarter hour, closing after ready), additional_items_attributes: [{ quantity, type, length, width, height, weight_in_uom, hazard_class?, proper_shipping_name?, un_number? }], special_requirements (at most 200: '${SPECIAL_REQUIREMENTS_TOO_LONG}') }] }. All are checked, else nothing is made: 422 '${NONE_TO_BOOK}' (no bookings), '${NOTHING_SELECTED}', '${FILL_ADDITIONAL_ITEMS}' (an item with some fields; the DG fields go together with the weight); 404 for a consignment not the user's; 409 for one not despatched at that site with that service, or already booked. Answers ${job}`,
      responses: ok("{ job_id, booking_ids, warnings }"),
    },
  },
  "/api/bookings/{id}": {
    get: { summary: `Users with can_book: one booking with its consignments; error '${NO_CONSIGNMENTS_LEFT}' when nothing is left to pick up. Another customer's or another site's: 404`, parameters: [idParam("id")], responses: ok("The booking, additional_items, consignments, error") },
    put: { summary: `Users with can_book: { rebook: true } books a failed booking (failed or failed_permanently) again; 409 '${NOT_REBOOKABLE}' or '${NO_CONSIGNMENTS_LEFT}'. Answers ${job}`, parameters: [idParam("id")], responses: ok("{ job_id, booking_ids, warnings }") },
  },
} as const;
