/**
 * The insight dashboards (issue 33 items 2 and 4, docs/decisions/042): the figures /api/insight,
 * /insight and /insight.csv answer from the rollup equal direct queries over generated
 * consignments, tracking events, enquiries, emissions and invoice lines; the rollup follows
 * changes through its marks and equals a rebuild from nothing; each reader sees their own.
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, customers, invoiceDetails, invoices, reconciliationNotes, reconciliations, services, sites, users, userSites } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { todayIn } from "../../app/modules/calendar/site-time";
import { rebuildInsight, refreshInsight } from "../../app/modules/insight/rollup.server";
import { auditFromRollup } from "../../app/modules/insight/audit-rollup.server";
import { readablePeriod } from "../../app/modules/insight/scope.server";
import { parseInsightFilters } from "../../app/modules/insight/filters";
import { carrierAudit, discrepancyReasons } from "../../app/modules/invoices/audit.server";
import type { FinanceScope } from "../../app/modules/invoices/access";
import { rowsOf } from "../../app/utils/sql-rows";
import { signInAll, startTestServer, type Client, type TestServer } from "../support/server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
type Json = Record<string, any>;

let server: TestServer;
const EMAILS = { admin: "admin@example.com", despatcher: "despatcher@example.com", finance: "finance@example.com", tester: "tester@example.com" } as const;
const c = {} as Record<keyof typeof EMAILS, Client>;
const ids = { acme: 0, testco: 0, mel: 0, lax: 0, tst: 0, auspost: 0, northline: 0, services: [] as number[] };
const today = todayIn("Australia/Melbourne");
const day = (back: number) => new Date(Date.parse(`${today}T00:00:00Z`) - back * 86_400_000).toISOString().slice(0, 10);
const FROM = day(70);
const TO = today;
const period = `from=${FROM}&to=${TO}`;
const COUNTED = `('despatching','despatch_processing','despatched','booked','in_transit','delivered','delivered_with_pod','partial_delivery','failed_delivery','on_board_for_delivery','picked_up')`;

/** The refresher until it has run (the lock may be held a moment by another pass). */
async function refreshed() {
  for (let i = 0; i < 50; i++) if ((await refreshInsight(server.db)).ran) return;
  throw new Error("the insight refresher never got its lock");
}

const q = async <T>(text: string) => rowsOf<T>(await server.db.execute(sql.raw(text)));

/** Consignments of one customer and site, every state, service, lane and weight in rotation. */
async function generate(customer: number, site: number, prefix: string, count: number, from: number, to: number) {
  await server.db.execute(sql`
    insert into consignments (customer_id, site_id, state, despatch_date, service_id, sender_address_id, receiver_address_id,
      estimated_delivery_date, rating_detail, consignment_number)
    select ${customer}::int, ${site}::int,
      (array['delivered','in_transit','despatched','delivered_with_pod','open','cancelled','delivered'])[1 + g % 7],
      ${day(60)}::date + (g % 55),
      (${`{${ids.services.join(",")}}`}::int[])[1 + g % ${ids.services.length}::int],
      ${from}::int, case when g % 3 = 0 then ${to}::int else ${from}::int end,
      case when g % 11 = 0 then null else ${day(60)}::date + (g % 55) + (g % 4) end,
      jsonb_build_object('total_sell', 10 + (g % 7) * 3.5, 'total_buy', 8 + (g % 5) * 2.25, 'charge_weight', 1 + (g % 9) * 2.5, 'som', 'metric'),
      ${prefix}::text || g
    from generate_series(1, ${count}) g`);
}

