/**
 * Advanced search (spec 1 sections 5 and 9, spec 2 sections 4, 5 and 9): the user's consignments
 * despatched in a range under 2 months, by despatch type, active, state, site, carrier, service,
 * references, receiver and number; for super admins, those a staff user changed. At most 500 rows,
 * sorted as asked. Every term is a parameter.
 */
import { sql, type SQL } from "drizzle-orm";
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { isSuperAdmin } from "../auth/roles";
import { forbiddenMessage } from "../auth/guard.server";
import { AppError } from "../../utils/errors";
import { rowsOf } from "../../utils/sql-rows";
import { parseOrThrow } from "../../utils/validation";
import { advancedQuerySchema, type AdvancedQuery } from "./advanced-schema.server";
import { ADVANCED_LIMIT, NO_CARRIER, PENDING, type AdvancedRow, type AdvancedSort, type DespatchType } from "./search";
import { consignmentUrl, likeContains, likePrefix, rateFor, userScope } from "./search.server";

export interface AdvancedResult {
  consignments: AdvancedRow[];
  meta: { query: AdvancedQuery; limit: number; truncated: boolean };
}

/** What each column sorts by: text case aside, a missing value last whichever the direction. */
const SORT_SQL: Record<AdvancedSort, string> = {
  consignment_number: "lower(c.consignment_number)",
  reference: "lower(c.reference)",
  // party_name: the receiver's name kept with the row (the sender's for returns), as the list shows it
  receiver_name: "lower(c.party_name)",
  despatch_date: "c.despatch_date",
  state: "c.state",
  carrier_name: "lower(k.name)",
  service_name: "lower(s.name)",
  total_quantity: "c.item_count",
};

const ROLE_STAFF = sql`u.role in ('devs', 'super_admin', 'admin', 'customer_service')`;

/** The site the criteria name (by code, any case), one of the user's, or a 422 naming it. */
function siteIdOf(user: CurrentUser, code: string): number {
  const site = user.sites.find((s) => s.code.toLowerCase() === code.toLowerCase());
  if (!site) throw new AppError("invalid", "Site is not one of yours", { site: ["Site is not one of yours"] });
  return site.id;
}

function conditions(user: CurrentUser, q: AdvancedQuery): SQL[] {
  const where: SQL[] = [userScope(user), sql`c.despatch_date between ${q.from_date} and ${q.to_date}`, sql`c.active = ${q.active}`];
  where.push(q.despatch_type === "normal" ? sql`c.return_type is null` : sql`c.return_type = ${q.despatch_type}`);
  if (q.state) where.push(sql`c.state = ${q.state}`);
  if (q.site) where.push(sql`c.site_id = ${siteIdOf(user, q.site)}`);
  if (q.carrier) where.push(sql`lower(k.code) = ${q.carrier.toLowerCase()}`);
  if (q.service) where.push(sql`lower(s.code) = ${q.service.toLowerCase()}`);
  const contains = (column: string, term: string | undefined) => term && where.push(sql`${sql.raw(column)} ilike ${likeContains(term)}`);
  contains("c.consignment_number", q.consignment_number);
  contains("c.reference", q.reference);
  contains("c.custom_reference", q.custom_reference);
  contains("c.party_name", q.receiver_name);
  contains("a.locality", q.locality);
  // a postcode is read from its start: 30 finds 3000 to 3099
  if (q.postcode) where.push(sql`a.postcode ilike ${likePrefix(q.postcode)}`);
  // changed by staff: a row of its audit history written by a staff user (the Admin filter)
  if (q.admin) where.push(sql`exists (select 1 from consignment_changes h join users u on u.id = h.changed_by where h.consignment_id = c.id and ${ROLE_STAFF})`);
  return where;
}

interface Raw {
  id: number;
  consignment_number: string | null;
  reference: string | null;
  custom_reference: string | null;
  state: string;
  return_type: "return" | "third_party" | null;
  despatch_date: string | null;
  estimated_delivery_date: string | null;
  item_count: number;
  service_rate: string | null;
  rate_hidden: boolean | null;
  active: boolean;
  service_name: string | null;
  carrier_name: string | null;
  receiver_name: string | null;
  receiver_locality: string | null;
  receiver_postcode: string | null;
  site_code: string;
}

