import { z } from "zod";
import { AppError, notFound } from "./errors";

/**
 * Record ids are PostgreSQL `integer` (int4) columns: a bigger number can name no record, and
 * sending one to the database fails the whole statement ("out of range for type integer").
 * Every id from a caller (path, query, body, list) goes through one of these.
 */
export const MAX_ID = 2_147_483_647;

/** An id already a number (after a list's own splitting): a whole number from 1 to MAX_ID. */
export const recordId = (message: string) => z.number({ error: message }).int(message).positive(message).max(MAX_ID, message);

/** A whole number or its digits, as a record id: 1 to MAX_ID. */
export function idSchema(message = "must be a record id") {
  return z.union([z.number(), z.string().trim().regex(/^\d{1,20}$/, message).transform(Number)], { error: message }).pipe(recordId(message));
}

/**
 * A record id from the URL path. Not a whole number: 422 naming it; a whole number beyond any
 * id: 404, as an id that names no record of the caller's.
 */
export function pathId(value: string | undefined, label = "Id"): number {
  const text = value?.trim() ?? "";
  if (!/^\d+$/.test(text) || !Number(text)) throw new AppError("invalid", `${label} must be a positive number`, { id: [`${label} must be a positive number`] });
  const id = Number(text);
  if (id > MAX_ID) throw notFound(label.replace(/ id$/i, ""));
  return id;
}

/** A record id from a page's path: anything else is the page's 404 (a thrown Response), as a missing record. */
export function pageId(value: string | undefined): number {
  const text = value?.trim() ?? "";
  const id = Number(text);
  if (!/^\d+$/.test(text) || id < 1 || id > MAX_ID) throw new Response("Not Found", { status: 404 });
  return id;
}

/**
 * A secret address's id (a public tracking token, a template image): a UUID, lower-cased, or null
 * for anything else, which then reaches no query and reads like an id that names nothing.
 */
export function uuidOrNull(value: string | undefined): string | null {
  return value && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value) ? value.toLowerCase() : null;
}
