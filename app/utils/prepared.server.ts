import type { DbOrTx } from "../../db/client.server";

/**
 * Statements built once per database handle. drizzle builds a query's SQL anew on every call
 * (measured at 0.1-0.2 ms for the wide selects of the per-request user load); the hot queries of
 * every request are prepared once with placeholders instead. A transaction handle gets its own set.
 */
export function preparedFor<T>(build: (db: DbOrTx) => T): (db: DbOrTx) => T {
  const built = new WeakMap<DbOrTx, T>();
  return (db) => {
    let statements = built.get(db);
    if (!statements) {
      statements = build(db);
      built.set(db, statements);
    }
    return statements;
  };
}