beforeAll(async () => {
  server = await startTestServer();
  await seedDemo(server.db);
  const customer = async (code: string) => (await server.db.select().from(customers).where(eq(customers.code, code)))[0]!.id;
  const site = async (code: string) => (await server.db.select().from(sites).where(eq(sites.code, code)))[0]!.id;
  ids.acme = await customer("ACME");
  ids.testco = await customer("TESTCO");
  ids.mel = await site("MEL");
  ids.lax = await site("LAX");
  ids.tst = await site("TST");
  const carrier = async (code: string) => (await server.db.select().from(carriers).where(eq(carriers.code, code)))[0]!.id;
  ids.auspost = await carrier("auspost");
  ids.northline = await carrier("NORTHLINE");
  ids.services = (await server.db.select({ id: services.id }).from(services).orderBy(services.id)).slice(0, 3).map((s) => s.id);
  // the tester (TESTCO) sends from TESTCO's site
  const [tester] = await server.db.select().from(users).where(eq(users.email, EMAILS.tester));
  await server.db.insert(userSites).values({ userId: tester!.id, siteId: ids.tst });

  const address = async (customer: number, region: string) =>
    rowsOf<{ id: number }>(await server.db.execute(sql`insert into addresses (customer_id, is_recipient, name, region, country) values (${customer}, false, ${`In ${region}`}, ${region}, 'AUSTRALIA') returning id`))[0]!.id;
  const [vic, nsw, qld, tvic, tnsw] = [await address(ids.acme, "VIC"), await address(ids.acme, "NSW"), await address(ids.acme, "QLD"), await address(ids.testco, "VIC"), await address(ids.testco, "NSW")];
  await generate(ids.acme, ids.mel, "INS", 240, vic, nsw);
  await generate(ids.acme, ids.mel, "INQ", 60, nsw, qld);
  await generate(ids.acme, ids.lax, "INU", 30, vic, nsw); // sent from the United States: dollars of another currency
  await generate(ids.testco, ids.tst, "INT", 90, tvic, tnsw);
  // delivered events 0 to 4 days after despatch; a failed attempt first on every third; enquiries on every seventh
  await server.db.execute(sql`
    insert into tracking_events (consignment_id, event, carrier_event, event_time, event_date, source)
    select c.id, 'delivered', 'DEL', (c.despatch_date + (c.id % 5))::timestamp + interval '10 hours', c.despatch_date + (c.id % 5), 'api'
    from consignments c where c.consignment_number like 'IN%' and c.state in ('delivered', 'delivered_with_pod')`);
  await server.db.execute(sql`
    insert into tracking_events (consignment_id, event, carrier_event, event_time, event_date, source)
    select c.id, 'failed_delivery', 'FAIL', (c.despatch_date + (c.id % 5))::timestamp + interval '8 hours', c.despatch_date + (c.id % 5), 'api'
    from consignments c where c.consignment_number like 'IN%' and c.state in ('delivered', 'delivered_with_pod') and c.id % 3 = 0`);
  await server.db.execute(sql`
    insert into tickets (customer_id, consignment_id, full_name, email, subject)
    select c.customer_id, c.id, 'Ena Quirer', 'ena@example.net', 'Where is it?' from consignments c where c.consignment_number like 'IN%' and c.id % 7 = 0`);
  await server.db.execute(sql`
    insert into consignment_emissions (consignment_id, customer_id, carrier_id, mode, kg_co2e, tonnes, km, method_version)
    select c.id, c.customer_id, s.carrier_id, s.transport_mode, (c.id % 13) * 1.5, (c.id % 13) * 0.01, 700, 'test'
    from consignments c join services s on s.id = c.service_id where c.consignment_number like 'IN%' and c.id % 2 = 0`);

  // the audit: one carrier invoice with both customers' lines, and a credit since for two contested ones
  const invoice = async (number: string, date: string, lines: Array<{ con: string; customer: number; site?: number; total: string }>) => {
    const [inv] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: number, invoiceDate: date, carrierId: ids.auspost, state: "allocated" }).returning();
    return server.db
      .insert(invoiceDetails)
      .values(lines.map((l, i) => ({ invoiceId: inv!.id, lineNumber: i + 1, carrierId: ids.auspost, consignmentNumber: l.con, customerId: l.customer, siteId: l.site, state: "allocated", totalCost: l.total })))
      .returning();
  };
  const audited = await invoice("INSIGHT-1", day(20), [
    { con: "AUD1", customer: ids.acme, site: ids.mel, total: "11.00" },
    { con: "AUD2", customer: ids.acme, total: "22.00" },
    { con: "AUD3", customer: ids.testco, site: ids.tst, total: "33.00" },
  ]);
  const rec = async (i: number, state: "reconciled" | "disputed", discrepancy: string, reasons: string[], note?: string) => {
    const [r] = await server.db.insert(reconciliations).values({ invoiceDetailId: audited[i]!.id, customerId: audited[i]!.customerId, carrierId: ids.auspost, state, discrepancyAmount: discrepancy, reasonCategories: reasons }).returning();
    if (note) await server.db.insert(reconciliationNotes).values({ reconciliationId: r!.id, text: note });
  };
  await rec(0, "reconciled", "0.10", []);
  await rec(1, "disputed", "6.00", ["surcharge"], "Disputed");
  await rec(2, "disputed", "50.00", ["zone", "incorrect_rate"], "Disputed");
  await invoice("INSIGHT-2", day(10), [
    { con: "AUD2", customer: ids.acme, total: "-4.00" },
    { con: "AUD3", customer: ids.testco, total: "-30.00" },
  ]);
  await server.db.update(users).set({ canReconcile: true }).where(eq(users.email, EMAILS.finance));
  Object.assign(c, await signInAll(server.url, EMAILS));
  await refreshed();
}, 180_000);
afterAll(() => server.close());

