/**
 * Branding and the accounting link (issue 17 items 7 and 8) in the OpenAPI document, kept apart
 * so openapi.ts stays short; spread into its paths.
 */
import { MYOB_MESSAGES } from "../accounting/accounting";
import { BRANDING_MESSAGES } from "../branding/images.server";
import { errorResponses, idParam, ok } from "./openapi-parts";

const who = "Admins (not customer service) and super admins; others 403.";

export const brandingMyobPaths = {
  "/api/branding": {
    get: { summary: `Every branding (?customer_id= for one customer's): { brandings: [{ id, customer_id, site_id, site_name, country_code, env, logo_url, logo_type, bg_url, bg_type, updated_at }] }. ${who}`, responses: { ...ok("{ brandings }"), ...errorResponses } },
  },
  "/api/customers/{id}/branding": {
    get: { summary: `The customer's brandings. ${who}`, parameters: [idParam("id")], responses: { ...ok("[branding]"), ...errorResponses } },
    put: {
      summary: `Multipart: country_code (au, nz), env (development, qa, uat, production), site_id (empty: every site), logo_image, bg_image. PNG or JPEG by their bytes, SVG sanitised (no scripts, handlers, styles or outside references); name and type must match the bytes ('${BRANDING_MESSAGES.mismatch}'); '${BRANDING_MESSAGES.typesOnly}'; '${BRANDING_MESSAGES.tooLarge}' (422). An image not sent keeps the stored one. Images are served at /branding_images/{id}/{logo|bg} and shown on /login?brand={branding_prefix}[&country=nz][&site={code}]. ${who}`,
      parameters: [idParam("id")],
      responses: { ...ok("The branding"), ...errorResponses },
    },
  },
  "/api/myob": {
    get: { summary: `The accounting link: { connected, business_name, connected_at, carriers: [{ id, code, name, myob_uid, supplier_name }] }. ${who}`, responses: { ...ok("Status"), ...errorResponses } },
    put: { summary: `{ carriers: [{ code, myob_uid }] } maps carriers to the service's suppliers (null unmaps), all or none; unknown supplier 422, unknown carrier 404, '${MYOB_MESSAGES.notConnected}' 409. ${who}`, responses: { ...ok("Status"), ...errorResponses } },
  },
  "/api/myob/suppliers": {
    get: { summary: `?query= : up to 10 suppliers of the accounting service whose name contains it (typeahead); 409 before authenticating. ${who}`, responses: { ...ok("{ suppliers: [{ uid, name, abn }] }"), ...errorResponses } },
  },
  "/users/auth/myob": {
    post: {
      summary: `Form post with authenticity_token: starts the OAuth authorisation-code flow and redirects (303) to the accounting service's consent page (the simulated MYOB's /simulated/myob/authorize here). A bad token, or GET, starts nothing. ${who}`,
      responses: { 303: { description: "To the consent page" }, ...errorResponses },
    },
  },
  "/users/auth/myob/callback": {
    get: {
      summary: "?code&state (or ?error): where the consent page returns. The state must be the one this sign-in started (10 minutes, used once); the code is exchanged for tokens and the business name fetched. Redirects to /myob, which shows 'MYOB Authenticated successfully' or 'Error occurred during authentication: {message}' once.",
      responses: { 302: { description: "To /myob" } },
    },
  },
} as const;
