/** Who may keep carriers, services and validations, and the spec's 400 for field errors (issue 17 items 1 to 3). */
import type { ZodError } from "zod";
import { authorize } from "../auth/guard.server";
import type { CurrentUser } from "../auth/current-user.server";
import { homeButtons } from "../auth/roles";
import { AppError, type FieldErrors } from "../../utils/errors";
import { fieldErrorsFrom } from "../../utils/validation";

/** Throws 403 unless the user may keep carriers (staff: spec 2 section 6 "Edit Carriers"). */
export function assertCarrierAdmin(user: CurrentUser): void {
  authorize(user, homeButtons.editCarriers);
}

/** Field errors are the spec's 400 (spec 2 section 8: "status 400 shows the field errors"). */
export function fieldErrors(errors: FieldErrors, fallback = "Invalid input"): AppError {
  return new AppError("bad_request", Object.values(errors)[0]?.[0] ?? fallback, errors);
}

/** Parses with a schema or throws the 400 with every field's messages. */
export function parseFields<T>(schema: { safeParse: (raw: unknown) => { success: true; data: T } | { success: false; error: ZodError } }, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) throw fieldErrors(fieldErrorsFrom(result.error));
  return result.data;
}

