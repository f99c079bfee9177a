import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";
// installs the process-wide map: zod's default wording never reaches a person
import { fieldMessage } from "./zod-messages";

export { fieldMessage };

/**
 * zod issues as the spec's per-field error lists (`{ field: [messages] }`, nested paths dotted).
 * A message is kept once per field: one schema message covers several checks (a huge number
 * fails both "whole" and "at most" with the same words), and a person reads it once.
 */
export function fieldErrorsFrom(error: z.ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join(".") : "base";
    const list = (out[key] ??= []);
    if (!list.includes(issue.message)) list.push(issue.message);
  }
  return out;
}

/**
 * Parse options for input a person typed: an issue whose schema gave no message of its own reads
 * as the field's message, never as zod's ("Invalid input: expected string, received null").
 * The schemas' own messages win (zod applies a per-parse map only where a schema has none).
 */
export const FOR_A_PERSON = { error: (issue: { path?: readonly PropertyKey[] }) => fieldMessage(issue.path ?? []) };

/** Parses input or throws AppError("invalid") carrying every field's messages (`params`: FOR_A_PERSON for a form). */
export function parseOrThrow<S extends z.ZodType>(schema: S, raw: unknown, params?: typeof FOR_A_PERSON): z.infer<S> {
  const result = schema.safeParse(raw, params);
  if (result.success) return result.data;
  const errors = fieldErrorsFrom(result.error);
  const first = Object.values(errors)[0]?.[0] ?? "Invalid input";
  throw new AppError("invalid", first, errors);
}

/** A positive whole-number route parameter, or a 422 naming it (404 beyond any record id). */
export { pathId as idParam } from "./ids";
