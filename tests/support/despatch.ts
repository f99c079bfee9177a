/**
 * What the despatch tests share: a test server with the demo, its rates and signed-in demo users;
 * despatchable consignments made through the API; playing the worker for one queued job.
 */
import { asc, eq, inArray, sql } from "drizzle-orm";
import { expect } from "vitest";
import { consignments, itemTypes } from "../../db/schema";
import { seedDemo } from "../../db/seed/demo";
import { loadLocalities } from "../../db/seed/localities";
import { seedRatingDemo } from "../../db/seed/rating-demo";
import { createMailer } from "../../app/modules/mail/mailer.server";
import { runJob, type QueueDeps } from "../../queues/queue.server";
import type { JobName } from "../../queues/definitions";
import { Client, startTestServer, type TestServer } from "./server";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON answers are read loosely and asserted field by field
export type Json = Record<string, any>;

export function futureDate(days = 7) {
  const d = new Date(Date.now() + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

export const receiver = { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD", country: "AUSTRALIA", email: "receiving@example.net" };
export const senders = {
  MEL: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC", country: "AUSTRALIA" },
  SYD: { name: "Sydney DC", address_line_1: "1 Wonderland Drive", locality: "EASTERN CREEK", postcode: "2766", region: "NSW", country: "AUSTRALIA" },
};

export interface DespatchWorld {
  server: TestServer;
  cartonTypeId: number;
  clients: Record<"despatcher" | "superDespatcher" | "admin" | "devs" | "customerService" | "tester", Client>;
  /** the queue's services, as a worker in this process has them */
  deps: QueueDeps;
}

/** `work`: the server's own worker runs queued jobs (delayed ones when due), as `npm start` does. */
export async function startDespatchWorld(options: { work?: boolean } = {}): Promise<DespatchWorld> {
  const server = await startTestServer({ work: options.work });
  await seedDemo(server.db);
  await loadLocalities(server.db);
  await seedRatingDemo(server.db);
  const [carton] = await server.db.select({ id: itemTypes.id }).from(itemTypes).where(eq(itemTypes.name, "Carton"));
  const emails = {
    despatcher: "despatcher@example.com",
    superDespatcher: "superdespatcher@example.com",
    admin: "admin@example.com",
    devs: "devs@example.com",
    customerService: "customerservice@example.com",
    tester: "tester@example.com",
  };
  const clients = Object.fromEntries(Object.keys(emails).map((k) => [k, new Client(server.url)])) as DespatchWorld["clients"];
  await Promise.all(Object.entries(emails).map(([k, email]) => clients[k as keyof typeof emails].signIn(email)));
  // the server's queue too: a despatch queues its consignments' tracking
  const deps = { database: server.test.database, mailer: createMailer(server.db, { from: "test@freightdesk.local" }), renderer: server.renderer, queue: server.queue };
  return { server, cartonTypeId: carton!.id, clients, deps };
}

/** A despatchable consignment from `site` with the chosen carrier and service. */
export async function createDespatchable(world: DespatchWorld, client: Client, site: "MEL" | "SYD", carrier: string, service: string, over: Record<string, unknown> = {}): Promise<Json> {
  const res = await client.json<Json>("/api/consignments", {
    json: {
      site_code: site,
      reference: `REF-${carrier}`,
      despatch_date: futureDate(),
      sender_address: senders[site],
      receiver_address: receiver,
      items: [{ quantity: 2, item_type_id: world.cartonTypeId, length: 40, width: 30, height: 30, weight_in_uom: "10" }],
      carrier_code: carrier,
      service_code: service,
      // Simulated Express collects at a booked time
      ...(carrier === "SIMEX" ? { pickup_at: `${futureDate()} 10:00` } : {}),
      ...over,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.state, JSON.stringify(res.body.errors)).toBe("despatchable");
  expect(res.body.carrier_code).toBe(carrier);
  return res.body;
}

/** pg-boss's copy of a queued job: its name and the data a delivery carries. */
export async function queuedJob(world: DespatchWorld, jobId: string): Promise<{ name: JobName; data: Record<string, unknown> }> {
  const raw = (await world.server.db.execute(sql`select name, data from pgboss.job where data->>'jobId' = ${jobId}`)) as unknown as { rows?: Json[] } | Json[];
  const [job] = Array.isArray(raw) ? raw : (raw.rows ?? []);
  expect(job, `job ${jobId} queued`).toBeTruthy();
  return { name: job!.name as JobName, data: job!.data as Record<string, unknown> };
}

/** Plays the worker for one queued job: reads its payload from pg-boss and runs it; answers its status as `client` reads it. */
export async function workJob(world: DespatchWorld, jobId: string, client: Client = world.clients.despatcher): Promise<Json> {
  const job = await queuedJob(world, jobId);
  await runJob(world.deps, job.name, job.data).catch(() => "failed");
  return (await client.json<Json>(`/api/job_status/${jobId}`)).body;
}

export const rowsOf = (world: DespatchWorld, ids: number[]) => world.server.db.select().from(consignments).where(inArray(consignments.id, ids)).orderBy(asc(consignments.id));

/** Tells the simulated carrier what to do (as devs). */
export async function simulate(world: DespatchWorld, settings: Record<string, unknown>) {
  const res = await world.clients.devs.json<Json>("/api/carriers/SIMEX/simulation", { method: "PUT", json: settings });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}
