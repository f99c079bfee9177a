/**
 * The customers list (spec 2 /index_customers, GET /api/customers): live, test and disabled
 * customers by name, filtered by a text in the URL. The screen shows a page of 50 of each group
 * (5,000 customers must render in under 50 ms); the API answers every matching customer.
 */
import { asc, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { rowsOf } from "../../utils/sql-rows";
import { customers } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { assertCustomerAdmin } from "./admin.server";

export type CustomerStatus = "LIVE" | "TEST" | "DISABLED";
export const STATUSES: CustomerStatus[] = ["LIVE", "TEST", "DISABLED"];
export const GROUP_PAGE_SIZE = 50;

export interface CustomerRow {
  id: number;
  code: string;
  name: string;
  status: CustomerStatus;
}

/** Disabled wins over test (customerStatus in current-user.server.ts), written once in SQL. */
const statusSql = sql<CustomerStatus>`case when ${customers.disabled} then 'DISABLED' when ${customers.testAccount} then 'TEST' else 'LIVE' end`;

/** Name or code contains the text (case-insensitive); LIKE's own characters are taken literally. */
function matching(q: string | undefined): SQL | undefined {
  if (!q) return undefined;
  const pattern = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`(lower(${customers.name}) like ${pattern} or lower(${customers.code}) like ${pattern})`;
}

/** GET /api/customers?q&status: every matching customer with its status, by name. */
export async function listCustomersForAdmin(db: DbOrTx, user: CurrentUser, filter: { q?: string; status?: CustomerStatus } = {}): Promise<{ customers: CustomerRow[] }> {
  assertCustomerAdmin(user);
  const where = [matching(filter.q), filter.status ? sql`${statusSql} = ${filter.status}` : undefined].filter(Boolean) as SQL[];
  const rows = await db
    .select({ id: customers.id, code: customers.code, name: customers.name, status: statusSql })
    .from(customers)
    .where(where.length ? sql.join(where, sql` and `) : undefined)
    .orderBy(asc(sql`lower(${customers.name})`), asc(customers.id));
  return { customers: rows };
}

export interface CustomerGroup {
  status: CustomerStatus;
  total: number;
  page: number;
  customers: CustomerRow[];
}

/**
 * The list screen: one page of each group and each group's total. Each group's page is its own
 * top-N (a bounded sort that keeps 100 rows, not a sort of every customer), the three joined in
 * one statement; the totals are one grouped count beside it.
 */
export async function customerGroups(db: DbOrTx, user: CurrentUser, filter: { q?: string; pages?: Partial<Record<CustomerStatus, number>> }): Promise<CustomerGroup[]> {
  assertCustomerAdmin(user);
  const pages = Object.fromEntries(STATUSES.map((s) => [s, Math.max(1, Math.floor(filter.pages?.[s] ?? 1))])) as Record<CustomerStatus, number>;
  const q = matching(filter.q);
  const page = (status: CustomerStatus) =>
    sql`(select ${customers.id} as id, ${customers.code} as code, ${customers.name} as name, ${status}::text as status from ${customers}
      where ${statusSql} = ${status}${q ? sql` and ${q}` : sql``}
      order by lower(${customers.name}), ${customers.id} limit ${GROUP_PAGE_SIZE} offset ${(pages[status] - 1) * GROUP_PAGE_SIZE})`;
  const [rows, totals] = await Promise.all([
    db.execute(sql.join(STATUSES.map(page), sql` union all `)),
    db.select({ status: statusSql, n: sql<number>`count(*)::int` }).from(customers).where(q).groupBy(statusSql),
  ]);
  const all = rowsOf<CustomerRow>(rows);
  return STATUSES.map((status) => ({
    status,
    total: Number(totals.find((t) => t.status === status)?.n ?? 0),
    page: pages[status],
    customers: all.filter((r) => r.status === status).map(({ id, code, name }) => ({ id: Number(id), code, name, status })),
  }));
}
