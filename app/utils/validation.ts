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

/** What a field says when its value will not do and its schema has no message of its own. */
const OWN_MESSAGES: Record<string, string> = {
  locality: "Please enter a locality",
  sublocality: "Please enter a suburb",
  postcode: "Postcode must be 4 or 5 digits",
  region: "Please enter a region",
};

/** The message of the field at `path` (its last named part): 'Please enter a locality', 'Please check the item type'. */
export function fieldMessage(path: readonly PropertyKey[]): string {
  const name = [...path].reverse().find((k): k is string => typeof k === "string" && !/^\d+$/.test(k)) ?? "";
  const own = OWN_MESSAGES[name.replace(/^(sender|receiver)_/, "")];
  if (own) return own;
  const label = name.replace(/_id$/, "").replace(/_/g, " ").trim();
  return label ? `Please check the ${label}` : "Please check the form";
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
