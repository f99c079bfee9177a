/**
 * zod's own wording ("Invalid input: expected number, received string", "Too big: expected int to
 * be <=9007199254740991") never reaches a person: every issue whose schema gave no message reads as
 * a sentence about the field. Installed once for the process and the browser (zod's global config);
 * a schema's own message and a per-parse map (FOR_A_PERSON) still win, so spec messages stay exact.
 */
import { z } from "zod";

/** What a field says when its value will not do and its schema has no message of its own. */
const OWN_MESSAGES: Record<string, string> = {
  locality: "Please enter a locality",
  sublocality: "Please enter a suburb",
  postcode: "Postcode must be 4 or 5 digits",
  region: "Please enter a region",
};

const nameOf = (path: readonly PropertyKey[]) => [...path].reverse().find((k): k is string => typeof k === "string" && !/^\d+$/.test(k)) ?? "";

/** The field at `path` in words: `fromDate` -> "from date", `item_type_id` -> "item type". */
export function fieldLabel(path: readonly PropertyKey[]): string {
  return nameOf(path)
    .replace(/_id$/, "")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/_/g, " ")
    .trim()
    .toLowerCase();
}

/** The message of the field at `path` (its last named part): 'Please enter a locality', 'Please check the item type'. */
export function fieldMessage(path: readonly PropertyKey[]): string {
  const own = OWN_MESSAGES[nameOf(path).replace(/^(sender|receiver)_/, "")];
  if (own) return own;
  const label = fieldLabel(path);
  return label ? `Please check the ${label}` : "Please check the form";
}

interface Issue {
  code?: string;
  path?: readonly PropertyKey[];
  input?: unknown;
  expected?: unknown;
  origin?: string;
  maximum?: unknown;
  minimum?: unknown;
  format?: string;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** a bound as a person writes it: none that no one would type */
const bound = (n: unknown) => (typeof n === "number" || typeof n === "bigint" ? Math.abs(Number(n)) < Number.MAX_SAFE_INTEGER : false);

/** A sentence about the person's input for any zod issue. */
export function personMessage(issue: Issue): string {
  const path = issue.path ?? [];
  const label = fieldLabel(path);
  if (!label || OWN_MESSAGES[nameOf(path).replace(/^(sender|receiver)_/, "")]) return fieldMessage(path);
  const Label = cap(label);
  const blank = issue.input === undefined || issue.input === null || (typeof issue.input === "string" && issue.input.trim() === "");
  switch (issue.code) {
    case "invalid_type":
      if (blank) return `${Label} is required`;
      if (issue.expected === "number" || issue.expected === "int") return `${Label} must be a number`;
      if (issue.expected === "boolean") return `${Label} must be yes or no`;
      if (issue.expected === "date") return `${Label} must be a date`;
      return fieldMessage(path);
    case "too_big":
      if (issue.origin === "string") return `${Label} is too long (maximum is ${String(issue.maximum)} characters)`;
      if (issue.origin === "array" || issue.origin === "set") return `${Label} has too many entries (at most ${String(issue.maximum)})`;
      return bound(issue.maximum) ? `${Label} must be at most ${String(issue.maximum)}` : `${Label} is too large`;
    case "too_small":
      if (issue.origin === "string") return Number(issue.minimum) <= 1 ? `${Label} is required` : `${Label} is too short (minimum is ${String(issue.minimum)} characters)`;
      if (issue.origin === "array" || issue.origin === "set") return `${Label} needs at least ${String(issue.minimum)}`;
      return bound(issue.minimum) ? `${Label} must be at least ${String(issue.minimum)}` : `${Label} is too small`;
    case "not_multiple_of":
      return `${Label} must be a whole number`;
    case "invalid_format":
      if (issue.format === "email") return `${Label} is not a valid e-mail address`;
      if (issue.format === "date") return `${Label} must be a date (YYYY-MM-DD)`;
      return fieldMessage(path);
    case "invalid_value":
      return `${Label} is not one of the choices`;
    default:
      return fieldMessage(path);
  }
}

z.config({ customError: (issue) => personMessage(issue as Issue) });
