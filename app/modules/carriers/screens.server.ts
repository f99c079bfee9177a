/**
 * What the carrier, service and validation screens share (issue 17 items 1 to 3): the staff check
 * and the answer to a refused save (spec 2 section 8: "status 400 shows the field errors; other
 * statuses show the first error message"), with what was typed sent back so nothing is lost.
 */
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { requireStaff } from "../auth/guard.server";
import { homeButtons } from "../auth/roles";
import { AppError, type FieldErrors } from "../../utils/errors";
import { throwIfAccessError } from "../../utils/ui.server";

/** Staff who may keep carriers (the path rule lets them this far; this is the screen's own check). */
export async function requireCarrierStaff(context: AppLoadContext, request: Request) {
  const signed = await requireStaff(context, request);
  if (!homeButtons.editCarriers(signed.user)) throw redirect("/");
  return signed;
}

/** A loader's read: 403 and 404 become the boundary's error page. */
export async function screenRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (e) {
    throwIfAccessError(e);
    throw e;
  }
}

/** A refused save: 400 with its field errors and `notSaved`, any other refusal with its first message. */
export function saveErrorData<V>(error: unknown, notSaved: string, values: V) {
  throwIfAccessError(error);
  if (!(error instanceof AppError)) throw error;
  const fields = error.code === "bad_request" || error.code === "invalid";
  return data({ message: fields ? notSaved : error.message, errors: (fields ? error.fieldErrors : {}) as FieldErrors, values }, { status: error.status });
}

/** The named text fields of a posted form as strings, and the named checkboxes as "on" when ticked (absent: off). */
export function formValues<T extends string, F extends string>(form: FormData, text: readonly T[], flags: readonly F[]) {
  const values = Object.fromEntries(text.map((k) => [k, typeof form.get(k) === "string" ? (form.get(k) as string) : ""])) as Record<T, string>;
  const ticked = Object.fromEntries(flags.map((k) => [k, form.get(k) === "on"])) as Record<F, boolean>;
  return { values, ticked, body: { ...values, ...ticked } as Record<T | F, string | boolean> };
}
