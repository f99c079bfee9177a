import type { Request, Response } from "express";
import { routePath } from "./route-path";

/** res.locals flag: a guard answered, so the app's late answer to a cut-off body is dropped. */
export const REFUSED = "requestRefused";

/** Calls answered in JSON: /api, /print (fetched by the screens) and the /users resource routes. */
const JSON_PATHS = /^\/(api|print)\/|^\/users\/(sign_in|custom_sign_out|forgot_password|saml_sign_in)(\.data)?\/?$/i;

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A guard's refusal: `{ errors }` JSON for the JSON calls (and callers asking for JSON), else a short page. */
export function refuse(req: Request, res: Response, status: number, message: string, fields?: Record<string, string[]>) {
  res.locals[REFUSED] = true;
  res.status(status);
  if (JSON_PATHS.test(routePath(req)) || req.get("accept")?.includes("application/json")) {
    res.json({ errors: { base: [message], ...fields } });
  } else {
    res.type("html").send(`<!doctype html><meta charset="utf-8"><title>${status}</title><p>${escapeHtml(message)}</p><p><a href="/">Back to FreightDesk</a></p>`);
  }
}
