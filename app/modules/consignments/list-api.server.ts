/**
 * GET /api/consignments: the consignment list's rows in one call, a page at a time, on the list's
 * own scoping, filters and keyset paging (list.server.ts).
 */
import { and, inArray, isNotNull, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import { consignments, services } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { parseOrThrow } from "../../utils/validation";
import { userToday } from "../calendar/site-time";
import { bool } from "./schema";
import { DATE_FILTERS, LIST_FILTERS, SORTS, dateRange, type SortKey } from "./list";
import { filterCondition, labelsToPrint, pageOf, scopeCondition, siteByCode, type ListRow, type ListScope, type PageQuery } from "./list.server";


export const API_PAGE_MAX = 1000;
export const API_PAGE_DEFAULT = 500;

const apiQuerySchema = z
  .object({
    filter: z.enum(LIST_FILTERS, { error: `filter must be one of ${LIST_FILTERS.join(", ")}` }).default("metadata"),
    dateFilter: z.enum(DATE_FILTERS, { error: `dateFilter must be one of ${DATE_FILTERS.join(", ")}` }).default("today"),
    siteId: z
      .string()
      .regex(/^(all|\d+)$/i, "siteId must be a site id or all")
      .optional(),
    site: z.string().trim().min(1).max(20).optional(),
    service_code: z.string().trim().min(1).max(40).optional(),
    // absent: both; true: returns and third-party pickups only; false: outbound only
    returns: z
      .enum(["true", "false", "1", "0"], { error: "returns must be true or false" })
      .optional()
      .transform((v) => (v == null ? undefined : v === "true" || v === "1")),
    auto_printing: bool,
    // a cache-buster of the original client: accepted and ignored
    timestamp: z.string().max(40).optional(),
    sort: z.enum(Object.keys(SORTS) as [SortKey, ...SortKey[]], { error: `sort must be one of ${Object.keys(SORTS).join(", ")}` }).default("despatch_date"),
    dir: z.enum(["asc", "desc"], { error: "dir must be asc or desc" }).default("desc"),
    after: z.string().max(2000).optional(),
    limit: z.coerce
      .number({ error: "limit must be a number" })
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(API_PAGE_MAX, `limit must be at most ${API_PAGE_MAX}`)
      .default(API_PAGE_DEFAULT),
  })
  .strict();

export interface ApiList {
  consignments: ListRow[];
  meta: { date_start: string; date_end: string; returns: number; outbounds: number; warning: string | null; next: string | null };
}

/**
 * GET /api/consignments?filter&siteId|site&dateFilter&service_code&returns&auto_printing: the
 * list's rows in one call, a page at a time (limit, after). auto_printing asks for the
 * consignments whose labels are still to print, oldest first, whatever the sort.
 */
export async function apiListConsignments(db: DbOrTx, user: CurrentUser, query: URLSearchParams, today?: string): Promise<ApiList> {
  const raw: Record<string, string> = {};
  for (const [k, v] of query) raw[k] = v;
  const q = parseOrThrow(apiQuerySchema, raw);
  let siteId: number | null = null;
  if (q.siteId && q.siteId.toLowerCase() !== "all") {
    siteId = Number(q.siteId);
    if (!user.siteIds.includes(siteId)) throw new AppError("invalid", "Site is not one of yours", { siteId: ["Site is not one of yours"] });
  } else if (q.site && q.site.toLowerCase() !== "all") {
    siteId = siteByCode(user, q.site).id;
  }
  const scope: ListScope = { filter: q.filter, dateFilter: q.dateFilter, siteId, today };
  const conditions: (SQL | undefined)[] = [scopeCondition(user, scope), filterCondition(q.filter)];
  if (q.auto_printing) conditions.push(labelsToPrint);
  if (q.service_code) {
    const ids = await db
      .select({ id: services.id })
      .from(services)
      .where(sql`lower(${services.code}) = ${q.service_code.toLowerCase()}`);
    conditions.push(ids.length ? and(isNull(consignments.returnType), inArray(consignments.serviceId, ids.map((r) => r.id))) : sql`false`);
  }
  const beforeReturns = and(...conditions)!;
  if (q.returns !== undefined) conditions.push(q.returns ? isNotNull(consignments.returnType) : isNull(consignments.returnType));
  const page: PageQuery = q.auto_printing ? { sort: "despatch_date", dir: "asc", after: q.after, limit: q.limit } : { sort: q.sort, dir: q.dir, after: q.after, limit: q.limit };
  const [result, [split]] = await Promise.all([
    pageOf(db, user, and(...conditions)!, page),
    db
      .select({
        returns: sql<number>`count(*) filter (where ${consignments.returnType} is not null)`.mapWith(Number),
        outbounds: sql<number>`count(*) filter (where ${consignments.returnType} is null)`.mapWith(Number),
      })
      .from(consignments)
      .where(beforeReturns),
  ]);
  const { start, end } = dateRange(q.dateFilter, today ?? userToday(user, siteId));
  return {
    consignments: result.rows,
    meta: {
      date_start: start,
      date_end: end,
      returns: split?.returns ?? 0,
      outbounds: split?.outbounds ?? 0,
      warning: result.next ? `Only ${result.rows.length} consignments are listed here; ask for the next ones with after=${result.next}.` : null,
      next: result.next,
    },
  };
}
