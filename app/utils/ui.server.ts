import { data, redirect } from "@remix-run/node";
import { isSafeLocalPath } from "../modules/auth/roles";
import { AppError } from "./errors";

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

/** A local path to go back to after a form post, never another origin. */
export function safeRedirectPath(value: FormDataEntryValue | null | undefined, fallback: string): string {
  return typeof value === "string" && isSafeLocalPath(value) ? value : fallback;
}
