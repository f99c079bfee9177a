/** The rows of a raw `db.execute`: postgres.js answers an array, PGlite an object with `rows`. */
export function rowsOf<T>(raw: unknown): T[] {
  const r = raw as { rows?: unknown[] } | unknown[];
  return (Array.isArray(r) ? r : (r.rows ?? [])) as T[];
}
