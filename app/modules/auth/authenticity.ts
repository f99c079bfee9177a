/** The form field carrying the authenticity token (authenticity.server.ts makes and checks it); shared with the page that renders it. */
export const AUTHENTICITY_FIELD = "authenticity_token";