/** POST /api/consignments/advanced_search { query } and the /advanced screen. */
export async function advancedSearch(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<AdvancedResult> {
  const q = parseOrThrow(advancedQuerySchema, raw ?? {});
  if (q.admin && !isSuperAdmin(user)) throw new AppError("forbidden", forbiddenMessage(user), { admin: ["Only super admins may search by admin changes"] });
  const dir = sql.raw(q.dir === "asc" ? "asc nulls last" : "desc nulls last");
  const order = sql`${dir}, id ${sql.raw(q.dir)}`;
  // Two steps in one statement: the page's ids first, joined only to what the criteria and the sort
  // read (the planner drops the other left joins), then the details of those 501 rows alone, so a
  // 2-month range of 10,000 rows is not joined to its addresses and services to show 500.
  const rows = rowsOf<Raw>(
    await db.execute(sql`
      with hit as (
        select c.id, ${sql.raw(SORT_SQL[q.sort])} as sort_key
        from consignments c
        left join addresses a on a.id = c.receiver_address_id
        left join services s on s.id = c.service_id
        left join carriers k on k.id = s.carrier_id
        where ${sql.join(conditions(user, q), sql` and `)}
        order by sort_key ${order}
        limit ${ADVANCED_LIMIT + 1})
      select c.id, c.consignment_number, c.reference, c.custom_reference, c.state, c.return_type,
        c.despatch_date::text as despatch_date, c.estimated_delivery_date::text as estimated_delivery_date, c.item_count,
        c.service_rate::text as service_rate, (c.rating_detail ->> 'hidden')::boolean as rate_hidden, c.active,
        s.name as service_name, k.name as carrier_name, c.party_name as receiver_name, a.locality as receiver_locality,
        a.postcode as receiver_postcode, st.code as site_code
      from hit
      join consignments c on c.id = hit.id
      join sites st on st.id = c.site_id
      left join addresses a on a.id = c.receiver_address_id
      left join services s on s.id = c.service_id
      left join carriers k on k.id = s.carrier_id
      order by hit.sort_key ${dir}, hit.id ${sql.raw(q.dir)}`),
  );
  const truncated = rows.length > ADVANCED_LIMIT;
  return { consignments: rows.slice(0, ADVANCED_LIMIT).map((r) => toRow(user, r)), meta: { query: q, limit: ADVANCED_LIMIT, truncated } };
}

function toRow(user: CurrentUser, r: Raw): AdvancedRow {
  const id = Number(r.id);
  return {
    id,
    consignment_number: r.consignment_number ?? PENDING,
    reference: r.reference,
    custom_reference: r.custom_reference,
    state: r.state,
    carrier_name: r.carrier_name ?? NO_CARRIER,
    despatch_date: r.despatch_date,
    estimated_delivery_date: r.estimated_delivery_date,
    total_quantity: Number(r.item_count),
    service_name: r.service_name,
    service_rate: rateFor(user, r.service_rate, r.rate_hidden),
    return_type: r.return_type,
    despatch_type: (r.return_type ?? "normal") as DespatchType,
    receiver_name: r.receiver_name,
    receiver_locality: r.receiver_locality,
    receiver_postcode: r.receiver_postcode,
    site_code: r.site_code,
    active: r.active,
    url: consignmentUrl({ id, active: r.active, return_type: r.return_type }),
  };
}

/** The carriers and services the form offers: those enabled at the user's sites. */
export async function searchOptions(db: DbOrTx, user: CurrentUser): Promise<{ carriers: Array<{ code: string; name: string }>; services: Array<{ code: string; name: string; carrier: string }> }> {
  if (!user.siteIds.length) return { carriers: [], services: [] };
  const rows = rowsOf<{ carrier_code: string; carrier_name: string; service_code: string; service_name: string }>(
    await db.execute(sql`
      select distinct k.code as carrier_code, k.name as carrier_name, s.code as service_code, s.name as service_name
      from site_services ss join services s on s.id = ss.service_id join carriers k on k.id = s.carrier_id
      where ss.site_id in (${sql.join(user.siteIds.map((id) => sql`${id}`), sql`, `)})
      order by k.name, s.name`),
  );
  const carriers = [...new Map(rows.map((r) => [r.carrier_code, { code: r.carrier_code, name: r.carrier_name }])).values()];
  const services = [...new Map(rows.map((r) => [r.service_code, { code: r.service_code, name: r.service_name, carrier: r.carrier_name }])).values()];
  return { carriers, services };
}
