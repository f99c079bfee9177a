import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

/** zod issues as the spec's per-field error lists (`{ field: [messages] }`, nested paths dotted). */
export function fieldErrorsFrom(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "base";
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/** Parses input or throws AppError("invalid") carrying every field's messages. */
export function parseOrThrow<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  const errors = fieldErrorsFrom(result.error);
  const first = Object.values(errors)[0]?.[0] ?? "Invalid input";
  throw new AppError("invalid", first, errors);
}

/** A positive whole-number route parameter, or a 422 naming it (404 beyond any record id). */
export { pathId as idParam } from "./ids";
