import { getTableColumns, sql } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { DbOrTx } from "./client.server";

/** serial types name a column in CREATE TABLE only; a record's column list needs the plain type */
const PLAIN: Record<string, string> = { serial: "integer", bigserial: "bigint", smallserial: "smallint" };
/** Rows per statement: each statement's JSON parameter stays a few megabytes however many rows come. */
const ROWS_PER_STATEMENT = 10_000;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Many rows in one statement that carries one parameter: the rows as a JSON array, read back by
 * jsonb_to_recordset. drizzle's multi-row insert builds a placeholder per value, and for a batch of
 * thousands of rows that building was most of a bulk upload's time (bench/bulk-upload.ts). Rows are
 * grouped by the keys they set, so a key a row leaves out takes the column's default, as in a
 * drizzle insert. Values go through the column's own mapping (dates, numerics); JSON and arrays
 * travel as JSON. Returns nothing: callers that need ids take them from the sequence first.
 * `onConflictDoNothing` skips a row a unique index already holds, as drizzle's insert does. Outside
 * a transaction, each statement of ROWS_PER_STATEMENT rows commits on its own.
 */
export async function insertMany<T extends PgTable>(db: DbOrTx, table: T, rows: T["$inferInsert"][], options: { onConflictDoNothing?: boolean } = {}): Promise<void> {
  if (!rows.length) return;
  const columns = getTableColumns(table) as Record<string, PgColumn>;
  const groups = new Map<string, Record<string, unknown>[]>();
  for (const row of rows as Record<string, unknown>[]) {
    const keys = Object.keys(row).filter((k) => row[k] !== undefined && columns[k]);
    const signature = keys.sort().join(",");
    const group = groups.get(signature);
    if (group) group.push(row);
    else groups.set(signature, [row]);
  }
  for (const [signature, group] of groups) {
    const keys = signature ? signature.split(",") : [];
    if (!keys.length) {
      // rows of defaults alone: nothing to carry
      const insert = db.insert(table).values(group as never);
      await (options.onConflictDoNothing ? insert.onConflictDoNothing() : insert);
      continue;
    }
    const cols = keys.map((k) => columns[k]!);
    const names = cols.map((c) => quote(c.name)).join(", ");
    const types = cols.map((c) => `${quote(c.name)} ${PLAIN[c.getSQLType()] ?? c.getSQLType()}`).join(", ");
    for (let at = 0; at < group.length; at += ROWS_PER_STATEMENT) {
      const json = group.slice(at, at + ROWS_PER_STATEMENT).map((row) => Object.fromEntries(keys.map((k, i) => [cols[i]!.name, toJson(cols[i]!, row[k])])));
      await db.execute(sql`insert into ${table} (${sql.raw(names)}) select ${sql.raw(names)} from jsonb_to_recordset(${JSON.stringify(json)}::jsonb) as x(${sql.raw(types)})${sql.raw(options.onConflictDoNothing ? " on conflict do nothing" : "")}`);
    }
  }
}

function toJson(column: PgColumn, value: unknown): unknown {
  if (value === null) return null;
  if (column.columnType.includes("Json") || column.columnType.includes("Array")) return value;
  return column.mapToDriverValue(value);
}
