/** Sites and carrier accounts administration in the OpenAPI document (issue 16 items 2 and 3); spread into openapi.ts's paths. */
import { ACCOUNT_MESSAGES, NOTE_MAX } from "../customers/accounts";
import { SITE_MESSAGES } from "../customers/sites";
import { errorResponses, idParam, ok } from "./openapi-parts";

const staff = "Team view (devs, super admin, admin, customer service)";
const one = (description: string) => ({ description, content: { "application/json": {} } });
const body = (description: string) => ({ required: true, content: { "application/json": { schema: { type: "object", description } } } });
const customerSite = [idParam("id"), idParam("siteId")];

const siteJson =
  "{ id, customer_id, code, name, address: { address_type, name, address_line_1..4, sublocality, locality, postcode, region, country, phone, email }, som, opening_time, closing_time, timezone, despatch_enabled, dg_contact_name, dg_contact_phone, cs_phone_number, chep_account, loscam_account, billing_address, site_options: { different_billing_address, placeholder_texts }, active, accounts: [{ id, account_number, carrier_code, carrier_name, service_code, service_name }] }";
const siteBody = `${siteJson} without id, customer_id, active and accounts. The locality is looked up: postcode and region come from the place found. Code unique per customer. On PUT the fields given replace the site's own.`;
const accountJson =
  "{ id, site_id, carrier_id, carrier_code, carrier_name, service_code, service_name, account_number, carrier_customer_reference, support_email, booking_email, managed_account, consignment_number_prefix, consignment_number_digits, consignment_range_start, consignment_range_end, consignment_current, manifest_number_prefix, manifest_number_digits, manifest_range_start, manifest_range_end, manifest_current, sscc_prefix, sscc_digits, sscc_range_start, sscc_range_end, sscc_current, remaining: { consignment, manifest, sscc }, pickup_at, deliver_by, deliver_at, climbing_count_enabled, account_options: { auto_despatch }, note, notes: [{ id, text, created_by, created_at }], warnings: [string] }";
const accountBody = `The editable fields of ${accountJson}, plus notes_attributes: [{ text }] (at most ${NOTE_MAX} characters each) to add notes. account_options.auto_despatch: super admin only (403 otherwise). The carrier's account validations are enforced; any failure is 422 "${ACCOUNT_MESSAGES.failed}" with field errors. A range end below the current value is refused; the current value only moves forward.`;

export const sitesAccountsPaths = {
  "/api/customers/{id}/sites": {
    get: { summary: `${staff}: the customer's sites by code`, parameters: [idParam("id"), { name: "filter", in: "query", schema: { type: "string" } }], responses: ok(`{ sites: [${siteJson}] }`) },
    post: { summary: `${staff}: a new site. 422 per field`, parameters: [idParam("id")], requestBody: body(siteBody), responses: { "201": one(siteJson), ...errorResponses } },
  },
  "/api/customers/{id}/sites/{siteId}": {
    get: { summary: `${staff}: one site with its accounts; 404 "${SITE_MESSAGES.notFound}" when not the customer's`, parameters: customerSite, responses: ok(siteJson) },
    put: { summary: `${staff}: change a site`, parameters: customerSite, requestBody: body(siteBody), responses: ok(siteJson) },
    delete: { summary: `${staff}: delete a site nothing uses; 409 with what uses it (consignments, carrier accounts, users' default site, ...)`, parameters: customerSite, responses: ok("{ id, deleted: true }") },
  },
  "/api/customers/{id}/sites/{siteId}/accounts": {
    get: { summary: `${staff}: the site's carrier accounts`, parameters: customerSite, responses: ok(`{ accounts: [${accountJson}] }`) },
    post: { summary: `${staff}: a new carrier account`, parameters: customerSite, requestBody: body(accountBody), responses: { "201": one(accountJson), ...errorResponses } },
  },
  "/api/customers/{id}/sites/{siteId}/accounts/{accountId}": {
    get: { summary: `${staff}: one carrier account`, parameters: [...customerSite, idParam("accountId")], responses: ok(accountJson) },
    put: { summary: `${staff}: change a carrier account`, parameters: [...customerSite, idParam("accountId")], requestBody: body(accountBody), responses: ok(accountJson) },
  },
} as const;
