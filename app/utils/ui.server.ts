import { data, redirect } from "@remix-run/node";
import { isSafeLocalPath } from "../modules/auth/roles";
import { AppError, type FieldErrors } from "./errors";
import { escapeHtml } from "./html";

/**
 * For UI actions and loaders: a 403 or 404 domain error becomes an error response the shell's
 * boundary shows with its message; other domain errors are returned to the form by the caller.
 */
export function throwIfAccessError(error: unknown): void {
  if (error instanceof AppError && (error.code === "forbidden" || error.code === "not_found")) {
    throw data({ message: error.message }, { status: error.status });
  }
  if (error instanceof AppError && error.code === "password_reset_required") throw redirect("/users/edit");
}

/**
 * throwIfAccessError for resource routes (an action or loader without a component, so without an
 * error boundary): Remix logs a thrown `data()` there as a server error and answers 'Unexpected
 * Server Error'. A 403 or 404 leaves as a real Response: JSON to a script, a short page otherwise.
 */
export function throwIfAccessErrorInResource(request: Request, error: unknown): void {
  if (error instanceof AppError && (error.code === "forbidden" || error.code === "not_found")) {
    const script = request.headers.get("x-requested-with") === "XMLHttpRequest" || (request.headers.get("accept") ?? "").includes("application/json");
    if (script) throw Response.json(error.toJSON(), { status: error.status });
    const page = `<!DOCTYPE html><html lang="en-AU"><head><meta charset="utf-8"><title>Not allowed · FreightDesk</title></head><body><h1>${error.status === 403 ? "Not allowed" : "Not found"}</h1><p>${escapeHtml(error.message)}</p><p><a href="/">Back to FreightDesk</a></p></body></html>`;
    throw new Response(page, { status: error.status, headers: { "content-type": "text/html; charset=utf-8" } });
  }
  throwIfAccessError(error);
}

/** A local path to go back to after a form post, never another origin. */
export function safeRedirectPath(value: FormDataEntryValue | null | undefined, fallback: string): string {
  return typeof value === "string" && isSafeLocalPath(value) ? value : fallback;
}

/**
 * A form action's answer to a failed save: access errors go to the boundary (as above), a validation
 * error comes back with `notSaved` and its field errors, another domain error with its own message,
 * and what was typed always comes back, so nothing is lost.
 */
export function formErrorData<V>(error: unknown, notSaved: string, values: V) {
  throwIfAccessError(error);
  if (!(error instanceof AppError)) throw error;
  const invalid = error.code === "invalid";
  return data({ message: invalid ? notSaved : error.message, errors: (invalid ? error.fieldErrors : {}) as FieldErrors, values }, { status: error.status });
}