/** a rounded figure against the unrounded direct one: within half a unit of its last place */
const near = (figure: number | null, direct: string | null, places: number) => {
  if (direct == null) return expect(figure).toBeNull();
  expect(Math.abs(Number(figure) - Number(direct))).toBeLessThanOrEqual(0.5 / 10 ** places + 1e-9);
};
const chart = (body: Json, id: string) => (body.charts as Json[]).find((ch) => ch.id === id)!;
const valueOf = (ch: Json, category: string, key: string) => ch.data.series.find((s: Json) => s.key === key).values[ch.data.categories.indexOf(category)];

describe("the figures equal a direct query over the consignments", () => {
  it("on-time, first-attempt and enquiry shares per carrier", async () => {
    const res = await c.admin.json<Json>(`/api/insight?${period}`);
    expect(res.status).toBe(200);
    const direct = await q<{ name: string; on_time: string | null; first: string | null; enquiry: string }>(`
      select ca.name,
        (100.0 * count(*) filter (where d.on <= c.estimated_delivery_date) / nullif(count(*) filter (where d.on is not null and c.estimated_delivery_date is not null), 0))::text as on_time,
        (100.0 * count(*) filter (where d.on is not null and d.failed is null) / nullif(count(*) filter (where d.on is not null or c.state in ('delivered','delivered_with_pod')), 0))::text as first,
        (100.0 * count(*) filter (where exists (select 1 from tickets t where t.consignment_id = c.id)) / count(*))::text as enquiry
      from consignments c join services s on s.id = c.service_id join carriers ca on ca.id = s.carrier_id
      left join (select consignment_id, min(event_date) filter (where event = 'delivered') as on, min(event_date) filter (where event = 'failed_delivery') as failed
                 from tracking_events group by 1) d on d.consignment_id = c.id
      where c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${TO}' and c.active and not c.is_quote
      group by ca.name`);
    expect(direct.length).toBeGreaterThan(1);
    const perf = chart(res.body, "carrier-performance");
    for (const row of direct) {
      near(valueOf(perf, row.name, "on_time"), row.on_time, 1);
      near(valueOf(perf, row.name, "first_attempt"), row.first, 1);
      near(valueOf(perf, row.name, "with_enquiry"), row.enquiry, 1);
    }
    const [all] = await q<{ n: number }>(`select count(*)::int as n from consignments c where c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${TO}'`);
    expect(res.body.headline.consignments).toBe(all!.n);
  });

  it("cost per kg and per consignment by service, in the currency asked for and never summed across currencies", async () => {
    const res = await c.admin.json<Json>(`/api/insight?${period}&section=spend&currency=AUD`);
    expect(res.body.currencies).toEqual(["AUD", "USD"]);
    const direct = await q<{ name: string; per_kg: string; per_con: string }>(`
      select ca.name || ' · ' || s.name as name,
        (sum((c.rating_detail->>'total_sell')::numeric) / sum((c.rating_detail->>'charge_weight')::numeric))::text as per_kg,
        (sum((c.rating_detail->>'total_sell')::numeric) / count(*))::text as per_con
      from consignments c join services s on s.id = c.service_id join carriers ca on ca.id = s.carrier_id
      where c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${TO}' and c.site_id <> ${ids.lax}
      group by 1`);
    expect(direct.length).toBeGreaterThan(1);
    const perKg = chart(res.body, "cost-per-kg");
    const perCon = chart(res.body, "cost-per-consignment");
    for (const row of direct) {
      near(valueOf(perKg, row.name, "per_kg"), row.per_kg, 2);
      near(valueOf(perCon, row.name, "per_consignment"), row.per_con, 2);
    }
    // sell, buy and margin by service: staff only see buy and margin
    const bySell = await q<{ name: string; sell: string; buy: string }>(`
      select ca.name || ' · ' || s.name as name, sum((c.rating_detail->>'total_sell')::numeric)::text as sell, sum((c.rating_detail->>'total_buy')::numeric)::text as buy
      from consignments c join services s on s.id = c.service_id join carriers ca on ca.id = s.carrier_id
      where c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${TO}' and c.site_id <> ${ids.lax}
      group by 1`);
    const perService = chart(res.body, "spend-service");
    expect(perService.data.series.map((s: Json) => s.key)).toEqual(["sell", "buy", "margin"]);
    for (const row of bySell) {
      near(valueOf(perService, row.name, "sell"), row.sell, 2);
      near(valueOf(perService, row.name, "buy"), row.buy, 2);
      near(valueOf(perService, row.name, "margin"), String(Number(row.sell) - Number(row.buy)), 2);
    }
    const usd = await c.admin.json<Json>(`/api/insight?${period}&section=spend&currency=USD`);
    const [lax] = await q<{ sell: string }>(`select sum((rating_detail->>'total_sell')::numeric) as sell from consignments c where c.site_id = ${ids.lax} and c.state in ${COUNTED}`);
    expect(usd.body.headline.sell).toBe(Number(lax!.sell));
  });

  it("a period ending within its month counts no later day of it: read through the month's end only when those days hold nothing", async () => {
    // the tenth of last month: the days after it hold consignments (the fixtures run to a week ago)
    const tenth = new Date(Date.parse(`${today.slice(0, 7)}-01T00:00:00Z`) - 86_400_000).toISOString().slice(0, 8) + "10";
    const [later] = await q<{ n: number }>(`select count(*)::int as n from consignments c where c.state in ${COUNTED} and c.despatch_date > '${tenth}' and c.despatch_date < '${tenth}'::date + 21`);
    expect(later!.n).toBeGreaterThan(0);
    // five months back, where the fixtures have nothing: a period to its tenth reads through the
    // month's end, until a day after the tenth holds a row the reader's figures count
    const month = new Date(Date.UTC(Number(today.slice(0, 4)), Number(today.slice(5, 7)) - 6, 1)).toISOString().slice(0, 8);
    const [first, tenthOf, twentieth, end] = [`${month}01`, `${month}10`, `${month}20`, new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10)];
    const filtersTo = (to: string) => {
      const r = parseInsightFilters(new URLSearchParams(`from=${first}&to=${to}`), today);
      if (!r.ok) throw new Error(r.message);
      return r.filters;
    };
    const staff = { staff: true, customerId: null, siteIds: null, finance: null, seesBuy: true };
    const acme = { staff: false, customerId: ids.acme, siteIds: [ids.mel], finance: null, seesBuy: false };
    expect((await readablePeriod(server.db, staff, filtersTo(tenthOf))).to).toBe(end);
    await server.db.execute(sql`
      insert into consignments (customer_id, site_id, state, despatch_date, service_id, sender_address_id, receiver_address_id, rating_detail, consignment_number)
      select customer_id, site_id, 'delivered', ${twentieth}::date, service_id, sender_address_id, receiver_address_id, rating_detail, 'LATER1' from consignments where consignment_number = 'INT1'`);
    await refreshed();
    try {
      expect((await readablePeriod(server.db, staff, filtersTo(tenthOf))).to).toBe(tenthOf);
      // TESTCO's row is not ACME's reader's: theirs still reads through
      expect((await readablePeriod(server.db, acme, filtersTo(tenthOf))).to).toBe(end);
      expect((await c.admin.json<Json>(`/api/insight?from=${first}&to=${tenthOf}`)).body.headline.consignments).toBe(0);
      expect((await c.admin.json<Json>(`/api/insight?from=${first}&to=${twentieth}`)).body.headline.consignments).toBe(1);
    } finally {
      await server.db.execute(sql`delete from consignments where consignment_number = 'LATER1'`);
      await refreshed();
    }
    for (const to of [tenth, TO]) {
      const res = await c.admin.json<Json>(`/api/insight?from=${FROM}&to=${to}&section=spend&currency=AUD`);
      const [direct] = await q<{ n: number; sell: string }>(`
        select count(*)::int as n, sum((c.rating_detail->>'total_sell')::numeric) filter (where c.site_id <> ${ids.lax})::text as sell from consignments c
        where c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${to}' and c.active and not c.is_quote`);
      expect(res.body.headline.consignments).toBe(direct!.n);
      near(res.body.headline.sell, direct!.sell, 2);
    }
  });

  it("transit days per lane, and a lane filter's figures, from the rows kept per lane", async () => {
    const direct = await q<{ lane: string; days: number; n: number }>(`
      select sa.region || '-' || ra.region as lane, least(d.on - c.despatch_date, 10) as days, count(*)::int as n
      from consignments c join addresses sa on sa.id = c.sender_address_id join addresses ra on ra.id = c.receiver_address_id
      join (select consignment_id, min(event_date) filter (where event = 'delivered') as on from tracking_events group by 1) d on d.consignment_id = c.id
      where c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${TO}' and d.on is not null group by 1, 2`);
    const label = (days: number) => (days === 10 ? "10+ days" : days === 1 ? "1 day" : `${days} days`);
    const transit = chart((await c.admin.json<Json>(`/api/insight?${period}`)).body, "transit-days");
    expect(transit.data.series.map((s: Json) => s.key).sort()).toEqual([...new Set(direct.map((r) => r.lane))].sort());
    for (const row of direct) expect(valueOf(transit, label(row.days), row.lane)).toBe(row.n);
    // with a carrier named, from the detailed rows (the transit rows hold no carrier)
    const carrierDirect = await q<{ lane: string; days: number; n: number }>(`
      select sa.region || '-' || ra.region as lane, least(d.on - c.despatch_date, 10) as days, count(*)::int as n
      from consignments c join services s on s.id = c.service_id join addresses sa on sa.id = c.sender_address_id join addresses ra on ra.id = c.receiver_address_id
      join (select consignment_id, min(event_date) filter (where event = 'delivered') as on from tracking_events group by 1) d on d.consignment_id = c.id
      where c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${TO}' and d.on is not null and s.carrier_id = ${ids.auspost} group by 1, 2`);
    const byCarrier = chart((await c.admin.json<Json>(`/api/insight?${period}&carrier_id=${ids.auspost}`)).body, "transit-days");
    expect(carrierDirect.length).toBeGreaterThan(0);
    expect(carrierDirect.reduce((sum, r) => sum + r.n, 0)).toBeLessThan(direct.reduce((sum, r) => sum + r.n, 0));
    for (const row of carrierDirect) expect(valueOf(byCarrier, label(row.days), row.lane)).toBe(row.n);
    const lane = await c.admin.json<Json>(`/api/insight?${period}&lane=NSW-QLD&section=spend&currency=AUD`);
    const [onLane] = await q<{ n: number; sell: string }>(`
      select count(*)::int as n, sum((c.rating_detail->>'total_sell')::numeric)::text as sell
      from consignments c join addresses sa on sa.id = c.sender_address_id join addresses ra on ra.id = c.receiver_address_id
      where c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${TO}' and sa.region = 'NSW' and ra.region = 'QLD'`);
    expect(onLane!.n).toBeGreaterThan(0);
    expect(lane.body.headline.consignments).toBe(onLane!.n);
    near(lane.body.headline.sell, onLane!.sell, 2);
  });

  it("recovered, disputed and discrepancy found per month, within each reader's lines", async () => {
    const month = day(20).slice(0, 7);
    const staff = await c.admin.json<Json>(`/api/insight?${period}&section=audit`);
    const money = chart(staff.body, "audit-money");
    const sumOver = (key: string) => money.data.series.find((s: Json) => s.key === key).values.reduce((a: number, v: number | null) => a + (v ?? 0), 0);
    expect(valueOf(money, month, "recovered")).toBe(34); // both credits count against the month of the contested lines
    expect(sumOver("disputed")).toBe(56);
    expect(sumOver("discrepancy_found")).toBe(56);
    const reasons = chart(staff.body, "audit-reasons");
    expect(reasons.data.categories).toEqual(["Incorrect rate", "Zone", "Surcharge"]);
    expect(reasons.data.series[0].values).toEqual([50, 50, 6]);
    const own = await c.finance.json<Json>(`/api/insight?${period}&section=audit`);
    expect(valueOf(chart(own.body, "audit-money"), month, "recovered")).toBe(4);
    expect(own.body.charts.find((ch: Json) => ch.id === "audit-reasons").data.categories).toHaveLength(1);
  });
});

