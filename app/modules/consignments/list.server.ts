/**
 * The consignment list (spec 1 sections 2, 4, 7 and 9): counters, groups per carrier service with
 * a Returns/Third Party group, and keyset-paged rows, for the /consignments screen and
 * GET /api/consignments (list-api.server.ts). Scoped to the working customer and the user's sites; active
 * consignments only, never quotes. Everything reads the list columns kept with the row on each
 * save (party_name, item_count, total_weight, ...), so no query joins the items or addresses.
 */
import { and, eq, gte, inArray, isNotNull, isNull, lte, sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import { carriers, consignments, services } from "../../../db/schema";
import type { CurrentUser } from "../auth/current-user.server";
import { AppError } from "../../utils/errors";
import { userToday } from "../calendar/site-time";
import { DESPATCHED_STATES, FAILED_STATES, formatVolume, formatWeight } from "./rules";
import {
  NO_SERVICE_GROUP,
  PAGE_SIZE,
  PARTY_NAME_LENGTH,
  REFERENCE_LENGTH,
  RETURNS_GROUP,
  SORTS,
  dateRange,
  decodeCursor,
  encodeCursor,
  truncate,
  type CursorValue,
  type DateFilter,
  type GroupKey,
  type ListFilter,
  type SortDir,
  type SortKey,
} from "./list";

export interface ListRow {
  id: number;
  /** the number, or Pending until it has one */
  consignment_number: string;
  /** receiver name (sender for returns), first 19 characters */
  party_name: string;
  party_name_full: string;
  despatch_date: string | null;
  /** first 12 characters */
  reference: string;
  reference_full: string;
  item_count: number;
  weight: string;
  total_weight: number;
  volume: string;
  total_volume: number;
  hazardous: boolean;
  /** only when the customer option view_item_references is on */
  item_references: string | null;
  state: string;
  return_type: "return" | "third_party" | null;
  service_id: number | null;
  site_code: string;
  labels_printed: boolean;
  /** the screen that edits it */
  url: string;
}

export interface Counters {
  not_ready: number;
  labels_to_print: number;
  ready: number;
}

export interface ListGroup {
  key: GroupKey;
  label: string;
  count: number;
  /** loaded for expanded groups only */
  rows: ListRow[] | null;
  /** cursor of the next page, when there is one */
  next: string | null;
}

export interface ListScope {
  filter: ListFilter;
  dateFilter: DateFilter;
  /** one of the user's sites, or null for all of them */
  siteId: number | null;
  /** today at the chosen site (else the default site) unless a test fixes it */
  today?: string;
}

/** The user's site of that code (any case), or an error naming the parameter. */
export function siteByCode(user: CurrentUser, code: string, field = "site") {
  const site = user.sites.find((s) => s.code.toLowerCase() === code.toLowerCase());
  if (!site) throw new AppError("invalid", "Site is not one of yours", { [field]: ["Site is not one of yours"] });
  return site;
}

// ---------------------------------------------------------------------------------------------
// Conditions

/** Customer, sites, active non-quote consignments, and the date filter's despatch dates. */
export function scopeCondition(user: CurrentUser, s: ListScope): SQL {
  const { start, end } = dateRange(s.dateFilter, s.today ?? userToday(user, s.siteId));
  const sites = s.siteId != null ? (user.siteIds.includes(s.siteId) ? [s.siteId] : []) : user.siteIds;
  return and(
    eq(consignments.customerId, user.customer.id),
    sites.length === 1 ? eq(consignments.siteId, sites[0]!) : sites.length ? inArray(consignments.siteId, sites) : sql`false`,
    eq(consignments.active, true),
    eq(consignments.isQuote, false),
    gte(consignments.despatchDate, start),
    lte(consignments.despatchDate, end),
  )!;
}

export const labelsToPrint = and(eq(consignments.state, "despatchable"), isNull(consignments.labelsPrintedAt))!;

export function filterCondition(filter: ListFilter): SQL | undefined {
  switch (filter) {
    case "metadata":
      return undefined;
    case "incomplete":
      return eq(consignments.state, "open");
    case "labels_to_print":
      return labelsToPrint;
    case "complete":
      return and(eq(consignments.state, "despatchable"), isNotNull(consignments.labelsPrintedAt));
    case "despatched":
      return inArray(consignments.state, [...DESPATCHED_STATES]);
    case "failed":
      return inArray(consignments.state, [...FAILED_STATES]);
  }
}

function groupCondition(key: GroupKey): SQL {
  if (key === RETURNS_GROUP) return isNotNull(consignments.returnType);
  if (key === NO_SERVICE_GROUP) return and(isNull(consignments.returnType), isNull(consignments.serviceId))!;
  return and(isNull(consignments.returnType), eq(consignments.serviceId, Number(key.slice(1))))!;
}

/** The expression a column sorts by; text sorts case-insensitively, a missing value as "". */
function sortExpression(sort: SortKey): SQL {
  switch (sort) {
    case "consignment_number":
      return sql`coalesce(${consignments.consignmentNumber}, '')`;
    case "party_name":
      return sql`coalesce(lower(${consignments.partyName}), '')`;
    case "reference":
      return sql`coalesce(lower(${consignments.reference}), '')`;
    case "despatch_date":
      return sql`${consignments.despatchDate}`;
    case "item_count":
      return sql`${consignments.itemCount}`;
    case "weight":
      return sql`${consignments.totalWeight}`;
    case "volume":
      return sql`${consignments.totalVolume}`;
    case "hazardous":
      return sql`${consignments.hazardous}`;
  }
}

const CAST: Record<(typeof SORTS)[SortKey]["type"], string> = { text: "text", date: "date", int: "integer", numeric: "numeric", bool: "boolean" };

/** Rows after the cursor in (sort value, id) order: a row comparison the sort can stop at. */
function keysetCondition(sort: SortKey, dir: SortDir, cursor: { value: CursorValue; id: number }): SQL {
  const op = sql.raw(dir === "asc" ? ">" : "<");
  // sent as text and cast in SQL: postgres.js would serialise the text "true" as a false boolean parameter
  const value = sql`(${cursor.value === null ? null : String(cursor.value)}::text)::${sql.raw(CAST[SORTS[sort].type])}`;
  return sql`(${sortExpression(sort)}, ${consignments.id}) ${op} (${value}, ${cursor.id})`;
}

function orderBy(sort: SortKey, dir: SortDir): SQL {
  const d = sql.raw(dir === "asc" ? "asc" : "desc");
  return sql`${sortExpression(sort)} ${d}, ${consignments.id} ${d}`;
}

/** The sort value as the cursor keeps it (read back as text so dates and numerics stay exact). */
function cursorValue(sort: SortKey, text: string | null): CursorValue {
  if (text == null) return null;
  const type = SORTS[sort].type;
  if (type === "int") return Number(text);
  if (type === "bool") return text === "true";
  return text;
}

// ---------------------------------------------------------------------------------------------
// Queries

/** Not Ready, Labels to print and Ready to despatch for the site and date filter, in one statement. */
export async function listCounters(db: DbOrTx, user: CurrentUser, s: Omit<ListScope, "filter">): Promise<Counters> {
  const [row] = await db
    .select({
      not_ready: sql<number>`count(*) filter (where ${consignments.state} = 'open')`.mapWith(Number),
      labels_to_print: sql<number>`count(*) filter (where ${consignments.state} = 'despatchable' and ${consignments.labelsPrintedAt} is null)`.mapWith(Number),
      ready: sql<number>`count(*) filter (where ${consignments.state} = 'despatchable' and ${consignments.labelsPrintedAt} is not null)`.mapWith(Number),
    })
    .from(consignments)
    // only these two states are counted: saying so lets the (customer, state, date) index do the work
    .where(and(scopeCondition(user, { ...s, filter: "metadata" }), inArray(consignments.state, ["open", "despatchable"])));
  return row ?? { not_ready: 0, labels_to_print: 0, ready: 0 };
}

/** The groups of a filter with their counts: carrier services by carrier and service name, then no service, then returns. */
export async function listGroups(db: DbOrTx, user: CurrentUser, s: ListScope): Promise<Omit<ListGroup, "rows" | "next">[]> {
  const counts = await db
    .select({
      serviceId: consignments.serviceId,
      isReturn: sql<boolean>`${consignments.returnType} is not null`,
      n: sql<number>`count(*)`.mapWith(Number),
    })
    .from(consignments)
    .where(and(scopeCondition(user, s), filterCondition(s.filter)))
    .groupBy(consignments.serviceId, sql`${consignments.returnType} is not null`);
  const serviceIds = [...new Set(counts.filter((c) => !c.isReturn && c.serviceId != null).map((c) => c.serviceId!))];
  const names = serviceIds.length
    ? await db
        .select({ id: services.id, service: services.name, carrier: carriers.name })
        .from(services)
        .innerJoin(carriers, eq(carriers.id, services.carrierId))
        .where(inArray(services.id, serviceIds))
    : [];
  const byService = names
    .map((n) => ({ key: `s${n.id}` as GroupKey, label: `${n.carrier} · ${n.service}`, count: counts.find((c) => !c.isReturn && c.serviceId === n.id)!.n }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const none = counts.filter((c) => !c.isReturn && (c.serviceId == null || !names.some((n) => n.id === c.serviceId))).reduce((t, c) => t + c.n, 0);
  const returns = counts.filter((c) => c.isReturn).reduce((t, c) => t + c.n, 0);
  return [
    ...byService,
    ...(none ? [{ key: NO_SERVICE_GROUP, label: "No carrier service", count: none }] : []),
    ...(returns ? [{ key: RETURNS_GROUP, label: "Returns/Third Party", count: returns }] : []),
  ];
}

const rowColumns = {
  id: consignments.id,
  consignmentNumber: consignments.consignmentNumber,
  partyName: consignments.partyName,
  despatchDate: consignments.despatchDate,
  reference: consignments.reference,
  itemCount: consignments.itemCount,
  totalWeight: consignments.totalWeight,
  totalVolume: consignments.totalVolume,
  hazardous: consignments.hazardous,
  itemReferences: consignments.itemReferences,
  state: consignments.state,
  returnType: consignments.returnType,
  serviceId: consignments.serviceId,
  siteId: consignments.siteId,
  labelsPrintedAt: consignments.labelsPrintedAt,
};
type RawRow = { [K in keyof typeof rowColumns]: (typeof rowColumns)[K]["_"]["data"] | null } & { sortValue: string | null };

function toRow(user: CurrentUser, r: RawRow): ListRow {
  const site = user.sites.find((s) => s.id === r.siteId);
  const som = site?.som ?? "metric";
  const weight = Number(r.totalWeight ?? 0);
  const volume = Number(r.totalVolume ?? 0);
  const screen = r.returnType === "return" ? "return" : r.returnType === "third_party" ? "thirdparty" : "consignment";
  return {
    id: r.id!,
    consignment_number: r.consignmentNumber ?? "Pending",
    party_name: truncate(r.partyName, PARTY_NAME_LENGTH),
    party_name_full: r.partyName ?? "",
    despatch_date: r.despatchDate,
    reference: truncate(r.reference, REFERENCE_LENGTH),
    reference_full: r.reference ?? "",
    item_count: r.itemCount ?? 0,
    weight: formatWeight(weight, som),
    total_weight: weight,
    volume: formatVolume(volume, som),
    total_volume: volume,
    hazardous: Boolean(r.hazardous),
    item_references: user.customer.options.view_item_references ? (r.itemReferences ?? null) : null,
    state: r.state!,
    return_type: r.returnType,
    service_id: r.serviceId,
    site_code: site?.code ?? "",
    labels_printed: Boolean(r.labelsPrintedAt),
    url: `/${screen}/${r.id}`,
  };
}

export interface PageQuery {
  sort: SortKey;
  dir: SortDir;
  /** keyset cursor of the previous page's last row */
  after?: string | null;
  limit?: number;
}

/**
 * A page of rows in (sort value, id) order after the cursor, and the cursor of the next page:
 * a page costs the same however deep it is, and rows added or removed meanwhile shift nothing.
 */
export async function pageOf(db: DbOrTx, user: CurrentUser, where: SQL, page: PageQuery): Promise<{ rows: ListRow[]; next: string | null }> {
  const limit = page.limit ?? PAGE_SIZE;
  const cursor = page.after ? decodeCursor(page.after, page.sort) : null;
  if (page.after && !cursor) throw new AppError("invalid", "The page cursor is not valid; start from the first page", { after: ["The page cursor is not valid; start from the first page"] });
  const raw = await db
    .select({ ...rowColumns, sortValue: sql<string | null>`(${sortExpression(page.sort)})::text` })
    .from(consignments)
    .where(cursor ? and(where, keysetCondition(page.sort, page.dir, cursor)) : where)
    .orderBy(orderBy(page.sort, page.dir))
    .limit(limit + 1);
  const more = raw.length > limit;
  const rows = more ? raw.slice(0, limit) : raw;
  const last = rows.at(-1);
  return { rows: rows.map((r) => toRow(user, r)), next: more && last ? encodeCursor(cursorValue(page.sort, last.sortValue), last.id) : null };
}

/** One group's page of rows. */
export function listGroupRows(db: DbOrTx, user: CurrentUser, s: ListScope, key: GroupKey, page: PageQuery) {
  return pageOf(db, user, and(scopeCondition(user, s), filterCondition(s.filter), groupCondition(key))!, page);
}

export interface ListScreen {
  counters: Counters;
  groups: ListGroup[];
  range: { start: string; end: string };
}

/** What the screen shows: counters, groups, and the rows of the expanded groups only. */
export async function listScreen(db: DbOrTx, user: CurrentUser, s: ListScope, view: { sort: SortKey; dir: SortDir; open: GroupKey[]; after: Partial<Record<GroupKey, string>> }): Promise<ListScreen> {
  const [counters, groups] = await Promise.all([listCounters(db, user, s), listGroups(db, user, s)]);
  const loaded = await Promise.all(
    groups.map(async (g) => {
      if (!view.open.includes(g.key)) return { ...g, rows: null, next: null };
      // a cursor that no longer reads (edited URL) starts the group again rather than failing the page
      const after = view.after[g.key] && decodeCursor(view.after[g.key]!, view.sort) ? view.after[g.key] : null;
      return { ...g, ...(await listGroupRows(db, user, s, g.key, { sort: view.sort, dir: view.dir, after })) };
    }),
  );
  return { counters, groups: loaded, range: dateRange(s.dateFilter, s.today ?? userToday(user, s.siteId)) };
}
