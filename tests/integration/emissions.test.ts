import { and, eq, inArray, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { carriers, consignmentEmissions, consignments, invoiceDetails, invoices, jobs, localities, services, users } from "../../db/schema";
import { computeEmissions, DEFAULT_FACTORS, NO_FIGURE, NOT_COMPUTED } from "../../app/modules/emissions/method";
import { queueEmissionsBackfill, runRecompute } from "../../app/modules/emissions/factors.server";
import { refreshEmissions } from "../../app/modules/emissions/emissions.server";
import { rowsOf } from "../../app/utils/sql-rows";
import { invoiceDocument } from "../../app/modules/invoicing/pdf.server";
import { renderCustomerInvoiceHtml } from "../../print-templates/documents/CustomerInvoice";
import type { TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

/**
 * Emissions per consignment (issue 33 item 1, docs/decisions/041): the figure stored at the save
 * appears in the consignment and tracking JSON, the public tracking page, the export report and
 * the customer invoice; a carrier's own factor recomputes it; only carrier admins may set one.
 */
let world: DespatchWorld;
let server: TestServer;
let consignment: Json;
let northlineId = 0;

const RECEIVER = { country: "AUSTRALIA" as const, postcode: "4102", locality: "WOOLLOONGABBA" };

async function coordinates(place: { country: "AUSTRALIA"; postcode: string; locality: string }) {
  const [row] = await server.db
    .select({ latitude: localities.latitude, longitude: localities.longitude })
    .from(localities)
    .where(and(eq(localities.country, place.country), eq(localities.postcode, place.postcode), eq(localities.locality, place.locality)));
  return row!;
}

/** What the method makes of the stored consignment's own inputs, with a factor of `factor`. */
async function expected(id: number, carrierFactors?: Record<string, { g_per_tkm: number; source: string }>) {
  const [row] = await server.db.select({ detail: consignments.ratingDetail }).from(consignments).where(eq(consignments.id, id));
  const sender = support.senders.MEL;
  const result = computeEmissions({
    mode: "road",
    kg: Number((row!.detail as { charge_weight: number }).charge_weight),
    weightBasis: "charge",
    from: await coordinates({ country: "AUSTRALIA", postcode: sender.postcode, locality: sender.locality }),
    to: await coordinates(RECEIVER),
    carrierFactors,
  });
  if (!result.ok) throw new Error(result.reason);
  return result.figure;
}

const ddmmyyyy = (iso: string) => iso.split("-").reverse().join("/");

beforeAll(async () => {
  world = await support.startDespatchWorld();
  server = world.server;
  await server.db.update(users).set({ canExport: true }).where(eq(users.email, "despatcher@example.com"));
  northlineId = (await server.db.select({ id: carriers.id }).from(carriers).where(eq(carriers.code, "NORTHLINE")))[0]!.id;
  consignment = await support.createDespatchable(world, world.clients.despatcher, "MEL", "NORTHLINE", "GEN");
}, 300_000);
afterAll(() => server.close());

describe("emissions per consignment", () => {
  it("are stored at the save with their inputs, and answered in the consignment JSON and its rating detail", async () => {
    const figure = await expected(consignment.id);
    expect(figure.kg_co2e).toBeGreaterThan(0);
    const res = await world.clients.despatcher.json<Json>(`/api/consignments/${consignment.id}`);
    expect(res.status).toBe(200);
    expect(res.body.emissions_reason).toBeNull();
    expect(res.body.emissions).toEqual({
      kg_co2e: figure.kg_co2e,
      tonne_km: Math.round(figure.tonnes * figure.km * 1000) / 1000,
      mode: "road",
      factor: DEFAULT_FACTORS.road.g_per_tkm,
      source: DEFAULT_FACTORS.road.source,
      km: figure.km,
      tonnes: figure.tonnes,
    });
    expect(res.body.rating_detail.emissions).toEqual(res.body.emissions);
    const [stored] = await server.db.select().from(consignmentEmissions).where(eq(consignmentEmissions.consignmentId, consignment.id));
    expect(stored).toMatchObject({ carrierId: northlineId, mode: "road", weightBasis: "charge", circuity: "1.200", reason: null });
  });

  it("appear in the tracking JSON and, kg and mode only, on the public tracking page", async () => {
    const figure = await expected(consignment.id);
    const tracking = await world.clients.despatcher.json<Json>(`/api/track_trace/${consignment.id}`);
    expect(tracking.status).toBe(200);
    expect(tracking.body.metadata.emissions.kg_co2e).toBe(figure.kg_co2e);
    const link = await world.clients.despatcher.json<Json>(`/api/create_tracktrace_url/${consignment.id}`);
    const html = await (await fetch(`${server.url}${new URL(link.body.url).pathname}`)).text();
    const shown = figure.kg_co2e < 100 ? figure.kg_co2e.toFixed(1) : String(Math.round(figure.kg_co2e));
    expect(html).toContain(`${shown} kg CO2e (road, well-to-wheel)`);
    expect(html).not.toContain(String(figure.km));
  });

  it("fill the export report's 'kg CO2e' column", async () => {
    const figure = await expected(consignment.id);
    const today = new Date().toISOString().slice(0, 10);
    const to = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const queued = await world.clients.despatcher.json<Json>("/api/exports?format=csv", { json: { site_code: "MEL", from_date: ddmmyyyy(today), to_date: ddmmyyyy(to) } });
    expect(queued.status, JSON.stringify(queued.body)).toBe(202);
    const status = await support.workJob(world, queued.body.job_id);
    expect(status.status, JSON.stringify(status)).toBe("complete");
    const csv = (await (await world.clients.despatcher.request(`/api/exports/${queued.body.job_id}/download`)).text()).replace(/^\uFEFF/, "").trim().split(/\r?\n/);
    const header = csv[0]!.split(",");
    expect(header.at(-1)).toBe("kg CO2e");
    const line = csv.find((l) => l.startsWith(`${consignment.consignment_number ?? ""},`) && l.includes("REF-NORTHLINE"));
    expect(line, csv.join("\n")).toBeTruthy();
    expect(Number(line!.split(",").at(-1))).toBe(figure.kg_co2e);
  });

  it("total on the customer invoice, screen and PDF, each consignment once, as a line that is not a charge", async () => {
    const other = await support.createDespatchable(world, world.clients.despatcher, "MEL", "NORTHLINE", "GEN");
    // the second consignment has no figure: its total leaves it out and says so
    await server.db.update(consignmentEmissions).set({ kgCo2e: null, reason: NO_FIGURE.noReceiver }).where(eq(consignmentEmissions.consignmentId, other.id));
    const figure = await expected(consignment.id);
    const [acme] = await server.db.select({ id: consignments.customerId }).from(consignments).where(eq(consignments.id, consignment.id));
    const [inv] = await server.db.insert(invoices).values({ accountingType: "receivable", customerId: acme!.id, invoiceNumber: `INV-EM-${Date.now()}`, state: "invoiced", total: "30.00", subtotal: "30.00", gst: "0.00", invoiceDate: "2026-11-20" }).returning();
    await server.db.insert(invoiceDetails).values(
      [consignment.id, consignment.id, other.id].map((consignmentId, i) => ({ invoiceId: inv!.id, lineNumber: i + 1, customerId: acme!.id, consignmentId, state: "invoiced", consignmentNumber: `CN-${i}`, totalCost: "10.00" })),
    );
    const res = await world.clients.admin.json<Json>(`/api/invoices/${inv!.id}`);
    expect(res.status).toBe(200);
    expect(res.body.emissions).toEqual({ kg_co2e: figure.kg_co2e, consignments: 2, without_figure: 1 });
    expect(res.body.total).toBe(30);
    const doc = await invoiceDocument(server.db, inv!.id);
    const html = renderCustomerInvoiceHtml(doc!.doc);
    expect(html).toContain("Emissions (kg CO2e), well-to-wheel, not a charge");
    expect(html).toContain("(1 of 2 consignments without a figure)");
    const screen = await (await world.clients.admin.request(`/invoice/${inv!.id}`)).text();
    expect(screen).toContain("Emissions (kg CO2e)");
    await server.db.delete(invoiceDetails).where(eq(invoiceDetails.invoiceId, inv!.id));
    await server.db.delete(invoices).where(eq(invoices.id, inv!.id));
  });

  it("a carrier's own factor: carrier admins only, checked, and it recomputes the carrier's consignments", async () => {
    const path = `/api/carriers/${northlineId}/emission_factors`;
    const own = { road: { g_per_tkm: 62, source: "Northline 2025 fuel records" } };
    expect((await world.clients.despatcher.json<Json>(path, { method: "PUT", json: own })).status).toBe(403);
    expect((await world.clients.despatcher.json<Json>(path)).status).toBe(403);
    const unknown = await world.clients.admin.json<Json>(path, { method: "PUT", json: { sea: own.road } });
    expect(unknown.status).toBe(400);
    expect(JSON.stringify(unknown.body.errors)).toContain("Unknown mode: sea");
    const negative = await world.clients.admin.json<Json>(path, { method: "PUT", json: { road: { g_per_tkm: -1, source: "x" } } });
    expect(negative.status).toBe(400);
    expect(negative.body.errors["road.g_per_tkm"]).toEqual(["Factor cannot be negative"]);
    expect((await world.clients.admin.json<Json>(`/api/carriers/999999/emission_factors`, { method: "PUT", json: own })).status).toBe(404);

    const saved = await world.clients.admin.json<Json>(path, { method: "PUT", json: own });
    expect(saved.status, JSON.stringify(saved.body)).toBe(202);
    expect(saved.body.factors.road).toEqual({ g_per_tkm: 62, source: own.road.source, own: true, default_g_per_tkm: DEFAULT_FACTORS.road.g_per_tkm });
    expect(saved.body.factors.air.own).toBe(false);
    // nothing changes until the job runs: then every consignment of the carrier has the new factor
    expect((await world.clients.despatcher.json<Json>(`/api/consignments/${consignment.id}`)).body.emissions.factor).toBe(DEFAULT_FACTORS.road.g_per_tkm);
    const status = await support.workJob(world, saved.body.job_id, world.clients.admin);
    expect(status.status, JSON.stringify(status)).toBe("complete");
    const figure = await expected(consignment.id, own);
    const after = await world.clients.despatcher.json<Json>(`/api/consignments/${consignment.id}`);
    expect(after.body.emissions).toMatchObject({ kg_co2e: figure.kg_co2e, factor: 62, source: own.road.source });

    // null returns the mode to its default (and recomputes again)
    const cleared = await world.clients.admin.json<Json>(path, { method: "PUT", json: { road: null } });
    expect(cleared.body.factors.road.own).toBe(false);
    await support.workJob(world, cleared.body.job_id, world.clients.admin);
    expect((await world.clients.despatcher.json<Json>(`/api/consignments/${consignment.id}`)).body.emissions.factor).toBe(DEFAULT_FACTORS.road.g_per_tkm);
  });

  it("an air service: the great circle + 95 km, no circuity, the air factor", async () => {
    const [service] = await server.db.select({ id: services.id }).from(services).where(and(eq(services.carrierId, northlineId), eq(services.code, "GEN")));
    const path = `/api/carriers/${northlineId}/services/${service!.id}`;
    const changed = await world.clients.admin.json<Json>(path, { method: "PUT", json: { transport_mode: "air" } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.transport_mode).toBe("air");
    expect((await world.clients.admin.json<Json>(path, { method: "PUT", json: { transport_mode: "sea" } })).status).toBe(400);
    try {
      const c = await support.createDespatchable(world, world.clients.despatcher, "MEL", "NORTHLINE", "GEN");
      const road = await expected(c.id);
      expect(c.emissions).toMatchObject({ mode: "air", factor: DEFAULT_FACTORS.air.g_per_tkm, km: Math.round((road.great_circle_km + 95) * 10) / 10 });
    } finally {
      await world.clients.admin.json<Json>(path, { method: "PUT", json: { transport_mode: "road" } });
    }
  });

  it("a locality without coordinates: no figure, and the reason, everywhere", async () => {
    const before = await coordinates(RECEIVER);
    const place = and(eq(localities.country, "AUSTRALIA"), eq(localities.postcode, RECEIVER.postcode), eq(localities.locality, RECEIVER.locality));
    await server.db.update(localities).set({ latitude: null, longitude: null }).where(place);
    try {
      const c = await support.createDespatchable(world, world.clients.despatcher, "MEL", "NORTHLINE", "GEN");
      expect(c.emissions).toBeNull();
      expect(c.emissions_reason).toBe(NO_FIGURE.noReceiver);
      const tracking = await world.clients.despatcher.json<Json>(`/api/track_trace/${c.id}`);
      expect(tracking.body.metadata).toMatchObject({ emissions: null, emissions_reason: NO_FIGURE.noReceiver });
      const link = await world.clients.despatcher.json<Json>(`/api/create_tracktrace_url/${c.id}`);
      const html = await (await fetch(`${server.url}${new URL(link.body.url).pathname}`)).text();
      expect(html).toContain("The receiver&#39;s locality has no coordinates");
      const [row] = await server.db.select().from(consignmentEmissions).where(inArray(consignmentEmissions.consignmentId, [c.id]));
      expect(row).toMatchObject({ kgCo2e: null, km: null, reason: NO_FIGURE.noReceiver });
    } finally {
      await server.db.update(localities).set(before).where(place);
    }
  });

  // PGlite runs one transaction at a time, so there the recompute cannot overtake the save: the race is PostgreSQL's
  it.runIf(Boolean(process.env.DATABASE_URL))("a recompute running while a save is open waits for it, and keeps the save's figure", async () => {
    const figure = async () => (await server.db.select({ kg: consignmentEmissions.kgCo2e }).from(consignmentEmissions).where(eq(consignmentEmissions.consignmentId, consignment.id)))[0]!.kg;
    const before = Number(await figure());
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let saved!: () => void;
    const written = new Promise<void>((resolve) => (saved = resolve));
    // a save: the charge weight doubled and its figure stored, not yet committed
    const save = server.db.transaction(async (tx) => {
      await tx.execute(sql`update consignments set rating_detail = jsonb_set(rating_detail, '{charge_weight}', to_jsonb((rating_detail->>'charge_weight')::numeric * 2)) where id = ${consignment.id}`);
      await refreshEmissions(tx, [consignment.id]);
      saved();
      await held;
    });
    await written;
    const recompute = runRecompute(server.db, { carrierId: northlineId }, async () => {});
    // released once the recompute is held on a lock (the save's row; without its own lock, it would
    // be held on the emissions row instead, having read the version before the save)
    const waiting = async () => rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0]!.n;
    for (let i = 0; i < 100 && (await waiting()) === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await waiting()).toBeGreaterThan(0);
    release();
    await save;
    await recompute;
    expect(Number(await figure())).toBeCloseTo(before * 2, 1);
    expect(Number(await figure())).toBe((await expected(consignment.id)).kg_co2e);
  });

  it("an upgrade's consignments with nothing stored are computed by one backfill, which the worker queues as it starts", async () => {
    // as a consignment saved before migration 0035: no row at all
    await server.db.delete(consignmentEmissions).where(eq(consignmentEmissions.consignmentId, consignment.id));
    expect((await world.clients.despatcher.json<Json>(`/api/consignments/${consignment.id}`)).body.emissions_reason).toBe(NOT_COMPUTED);
    const stored = async () => new Map((await server.db.select({ id: consignmentEmissions.consignmentId, at: consignmentEmissions.computedAt }).from(consignmentEmissions)).map((r) => [r.id, r.at.getTime()]));
    const before = await stored();
    expect(before.size).toBeGreaterThan(0);
    const jobId = await queueEmissionsBackfill(server.db, server.queue);
    expect(jobId).not.toBeNull();
    // a second worker starting meanwhile queues none
    expect(await queueEmissionsBackfill(server.db, server.queue)).toBeNull();
    // a job of no user's (the worker queued it): read from its row
    await support.workJob(world, jobId!, world.clients.admin);
    const [job] = await server.db.select({ status: jobs.status, message: jobs.message }).from(jobs).where(eq(jobs.id, jobId!));
    expect(job).toMatchObject({ status: "complete", message: expect.stringMatching(/^Recomputed the emissions of [1-9]\d* consignment\(s\)\.$/) });
    const after = await world.clients.despatcher.json<Json>(`/api/consignments/${consignment.id}`);
    expect(after.body.emissions).toMatchObject({ kg_co2e: (await expected(consignment.id)).kg_co2e, factor: DEFAULT_FACTORS.road.g_per_tkm });
    // only the missing: every figure already stored is as it was
    const now = await stored();
    for (const [id, at] of before) expect(now.get(id)).toBe(at);
    // and nothing is left to backfill
    const [left] = rowsOf<{ n: number }>(await server.db.execute(sql`select count(*)::int as n from consignments c where not exists (select 1 from consignment_emissions e where e.consignment_id = c.id)`));
    expect(left!.n).toBe(0);
    expect(await queueEmissionsBackfill(server.db, server.queue)).toBeNull();
  });
});