describe("each reader sees their own", () => {
  it("a customer's user gets their customer's figures from their sites, no buy or margin, and another customer's id is refused", async () => {
    const own = await c.despatcher.json<Json>(`/api/insight?${period}&section=spend`);
    expect(own.status).toBe(200);
    const count = async (where: string) =>
      (await q<{ n: number }>(`select count(*)::int as n from consignments c where ${where} and c.state in ${COUNTED} and c.despatch_date between '${FROM}' and '${TO}'`))[0]!.n;
    // the despatcher sends from Melbourne and Sydney, not Los Angeles
    expect(own.body.headline.consignments).toBe(await count(`c.customer_id = ${ids.acme} and c.site_id <> ${ids.lax}`));
    const acme = { n: await count(`c.customer_id = ${ids.acme}`) };
    expect(acme.n).toBeGreaterThan(own.body.headline.consignments);
    expect(chart(own.body, "spend-month").data.series.map((s: Json) => s.key)).toEqual(["sell"]);
    expect(chart(own.body, "spend-service").data.series.map((s: Json) => s.key)).toEqual(["sell"]);
    const staff = await c.admin.json<Json>(`/api/insight?${period}&section=spend&customer_id=${ids.acme}`);
    expect(staff.body.headline.consignments).toBe(acme.n);
    expect(chart(staff.body, "spend-month").data.series.map((s: Json) => s.key)).toEqual(["sell", "buy", "margin"]);
    const other = await c.despatcher.json<Json>(`/api/insight?${period}&customer_id=${ids.testco}`);
    expect(other.status).toBe(404);
    expect(other.body.errors.customer_id).toEqual(["Customer is not one you can see"]);
    const tester = await c.tester.json<Json>(`/api/insight?${period}`);
    expect(tester.body.headline.consignments).toBe(await count(`c.customer_id = ${ids.testco}`));
    expect(tester.body.auditAllowed).toBe(false);
    const site = await c.tester.json<Json>(`/api/insight?${period}&site_id=${ids.mel}`);
    expect(site.status).toBe(404);
  });

  it("the CSV of a chart is the reader's figures, formulas neutralised, and unknown charts are refused", async () => {
    const res = await c.despatcher.request(`/insight.csv?${period}&chart=spend-carrier`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toContain(`spend-carrier-${FROM}-to-${TO}.csv`);
    const lines = (await res.text()).trim().split("\n");
    expect(lines[0]).toBe("Carrier,Sell (AUD)");
    const api = await c.despatcher.json<Json>(`/api/insight?${period}&section=spend`);
    const carrierChart = chart(api.body, "spend-carrier");
    expect(lines.slice(1)).toEqual(carrierChart.data.categories.map((cat: string, i: number) => `${cat},${carrierChart.data.series[0].values[i]}`));
    const unknown = await c.despatcher.request(`/insight.csv?${period}&chart=nope`);
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("Unknown chart");
    const audit = await c.despatcher.request(`/insight.csv?${period}&chart=audit-money`);
    expect(audit.status).toBe(404);
  });
});

describe("bad filters", () => {
  it("unknown filters, periods over two years and malformed values answer 400 with their message; the page keeps what was typed", async () => {
    const unknown = await c.admin.json<Json>(`/api/insight?${period}&colour=red&size=9`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.filters).toEqual(["Unknown filters: colour, size"]);
    const long = await c.admin.json<Json>(`/api/insight?from=2023-01-01&to=2025-06-01`);
    expect(long.status).toBe(400);
    expect(long.body.errors.from).toEqual(["The period can be at most two years"]);
    const backwards = await c.admin.json<Json>(`/api/insight?from=2026-05-01&to=2026-04-01`);
    expect(backwards.body.errors.to).toEqual(["The period must end on or after its start"]);
    const lane = await c.admin.json<Json>(`/api/insight?lane=VIC`);
    expect(lane.body.errors.lane).toEqual(["Lane must be two states, from-to (for example VIC-NSW)"]);
    const page = await c.admin.request(`/insight?from=2023-01-01&to=2025-06-01&lane=VIC-NSW`);
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain("The period can be at most two years");
    expect(html).toContain('value="VIC-NSW"');
  });
});

describe("the filters offered", () => {
  it("a customer's reader is offered the carriers its consignments went with, staff every carrier", async () => {
    const offered = async (client: Client) => {
      const html = await (await client.request(`/insight?${period}`)).text();
      const select = html.slice(html.indexOf('name="carrier_id"'), html.indexOf("</select>", html.indexOf('name="carrier_id"')));
      return [...select.matchAll(/<option value="(\d+)"/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
    };
    const used = await q<{ id: number }>(
      `select distinct s.carrier_id as id from consignments c join services s on s.id = c.service_id
       where c.customer_id = ${ids.acme} and c.despatch_date is not null and c.state in ${COUNTED} and not c.is_quote and c.active and c.merged_into_id is null order by 1`,
    );
    const all = await q<{ id: number }>(`select id from carriers order by 1`);
    expect(used.length).toBeGreaterThan(0);
    expect(used.length).toBeLessThan(all.length);
    expect(await offered(c.despatcher)).toEqual(used.map((r) => r.id));
    expect(await offered(c.admin)).toEqual(all.map((r) => r.id));
  });
});

describe("the rollup", () => {
  it("follows a change through its marks, and equals a rebuild from nothing", async () => {
    const before = (await c.admin.json<Json>(`/api/insight?${period}`)).body.headline.consignments;
    await server.db.execute(sql`update consignments set state = 'cancelled' where consignment_number in ('INS1', 'INS2', 'INS3')`);
    const [marks] = await q<{ n: number }>(`select count(*)::int as n from insight_dirty`);
    expect(marks!.n).toBeGreaterThan(0);
    await refreshed();
    const after = (await c.admin.json<Json>(`/api/insight?${period}`)).body.headline.consignments;
    expect(after).toBe(before - 3);
    const snapshot = async () => {
      const rows = (table: string) =>
        q<Json>(`select day::text, customer_id, site_id, carrier_id, service_id, mode, from_region, to_region, currency, transit_days, consignments, rated, sell::text, buy::text,
          charge_kg::text, delivered, with_eta, on_time, first_attempt, with_enquiry, with_emissions, kg_co2e::text, tonne_km::text
          from ${table} order by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`);
      const brief = (table: string) =>
        q<Json>(`select day::text, customer_id, site_id, carrier_id, service_id, mode, currency, consignments, rated, sell::text, buy::text,
          charge_kg::text, delivered, with_eta, on_time, first_attempt, with_enquiry, with_emissions, kg_co2e::text, tonne_km::text
          from ${table} order by 1, 2, 3, 4, 5, 6, 7`);
      const transit = (table: string) => q<Json>(`select day::text, customer_id, site_id, from_region, to_region, transit_days, delivered from ${table} order by 1, 2, 3, 4, 5, 6`);
      return {
        daily: await rows("insight_daily"),
        monthly: await rows("insight_monthly"),
        dailyBrief: await brief("insight_daily_brief"),
        monthlyBrief: await brief("insight_monthly_brief"),
        dailyTransit: await transit("insight_daily_transit"),
        monthlyTransit: await transit("insight_monthly_transit"),
      };
    };
    const incremental = await snapshot();
    expect(incremental.monthly.length).toBeGreaterThan(0);
    expect(incremental.monthly.length).toBeLessThan(incremental.daily.length);
    expect(incremental.dailyBrief.length).toBeLessThan(incremental.daily.length);
    // the brief rows are the detailed ones without the lane
    const consignments = (rows: Json[]) => rows.reduce((sum, r) => sum + Number(r.consignments), 0);
    expect(consignments(incremental.dailyBrief)).toBe(consignments(incremental.daily));
    expect(consignments(incremental.monthlyBrief)).toBe(consignments(incremental.daily));
    const deliveredIn = (rows: Json[]) => rows.reduce((sum, r) => sum + Number(r.delivered), 0);
    expect(incremental.dailyTransit.length).toBeGreaterThan(0);
    expect(deliveredIn(incremental.monthlyTransit)).toBe(deliveredIn(incremental.daily));
    await rebuildInsight(server.db);
    expect(await snapshot()).toEqual(incremental);
    // a late delivered event (an in-transit consignment's) moves the delivered count through its own mark
    const delivered = async () => (await q<{ n: number }>(`select sum(delivered)::int as n from insight_daily`))[0]!.n;
    const was = await delivered();
    await server.db.execute(sql`
      insert into tracking_events (consignment_id, event, carrier_event, event_time, event_date, source)
      select id, 'delivered', 'DEL', now(), ${today}::date, 'api' from consignments where consignment_number = 'INS8' and state = 'in_transit'`);
    await refreshed();
    expect(await delivered()).toBe(was + 1);
  });

  it("keeps the audit's figures through its marks (a later credit, a note, a line moved, an invoice gone), equal to the payable list's own and to a rebuild", async () => {
    const filtersOf = (extra: string) => {
      const r = parseInsightFilters(new URLSearchParams(`${period}&section=audit${extra}`), today);
      if (!r.ok) throw new Error(r.message);
      return r.filters;
    };
    const within = sql`"invoices"."invoice_date" between ${FROM} and ${TO}`;
    const scopes: FinanceScope[] = [{ kind: "all" }, { kind: "customer", customerId: ids.acme }, { kind: "customer", customerId: ids.testco }];
    // the rollup's figures are the payable list's, for every reader: the brief rows (per invoice,
    // customer and carrier) without a filter or with a carrier, the detailed ones with a site
    const views = [
      { filters: filtersOf(""), lines: within },
      { filters: filtersOf(`&carrier_id=${ids.auspost}`), lines: sql`${within} and d.carrier_id = ${ids.auspost}` },
      { filters: filtersOf(`&site_id=${ids.mel}`), lines: sql`${within} and d.site_id = ${ids.mel}` },
    ];
    const same = async () => {
      for (const scope of scopes) {
        for (const view of views) {
          const rolled = await auditFromRollup(server.db, scope, view.filters);
          expect(rolled.byMonth).toEqual(await carrierAudit(server.db, scope, view.lines, { byMonth: true }));
          expect(rolled.reasons).toEqual(await discrepancyReasons(server.db, scope, view.lines));
        }
      }
      // (and the site's are some but not all of the staff's)
      const [all, mel] = [await auditFromRollup(server.db, { kind: "all" }, views[0]!.filters), await auditFromRollup(server.db, { kind: "all" }, views[2]!.filters)];
      expect(mel.byMonth.reduce((s, r) => s + r.lines, 0)).toBeGreaterThan(0);
      expect(mel.byMonth.reduce((s, r) => s + r.lines, 0)).toBeLessThan(all.byMonth.reduce((s, r) => s + r.lines, 0));
    };
    const staffMonth = async (key: string) => valueOf(chart((await c.admin.json<Json>(`/api/insight?${period}&section=audit`)).body, "audit-money"), day(20).slice(0, 7), key);
    const matched = async () => (await q<{ n: number }>(`select sum(matched)::int as n from insight_audit`))[0]!.n;
    const marked = async () => (await q<{ n: number }>(`select count(*)::int as n from insight_audit_dirty`))[0]!.n;
    await refreshed();
    await same();
    expect(await staffMonth("recovered")).toBe(34);

    // a credit on a later invoice marks the contested line's invoice, and counts as recovered there
    const [first] = await server.db.select().from(invoices).where(eq(invoices.invoiceNumber, "INSIGHT-1"));
    const [credit] = await server.db.insert(invoices).values({ accountingType: "payable", invoiceNumber: "INSIGHT-3", invoiceDate: day(5), carrierId: ids.auspost, state: "allocated" }).returning();
    await server.db.insert(invoiceDetails).values({ invoiceId: credit!.id, lineNumber: 1, carrierId: ids.auspost, consignmentNumber: "AUD2", customerId: ids.acme, state: "allocated", totalCost: "-1.50" });
    // (and the earlier credit's invoice: every earlier line of the carrier and number is marked)
    const [second] = await server.db.select().from(invoices).where(eq(invoices.invoiceNumber, "INSIGHT-2"));
    expect((await q<{ invoice_id: number }>(`select distinct invoice_id from insight_audit_dirty order by 1`)).map((r) => r.invoice_id)).toEqual([first!.id, second!.id, credit!.id]);
    await refreshed();
    expect(await staffMonth("recovered")).toBe(35.5);
    await same();

    // a state move of a whole invoice marks nothing: no figure reads it
    await server.db.update(invoiceDetails).set({ state: "exported" }).where(eq(invoiceDetails.invoiceId, first!.id));
    expect(await marked()).toBe(0);

    // a note on the line matched automatically makes it a person's decision: no longer matched, its overcharge found
    const wasMatched = await matched();
    const [auto] = await q<{ id: number }>(`select r.id from reconciliations r join invoice_details d on d.id = r.invoice_detail_id where d.consignment_number = 'AUD1'`);
    await server.db.insert(reconciliationNotes).values({ reconciliationId: auto!.id, text: "Accepted" });
    await refreshed();
    expect(await matched()).toBe(wasMatched - 1);
    expect(await staffMonth("discrepancy_found")).toBe(56.1);
    await same();

    // a line moved to the other customer moves its figures between the customers' readers
    await server.db.update(invoiceDetails).set({ customerId: ids.testco }).where(eq(invoiceDetails.consignmentNumber, "AUD2"));
    await refreshed();
    await same();
    const own = await c.finance.json<Json>(`/api/insight?${period}&section=audit`);
    expect(valueOf(chart(own.body, "audit-money"), day(20).slice(0, 7), "recovered")).toBe(0);

    // and equal to a rebuild from nothing
    const snapshot = async () => ({
      audit: await q<Json>(`select invoice_id, day::text, customer_id, site_id, carrier_id, service_id, from_region, to_region, lines, matched,
        discrepancy_found::text, disputed::text, recovered::text, duplicates, duplicates_amount::text from insight_audit order by 1, 3, 4, 5, 6, 7, 8`),
      reasons: await q<Json>(`select invoice_id, customer_id, site_id, reason, lines, amount::text from insight_audit_reasons order by 1, 2, 3, 4`),
      brief: await q<Json>(`select invoice_id, day::text, customer_id, carrier_id, lines, matched, discrepancy_found::text, disputed::text, recovered::text, duplicates,
        duplicates_amount::text from insight_audit_brief order by 1, 3, 4`),
      briefReasons: await q<Json>(`select invoice_id, customer_id, carrier_id, reason, lines, amount::text from insight_audit_reasons_brief order by 1, 2, 3, 4`),
    });
    const incremental = await snapshot();
    expect(incremental.audit.length).toBeGreaterThan(0);
    await rebuildInsight(server.db);
    expect(await snapshot()).toEqual(incremental);

    // the credit's invoice deleted: its lines' marks take the recovered amount back off
    await server.db.delete(invoices).where(eq(invoices.id, credit!.id));
    await refreshed();
    expect(await staffMonth("recovered")).toBe(34);
    await same();
  });
});
