/**
 * The /api contract as OpenAPI 3.1, served at /api/openapi.json. A test checks that every route
 * file under app/routes/api+ and users+ has its path here and every path here has a route.
 */
import { errorResponses, idParam, ok } from "./openapi-parts";
import { consignmentInformationPaths } from "./openapi-consignment-information";
import { exportPaths } from "./openapi-exports";
import { notificationConfigPaths } from "./openapi-notification-configs";
import { notificationTypePaths } from "./openapi-notification-types";
import { searchPaths } from "./openapi-search";
import { noticesAdminPaths } from "./openapi-notices-admin";
import { usersPaths } from "./openapi-users";
import { customEmailsDeclarationsPaths } from "./openapi-custom-emails-declarations";
import { recipientsPaths } from "./openapi-recipients";
import { bookingPaths } from "./openapi-bookings";
import { customersAdminPaths } from "./openapi-customers-admin";
import { enquiryPaths } from "./openapi-enquiries";
import { trackingPaths } from "./openapi-tracking";
import { itemTypePaths } from "./openapi-item-types";
import { shippingRulePaths } from "./openapi-shipping-rules";
import { sitesAccountsPaths } from "./openapi-sites-accounts";
// issue 17 item 6: online store
import { storePaths } from "./openapi-stores";
import { carriersAdminPaths } from "./openapi-carriers-admin";
// issue 17: bulk upload
import { bulkUploadPaths } from "./openapi-bulk-upload";
// issue 17 items 7 and 8
import { brandingMyobPaths } from "./openapi-branding-myob";
// issue 18 items 5 and 6: allocation rules and allocation
import { allocationPaths } from "./openapi-allocation";
import { reconciliationsListPaths } from "./openapi-reconciliations-list";
// issue 18 part B: payable invoices, lines, export, search
import { invoicePaths } from "./openapi-invoices";
import { invoicingPaths } from "./openapi-invoicing";
// issue 18 part A: invoice templates and import
import { invoiceImportPaths, invoiceTemplateSchemas } from "./openapi-invoice-import";
// issue 19 item 3: reconciliation detail
import { reconciliationDetailPaths } from "./openapi-reconciliation-detail";
import { reconciliationReportPaths } from "./openapi-reconciliation-report";
// issue 34 item 3: Idempotency-Key on every POST
import { emissionsPaths, emissionsSchemas } from "./openapi-emissions";
import { idempotencyParameters, idempotencyResponses, withIdempotencyKeys } from "./openapi-idempotency";
// issue 34 item 1: webhooks, their calls and their events
import { webhookEvents, webhookPaths } from "./openapi-webhooks";
import { insightPaths } from "./openapi-insight";

