/**
 * The header search (spec 1 sections 2, 3 and 9): consignments of the user's customer and sites
 * whose number, reference or receiver name (party_name: the sender's for returns) starts with the
 * term, case aside. Quotes are not consignments here; deleted and merged ones are found and shown
 * with their state, without a link. The term is a parameter, its % and _ literal.
 */
import { sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { DbOrTx } from "../../../db/client.server";
import type { CurrentUser } from "../auth/current-user.server";
import { isAdmin } from "../auth/roles";
import { VARIANTS, variantOf } from "../consignments/variants";
import { rowsOf } from "../../utils/sql-rows";
import { parseOrThrow } from "../../utils/validation";
import { NO_CARRIER, PENDING, SEARCH_LIMIT, SEARCH_MAX, SEARCH_MIN, type SearchResult } from "./search";

const querySchema = z.object({
  query: z
    .string({ error: "Query must be text" })
    .trim()
    .max(SEARCH_MAX, `Query must be at most ${SEARCH_MAX} characters`)
    .default(""),
});

/** A LIKE pattern that matches text starting with `term`: its wildcards and escapes are literal. */
export const likePrefix = (term: string) => `${likeLiteral(term.toLowerCase())}%`;
/** A LIKE pattern that matches text containing `term`, case aside (with ILIKE). */
export const likeContains = (term: string) => `%${likeLiteral(term)}%`;
const likeLiteral = (term: string) => term.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The last character there is: every text starting with a prefix sorts before the prefix and it. */
const LAST_CHAR = "\u{10FFFF}";

/** The user's consignments: their working customer's, at one of their sites, never quotes. */
export function userScope(user: CurrentUser, alias = "c"): SQL {
  const c = sql.raw(alias);
  const sites = user.siteIds.length ? sql`${c}.site_id in (${sql.join(user.siteIds.map((id) => sql`${id}`), sql`, `)})` : sql`false`;
  return sql`${c}.customer_id = ${user.customer.id} and ${sites} and not ${c}.is_quote`;
}

/** The screen a consignment opens on; none for inactive ones (spec 1 section 4: shown without link). */
export const consignmentUrl = (c: { id: number; active: boolean; return_type: "return" | "third_party" | null }) =>
  c.active ? `${VARIANTS[variantOf({ is_quote: false, return_type: c.return_type })].path}/${c.id}` : null;

/** A rate marked hidden (one restricted account) is shown to staff only, as the consignment shows it. */
export const rateFor = (user: CurrentUser, rate: string | null, hidden: boolean | null) => (rate == null || (hidden && !isAdmin(user)) ? null : Number(rate));

interface Hit {
  id: number;
  consignment_number: string | null;
  reference: string | null;
  state: string;
  return_type: "return" | "third_party" | null;
  despatch_date: string | null;
  item_count: number;
  service_rate: string | null;
  rate_hidden: boolean | null;
  active: boolean;
  service_name: string | null;
  carrier_name: string | null;
  receiver_name: string | null;
  receiver_code: string | null;
  receiver_line_1: string | null;
  receiver_locality: string | null;
  receiver_postcode: string | null;
  receiver_region: string | null;
  receiver_country: string | null;
}

/**
 * GET /api/consignments/search?query: at most 10 consignments, those whose number starts with the
 * term first, then reference, then receiver name, each in that field's order. Under 3 characters
 * answers none (the box asks from 3). Each field is one walk of its prefix index that stops at the
 * tenth row in the user's scope, so a common prefix costs no more than a rare one.
 */
export async function searchConsignments(db: DbOrTx, user: CurrentUser, raw: unknown): Promise<{ consignments: SearchResult[] }> {
  const { query } = parseOrThrow(querySchema, raw);
  if (query.length < SEARCH_MIN) return { consignments: [] };
  const scope = userScope(user);
  // The prefix as a range of the index's order (~>=~ and ~<~ are text_pattern_ops' operators): a
  // prepared statement's generic plan takes index bounds from a range of parameters, where from a
  // LIKE parameter it took none and walked the customer's whole index (190 ms at 100,000 rows).
  // Every text that starts with the term sorts from the term up to the term and the last character.
  const low = sql`lower(${query}::text)`;
  const high = sql`(lower(${query}::text) || ${LAST_CHAR}::text)`;
  const branch = (field: number, column: string) => {
    const key = sql.raw(`lower(c.${column})`);
    return sql`(select c.id, ${field}::int as field, ${key} as key from consignments c
      where ${scope} and ${key} ~>=~ ${low} and ${key} ~<~ ${high}
      order by ${key} using ~<~ limit ${SEARCH_LIMIT})`;
  };
  // two small statements plan faster than one that joins the details in (planning was most of it)
  const hits = rowsOf<{ id: number }>(
    await db.execute(sql`
      select id from (select distinct on (id) id, field, key from (${branch(1, "consignment_number")} union all ${branch(2, "reference")} union all ${branch(3, "party_name")}) h order by id, field) b
      order by field, key using ~<~, id limit ${SEARCH_LIMIT}`),
  ).map((h) => Number(h.id));
  if (!hits.length) return { consignments: [] };
  const raw2 = await db.execute(sql`
    select c.id, c.consignment_number, c.reference, c.state, c.return_type, c.despatch_date::text as despatch_date, c.item_count,
      c.service_rate::text as service_rate, (c.rating_detail ->> 'hidden')::boolean as rate_hidden, c.active,
      s.name as service_name, k.name as carrier_name,
      a.name as receiver_name, a.code as receiver_code, a.address_line_1 as receiver_line_1, a.locality as receiver_locality,
      a.postcode as receiver_postcode, a.region as receiver_region, a.country as receiver_country
    from consignments c
    left join addresses a on a.id = c.receiver_address_id
    left join services s on s.id = c.service_id
    left join carriers k on k.id = s.carrier_id
    where c.id in (${sql.join(hits.map((id) => sql`${id}`), sql`, `)})`);
  const byId = new Map(rowsOf<Hit>(raw2).map((h) => [Number(h.id), h]));
  return { consignments: hits.map((id) => toResult(user, byId.get(id)!)) };
}

function toResult(user: CurrentUser, h: Hit): SearchResult {
  const id = Number(h.id);
  return {
    id,
    consignment_number: h.consignment_number ?? PENDING,
    reference: h.reference,
    receiver_reference: h.receiver_code,
    receiver_address:
      h.receiver_name == null
        ? null
        : { name: h.receiver_name, address_line_1: h.receiver_line_1, locality: h.receiver_locality, postcode: h.receiver_postcode, region: h.receiver_region, country: h.receiver_country ?? "" },
    state: h.state,
    carrier_name: h.carrier_name ?? NO_CARRIER,
    despatch_date: h.despatch_date,
    total_quantity: Number(h.item_count),
    service_name: h.service_name,
    service_rate: rateFor(user, h.service_rate, h.rate_hidden),
    return_type: h.return_type,
    active: h.active,
    url: consignmentUrl({ id, active: h.active, return_type: h.return_type }),
  };
}
