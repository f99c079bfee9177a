/**
 * The customers list (spec 2 /index_customers, GET /api/customers): live, test and disabled
 * customers by name, filtered by a text in the URL. The screen shows a page of each group (5,000
 * customers must render in under 50 ms); the API answers every matching customer.
 */
import { asc, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { customers } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { assertCustomerAdmin } from "./admin.server";

export type CustomerStatus = "LIVE" | "TEST" | "DISABLED";
export const STATUSES: CustomerStatus[] = ["LIVE", "TEST", "DISABLED"];
export const GROUP_PAGE_SIZE = 100;

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
 * The list screen: one page of each group and each group's total, in one query (a window over
 * the matching rows numbers them within their group; only the wanted page leaves the database).
 */
export async function customerGroups(db: DbOrTx, user: CurrentUser, filter: { q?: string; pages?: Partial<Record<CustomerStatus, number>> }): Promise<CustomerGroup[]> {
  assertCustomerAdmin(user);
  const pages = Object.fromEntries(STATUSES.map((s) => [s, Math.max(1, Math.floor(filter.pages?.[s] ?? 1))])) as Record<CustomerStatus, number>;
  const where = matching(filter.q);
  const ranked = db
    .select({
      id: customers.id,
      code: customers.code,
      name: customers.name,
      status: statusSql.as("status"),
      n: sql<number>`row_number() over (partition by ${statusSql} order by lower(${customers.name}), ${customers.id})`.as("n"),
      total: sql<number>`count(*) over (partition by ${statusSql})`.as("total"),
    })
    .from(customers)
    .where(where)
    .as("ranked");
  const window = sql.join(
    STATUSES.map((s) => sql`(${ranked.status} = ${s} and ${ranked.n} > ${(pages[s] - 1) * GROUP_PAGE_SIZE} and ${ranked.n} <= ${pages[s] * GROUP_PAGE_SIZE})`),
    sql` or `,
  );
  // a group whose page is past its end still reports its total: its first row comes along, unshown
  const rows = await db
    .select({ id: ranked.id, code: ranked.code, name: ranked.name, status: ranked.status, n: ranked.n, total: ranked.total })
    .from(ranked)
    .where(sql`${window} or ${ranked.n} = 1`)
    .orderBy(ranked.n);
  return STATUSES.map((status) => {
    const mine = rows.filter((r) => r.status === status);
    const from = (pages[status] - 1) * GROUP_PAGE_SIZE;
    return {
      status,
      total: Number(mine[0]?.total ?? 0),
      page: pages[status],
      customers: mine.filter((r) => Number(r.n) > from && Number(r.n) <= from + GROUP_PAGE_SIZE).map(({ id, code, name }) => ({ id, code, name, status })),
    };
  });
}