export const openApiDocument = {
  openapi: "3.1.0",
  info: { title: "FreightDesk API", version: "0.1.0", description: "Calls of spec section 7; JSON in, JSON out, snake_case." },
  servers: [{ url: "/" }],
  security: [{ session: [] }, { bearer: [] }],
  components: {
    securitySchemes: {
      session: { type: "apiKey", in: "cookie", name: "fd_session" },
      bearer: { type: "http", scheme: "bearer", description: "The user's authentication_token" },
      storeKey: { type: "http", scheme: "bearer", description: "An online store's API key (POST /api/store/{external_id}/rates only)" },
    },
    schemas: {
      Errors: {
        type: "object",
        properties: {
          errors: { type: "object", additionalProperties: { type: "array", items: { type: "string" } } },
          error_code: { type: "string", enum: ["stale"] },
          password_reset_required: { type: "boolean" },
        },
        required: ["errors"],
      },
      ...invoiceTemplateSchemas,
      ...emissionsSchemas,
    },
    parameters: idempotencyParameters,
    responses: idempotencyResponses,
  },
  paths: withIdempotencyKeys({
    "/users/sign_in": {
      post: {
        summary: "Sign in: { user: { email, password, remember_me } } -> { user, redirect }",
        security: [],
        responses: { ...ok("Signed in; sets the session cookie"), "429": { description: "Too many attempts" } },
      },
    },
    "/users/custom_sign_out": { delete: { summary: "Sign out", responses: ok("Signed out") } },
    "/users/forgot_password": {
      post: { summary: "Request a reset link: { email }; always the same message", security: [], responses: ok("{ message }") },
    },
    "/users/saml_sign_in": { get: { summary: "Single sign-on (501 until configured)", security: [], responses: { "501": { description: "Not configured" } } } },
    "/api/users/current": { get: { summary: "The signed-in user", responses: ok("User") } },
    "/api/users/switch_customer/{id}": {
      post: { summary: "Staff: work in another customer (POST or PUT; GET answers 405)", parameters: [idParam("id")], responses: ok("User, or { status: failed, message }") },
      put: { summary: "Same as POST", parameters: [idParam("id")], responses: ok("User") },
    },
    "/api/users/{id}/unlock": {
      post: { summary: "Staff (devs, super admin, admin, customer service): end a user's sign-in lock early; users of the current customer only", parameters: [idParam("id")], responses: ok("{ status: unlocked }") },
    },
    "/api/customers/list": { get: { summary: "Staff: customers with LIVE / TEST / DISABLED status", responses: ok("{ customers }") } },
    "/api/update_user_options/{userId}": {
      put: { summary: "Merge { options } into the user's options", parameters: [idParam("userId")], responses: ok("{ user_options }") },
    },
    "/api/notices": {
      get: {
        summary: "A page of the user's notices",
        parameters: [
          { name: "limit", in: "query", schema: { type: "integer", default: 20, maximum: 100 } },
          { name: "offset", in: "query", schema: { type: "integer", default: 0 } },
        ],
        responses: ok("{ notices, total, unseen }"),
      },
    },
    "/api/notices/{id}": {
      put: { summary: "{ seen: true } marks it seen for the user; { published: true|false } (staff other than customer service) publishes it to every user of its customer or withdraws it", parameters: [idParam("id")], responses: ok("{ id, seen }, or the notice") },
      delete: { summary: "Remove from the user's list", parameters: [idParam("id")], responses: ok("{ deleted }") },
    },
    "/api/notices/mark_all_as_seen": { post: { summary: "{ ids? } marks those, or all, seen", responses: ok("{ marked, unseen }") } },
    "/api/job_status/{jobId}": {
      get: { summary: "Job progress: status, pct_complete, message, errors, info, total (a despatch: how many consignments, else null); readable by the user who started it, or by a user of its customer who sees every site its consignments are on", parameters: [idParam("jobId")], responses: ok("Job status") },
    },
    "/api/carrier_selection": {
      post: {
        summary:
          "Rate a consignment with every service of the site: the rate response of spec 1 section 3, with each rate's rating_detail. The customer's shipping rules apply (docs/decisions/040): excluded carriers are left out, rule_applied is shipping_rule when a rule chose the selection (chosen_by_rule on that rate names it), and shipping_rule says what the rules decided; optional reference and declared_value are read by rules only",
        responses: ok("{ carriers, selected_index, rule_applied, shipping_rule }"),
      },
    },
    "/api/consignments": {
      get: {
        summary:
          "The consignment list: active, non-quote consignments of the user's customer and sites, by despatch date. { consignments: [rows], meta: { date_start, date_end, returns, outbounds, warning, next } }; a row has id, consignment_number (or Pending), party_name (19 characters), despatch_date, reference (12), item_count, weight, volume, hazardous, item_references (customer option view_item_references), state, return_type, url. Pages by keyset: meta.next is the after of the next page",
        parameters: [
          { name: "filter", in: "query", schema: { type: "string", enum: ["metadata", "incomplete", "labels_to_print", "complete", "despatched", "failed"], default: "metadata" } },
          { name: "dateFilter", in: "query", schema: { type: "string", enum: ["today", "last_3_days", "last_7_days", "last_14_days", "last_30_days", "this_week", "next_7_days"], default: "today" } },
          { name: "siteId", in: "query", description: "one of the user's site ids, or all", schema: { type: "string" } },
          { name: "site", in: "query", description: "a site code instead of siteId", schema: { type: "string" } },
          { name: "service_code", in: "query", description: "outbound consignments of carrier services with this code", schema: { type: "string" } },
          { name: "returns", in: "query", description: "true: returns and third-party pickups only; false: outbound only", schema: { type: "boolean" } },
          { name: "auto_printing", in: "query", description: "only consignments whose labels are still to print, oldest first", schema: { type: "boolean" } },
          { name: "timestamp", in: "query", description: "cache-buster, ignored", schema: { type: "string" } },
          { name: "sort", in: "query", schema: { type: "string", enum: ["consignment_number", "party_name", "despatch_date", "reference", "item_count", "weight", "volume", "hazardous"], default: "despatch_date" } },
          { name: "dir", in: "query", schema: { type: "string", enum: ["asc", "desc"], default: "desc" } },
          { name: "after", in: "query", description: "meta.next of the previous page", schema: { type: "string" } },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 1000, default: 500 } },
        ],
        responses: ok("{ consignments, meta }"),
      },
      post: {
        summary:
          "Create a consignment (or a quote with is_quote: true): the consignment object of spec 1 section 3 (sender_address, receiver_address, items nested). Priced on the server; carrier_code + service_code choose a service, else the selection rules do. 201 with the consignment; incomplete ones are saved open with errors per field",
        responses: { "201": { description: "The consignment", content: { "application/json": {} } }, ...errorResponses },
      },
    },
    "/api/consignments/{id}": {
      get: { summary: "One consignment of the user's customer and sites; `emissions` (see the Emissions schema) is its well-to-wheel kg CO2e, or null with `emissions_reason`", parameters: [idParam("id")], responses: ok("The consignment") },
      put: {
        summary: "Update from the version read ({ version, ...consignment }); an older version answers 409 with error_code stale. { redespatch: true } sends its failed manifest again and { despatch: true } despatches it (saving first when the body carries the consignment): both answer { job_id }. { superadmin: true, version, ...fields } is a super admin's information edit (see /api/consignment_information)",
        parameters: [idParam("id")],
        responses: { ...ok("The consignment"), "409": { description: "Stale version, or no longer editable", content: { "application/json": { schema: { $ref: "#/components/schemas/Errors" } } } } },
      },
    },
    "/api/consignments/{id}/update_despatched_consignment": {
      put: { summary: "Charge account of a failed despatch { version, charge_account } (admin or super admin)", parameters: [idParam("id")], responses: ok("The consignment") },
    },
    "/api/addresses": {
      post: {
        summary: "Add an address-book entry (recipient): name, address_line_1..4, sublocality, locality, postcode, region, country, phone, email, address_type, special_instructions; needs can_edit_recipients",
        responses: { "201": { description: "The address", content: { "application/json": {} } }, ...errorResponses },
      },
    },
    "/api/addresses/{id}": {
      get: { summary: "An address-book entry of the working customer", parameters: [idParam("id")], responses: ok("The address") },
      put: { summary: "Edit an address-book entry (can_edit_recipients)", parameters: [idParam("id")], responses: ok("The address") },
    },
    "/api/consignments/mergeable_consignments": {
      post: { summary: "{ id }: consignments it could be merged into (same site, receiver address and despatch date; merge limit)", responses: ok("{ consignments, merge_limit }") },
    },
    "/api/consignments/{id}/merge": {
      post: { summary: "{ source_id }: the source's items join consignment {id}, which is re-priced; the source becomes merged", parameters: [idParam("id")], responses: ok("The merged consignment") },
    },
    "/api/consignments/destroy_all": { post: { summary: "Soft-delete consignments ?ids=1,2 or { ids } (not despatched); all or nothing", responses: ok("{ deleted }") } },
    "/api/consignments/reinstate_all": { post: { summary: "Undo a delete { ids }", responses: ok("{ reinstated }") } },
    "/api/promote_quote_to_consignment/{id}": {
      put: { summary: "A valid quote (complete, with a rate) becomes a consignment in place, re-priced; has_quote_origin is set", parameters: [idParam("id")], responses: ok("The consignment") },
    },
    "/api/returns": {
      post: {
        summary: "Create a return (return_type: return) or third-party pickup (third_party), optionally a quote (is_quote); the consignment object plus return_info { ready_at, closing_at, contact_name, phone_number, pickup_location, email, email_body }",
        responses: { "201": { description: "The return", content: { "application/json": {} } }, ...errorResponses },
      },
    },
    "/api/returns/{id}": {
      get: { summary: "A return or third-party pickup", parameters: [idParam("id")], responses: ok("The return") },
      put: { summary: "Update from the version read; { superadmin: true, version, return_info } lets a super admin correct pickup information in any state", parameters: [idParam("id")], responses: ok("The return") },
    },
    "/api/returns/{id}/despatch": {
      post: { summary: "{ send_email }: despatch a return or third-party pickup in a job; with send_email its labels and manifest go to return_info.email", parameters: [idParam("id")], responses: ok("{ job_id }") },
    },
    "/api/returns/{id}/email": {
      post: { summary: "E-mail the labels and manifest of a despatched return again", parameters: [idParam("id")], responses: ok("{ message: 'Labels and manifest emailed.' }") },
    },
    "/api/consignments/despatch_all": {
      put: {
        summary: "{ ids }: despatch the selection in a job (one manifest per site, carrier and account); 422 when none selected, 409 when one is not despatchable; GET /api/job_status/{job_id} reports progress",
        responses: { ...ok("{ job_id }"), "409": { description: "At least one of the consignments you have selected is not despatchable.", content: { "application/json": {} } } },
      },
    },
    "/api/consignments/{id}/initiate_cancel": {
      put: { summary: "Ask the carrier to cancel a despatched consignment (QA and UAT only; within the cancellation window unless admin)", parameters: [idParam("id")], responses: ok("{ result: cancel_pending | cancel_confirmed | cancel_confirmed_for_auto_delivered | cancel_rejected, message, state }") },
    },
    "/api/consignments/{id}/confirm_cancel": {
      put: { summary: "Customer service confirms a cancelling consignment", parameters: [idParam("id")], responses: ok("{ result, message, state }") },
    },
    "/api/carriers/{code}/simulation": {
      put: { summary: "Super admins: tell the simulated carrier to fail despatches or how to answer cancellations { fail_despatch?, cancel_result?, reject_message?, delay_ms? (0 to 120000: a slow despatch) }, and its journeys after despatch { journey_minutes? (0 to 10080, despatch to delivery on its clock for journeys planned from then on; null: until the estimated delivery date), fail_delivery? (the first delivery attempt fails) }, and its pickup bookings { fail_booking? (refused, can be rebooked), fail_booking_permanently? (refused for good) }", parameters: [idParam("code")], responses: ok("{ code, simulate }") },
    },
    "/api/consignments/{id}/allocate_without_printing": {
      put: { summary: "Give a complete consignment its number from the carrier account's range without printing (idempotent)", parameters: [idParam("id")], responses: ok("The consignment") },
    },
    "/api/printers": {
      get: { summary: "The customer's printers and the user's configuration { label, manifest, connote }", responses: ok("{ printers, configuration }") },
      post: { summary: "Save the user's configuration { label_printer_id, manifest_printer_id, connote_printer_id } (all three, each of its kind)", responses: ok("{ printers, configuration }") },
    },
    "/api/printers/{id}": { put: { summary: "Make this printer the user's printer of its kind", parameters: [idParam("id")], responses: ok("{ printers, configuration }") } },
    "/api/printers/type/{type}": {
      get: {
        summary: "?printable_type=consignment|manifest&printable_id=: the user's Label, Manifest or Connote printer and the document address in its form; 422 with the spec's message when none is configured",
        parameters: [idParam("type")],
        responses: ok("{ printer, url }"),
      },
    },
    "/api/manifests": {
      get: {
        summary:
          "?ids=1,2: those manifests (id, number, carrier_name, despatch_time, totals, hazardous_goods, failed_despatch, print flags, consignments_ids); otherwise ?fromDate&toDate (YYYY-MM-DD, blank = today, at most 2 months apart)&siteId (blank or ALL = every site): the manifest count by carrier",
        parameters: [
          { name: "ids", in: "query", schema: { type: "string" } },
          { name: "fromDate", in: "query", schema: { type: "string", format: "date" } },
          { name: "toDate", in: "query", schema: { type: "string", format: "date" } },
          { name: "siteId", in: "query", schema: { type: "string" } },
        ],
        responses: ok("{ manifests } or { from_date, to_date, site_id, carriers: [{ carrier_name, carrier_code, count }], total }"),
      },
    },
    "/api/manifests/consignments": {
      get: { summary: "?ids=1,2: the consignments of those manifests (list columns, state, url)", parameters: [{ name: "ids", in: "query", required: true, schema: { type: "string" } }], responses: ok("{ consignments }") },
    },
    "/api/manifests/{id}/ready_for_print": {
      get: { summary: "Manifest readiness, polled before printing: { status: pending|ready|failed, ready }", parameters: [idParam("id")], responses: ok("{ status, ready }") },
    },
    "/api/dangerous_goods_types": { get: { summary: "UN number or proper shipping name typeahead ?query (from 3 characters, 10 at most)", responses: ok("{ dangerous_goods_types }") } },
    "/api/dangerous_goods_types/import": {
      post: { summary: "Add or update dangerous goods entries from CSV (un_number, proper_shipping_name, hazard_class, sub_risk, packing_group, nos); staff", responses: ok("{ created, updated, skipped, skipped_total }") },
    },
    "/api/zones": {
      get: { summary: "A page of a scope's zones ?carrier_code&customer_code&site_code&service_code&q&page (staff)", responses: ok("{ zones, total, page, pages }") },
      post: { summary: "Save zone edits { carrier_code, ..., zones: [{ id?, postcode, locality?, code, _destroy? }] } (admin, super_admin, devs)", responses: ok("{ created, updated, deleted }") },
    },
    "/api/zones/import": { post: { summary: "Zone import step 1: multipart file + carrier_code, customer_code?, site_code?, service_code?", responses: ok("{ uuid, length }") } },
    "/api/zones/continue_import": { post: { summary: "Zone import step 2, repeated: { uuid, length } checks the next lines", responses: ok("{ processed, total, complete }") } },
    "/api/zones/finish_import": { post: { summary: "Zone import step 3: { uuid } applies it in one transaction", responses: ok("{ created, changed, deleted, invalid }") } },
    "/api/zones/export": { post: { summary: "Zones of a scope as CSV: { carrier_code, customer_code?, site_code?, service_code? }", responses: ok("text/csv") } },
    "/api/rate_editor/{url}": {
      post: { summary: "import (csv file or body, ?filename) all or nothing; delete (?filename or carrier/service/rate code)", parameters: [idParam("url")], responses: ok("Import report or { deleted }") },
    },
    "/api/rate_editor/export": { post: { summary: "Rate lanes as CSV in the import template: { carrier_code?, service_code?, rate_code? }", responses: ok("text/csv") } },
    "/api/rate_editor/download": { post: { summary: "The lanes one file imported, as CSV: { filename }", responses: ok("text/csv") } },
    "/api/customers/{id}/surcharges/search": { post: { summary: "The customer's surcharge sets { carrier_code? }", parameters: [idParam("id")], responses: ok("{ surcharge_sets }") } },
    "/api/customers/{id}/surcharges": { post: { summary: "Create or update surcharge sets { surcharge_sets: [...] }", parameters: [idParam("id")], responses: ok("{ surcharge_sets }") } },
    "/api/customers/{id}/surcharges/delete": { post: { summary: "Delete surcharge sets { ids }", parameters: [idParam("id")], responses: ok("{ deleted }") } },
    "/api/customers/{id}/site_services": {
      get: { summary: "Site services ?site_codes&service_codes", parameters: [idParam("id")], responses: ok("{ site_services }") },
      post: { summary: "Assign services to sites { site_services: [...] } (admin, super_admin, devs)", parameters: [idParam("id")], responses: ok("{ saved }") },
    },
    "/api/customers/{id}/site_services/search": { post: { summary: "Site services { site_codes, group_by }", parameters: [idParam("id")], responses: ok("{ site_services }") } },
    "/api/customers/{id}/site_services/delete": { post: { summary: "Remove site services { ids }", parameters: [idParam("id")], responses: ok("{ deleted }") } },
    "/api/address_selection/search_locality": {
      get: { summary: "Locality typeahead ?query&country: 6 places at most, from 3 characters", responses: ok("{ localities }") },
    },
    "/api/localities": { get: { summary: "Places of a postcode ?query&type=postcode&country", responses: ok("{ localities }") } },
    "/api/address_selection": { get: { summary: "?query&type=recipient|site|postcode&country: addresses", responses: ok("{ addresses }") } },
    "/api/localities/import": { post: { summary: "CSV of localities (country, locality, sublocality, postcode, region, latitude, longitude); staff", responses: ok("{ created, updated, skipped }") } },
    "/api/next_business_day": { get: { summary: "?country&region&date: the first business day after the date (by default the caller's today at their default site)", responses: ok("{ date }") } },
    "/api/openapi.json": { get: { summary: "This document", responses: ok("OpenAPI 3.1") } },
    ...trackingPaths,
    ...notificationTypePaths,
    ...noticesAdminPaths,
    ...usersPaths,
    ...customEmailsDeclarationsPaths,
    ...customersAdminPaths,
    ...notificationConfigPaths,
    ...searchPaths,
    ...consignmentInformationPaths,
    ...enquiryPaths,
    ...exportPaths,
    ...itemTypePaths,
    ...shippingRulePaths,
    ...sitesAccountsPaths,
    // issue 17 item 6: online store
    ...storePaths,
    ...bulkUploadPaths,
    ...invoiceImportPaths,
    ...recipientsPaths,
    ...bookingPaths,
    ...carriersAdminPaths,
    ...brandingMyobPaths,
    ...allocationPaths,
    ...reconciliationReportPaths,
    ...invoicePaths,
    ...reconciliationDetailPaths,
    ...invoicingPaths,
    ...reconciliationsListPaths,
    ...emissionsPaths,
    ...webhookPaths,
    ...insightPaths,
  }),
  webhooks: webhookEvents,
} as const;
