import type { LoaderFunctionArgs } from "@remix-run/node";

/**
 * GET /users/saml_sign_in?entity_id=: single sign-on. The identity provider link is configured per
 * deployment (SAML_ENTRY_POINT, SAML_ISSUER, SAML_IDP_CERT; see docs/decisions/002). Until one is
 * configured this answers plainly that single sign-on is not available here.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const message = "Single sign-on is not configured for this installation. Please sign in with your e-mail and password.";
  if (request.headers.get("accept")?.includes("application/json")) {
    return Response.json({ errors: { base: [message] } }, { status: 501 });
  }
  return new Response(
    `<!doctype html><meta charset="utf-8"><title>Single sign-on</title><p>${message}</p><p><a href="/login">Back to sign in</a></p>`,
    { status: 501, headers: { "Content-Type": "text/html; charset=utf-8" } },
  );
}
