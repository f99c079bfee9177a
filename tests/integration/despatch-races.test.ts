/**
 * Issue 12 findings 4 and 9: state changes of the same consignments at once (each locks its rows
 * in id order and starts from the state it finds), a despatch job that counts what it really
 * despatched, and who may read a despatch job's status.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consignmentChanges, consignments } from "../../db/schema";
import type { Client, TestServer } from "../support/server";
import * as support from "../support/despatch";
import type { DespatchWorld, Json } from "../support/despatch";

let world: DespatchWorld;
let server: TestServer;
let despatcher: Client;
let admin: Client;
let customerService: Client;
let tester: Client;

const create = (client: Client, site: "MEL" | "SYD", carrier: string, service: string, over: Record<string, unknown> = {}) => support.createDespatchable(world, client, site, carrier, service, over);
const work = (jobId: string) => support.workJob(world, jobId);
const rowsOf = (ids: number[]) => support.rowsOf(world, ids);
const simulate = (settings: Record<string, unknown>) => support.simulate(world, settings);

beforeAll(async () => {
  world = await support.startDespatchWorld();
  ({ server } = world);
  ({ despatcher, admin, customerService, tester } = world.clients);
}, 120_000);
afterAll(() => server.close());

describe.skipIf(!process.env.DATABASE_URL)("state changes racing on the same consignments (issue 12 finding 4)", () => {
  /** Waits until `n` statements of this database wait for a lock (a guard against hanging, not a timing). */
  async function lockWaiters(n: number) {
    for (let i = 0; i < 200; i++) {
      const raw = (await server.db.execute(
        sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
      )) as unknown as { rows?: Json[] } | Json[];
      const [row] = Array.isArray(raw) ? raw : (raw.rows ?? []);
      if (Number(row!.n) >= n) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`never ${n} lock waiters`);
  }

  /** Another connection holding `ids` locked until `release` is called, so requests queue up behind it. */
  async function holdRows(ids: number[]) {
    const blocker = postgres(server.test.database.url!, { max: 1, onnotice: () => {} });
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    const blocking = blocker.begin(async (tx) => {
      await tx`select id from consignments where id in ${tx(ids)} order by id for update`;
      held();
      await released;
    });
    await holding;
    return async () => {
      release();
      await blocking;
      await blocker.end();
    };
  }

  it("two redespatches of one manifest from two of its consignments: one sends it, the other is refused, no deadlock", async () => {
    await simulate({ fail_despatch: true });
    try {
      const ids = [(await create(despatcher, "MEL", "SIMEX", "ONT")).id as number, (await create(despatcher, "MEL", "SIMEX", "ONT")).id as number];
      const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
      expect((await work(res.body.job_id)).status).toBe("failed");
      const release = await holdRows(ids);
      // each starts from a different consignment of the manifest
      const second = despatcher.json<Json>(`/api/consignments/${ids[1]}`, { method: "PUT", json: { redespatch: true } });
      await lockWaiters(1);
      const first = despatcher.json<Json>(`/api/consignments/${ids[0]}`, { method: "PUT", json: { redespatch: true } });
      await lockWaiters(2);
      await release();
      const answers = await Promise.all([second, first]);
      expect(answers.map((a) => a.status).sort(), JSON.stringify(answers.map((a) => a.body))).toEqual([200, 409]);
      expect((await rowsOf(ids)).map((r) => r.state)).toEqual(["despatching", "despatching"]);
    } finally {
      await simulate({ fail_despatch: false });
    }
  });

  for (const first of ["despatch", "delete"] as const) {
    it(`${first} first: one wins for every consignment, the other is refused, and no state is left twice`, async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await create(despatcher, "MEL", "NORTHLINE", "GEN")).id as number);
      // another connection holds the rows, so both requests are in flight together, `first` queued first
      const release = await holdRows(ids);
      const call = {
        despatch: () => despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } }),
        delete: () => despatcher.json<Json>(`/api/consignments/destroy_all?ids=${ids.join(",")}`, { method: "POST" }),
      };
      const second = first === "despatch" ? "delete" : "despatch";
      const a = call[first]();
      await lockWaiters(1);
      const b = call[second]();
      await lockWaiters(2);
      await release();
      const [ra, rb] = await Promise.all([a, b]);
      // whichever was queued first wins: the other finds them no longer in the state it starts from
      expect({ [first]: ra.status, [second]: rb.status }).toEqual({ [first]: 200, [second]: 409 });
      const winner = first === "despatch" ? "despatching" : "deleted";
      expect((await rowsOf(ids)).map((r) => r.state)).toEqual(Array(5).fill(winner));
      const history = await server.db.select().from(consignmentChanges).where(and(inArray(consignmentChanges.consignmentId, ids), eq(consignmentChanges.field, "state")));
      for (const id of ids) {
        const from = history.filter((h) => h.consignmentId === id).map((h) => h.fromValue);
        expect(from).toEqual(["despatchable"]);
      }
      if (first === "despatch") {
        const job = await work(ra.body.job_id);
        expect(job).toMatchObject({ status: "complete", message: "Your consignments have been despatched." });
        expect([...job.info.despatched].sort()).toEqual([...ids].sort());
        expect((await rowsOf(ids)).every((r) => r.state === "despatched")).toBe(true);
      }
    });
  }
});

describe("a despatch job's outcome and who may read it", () => {
  it("counts only what was really despatched: one taken out of the despatch meanwhile is reported, not claimed (finding 4)", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await create(despatcher, "MEL", "NORTHLINE", "GEN")).id as number);
    const res = await despatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids } });
    // what the lost update of the issue left: one of the selection deleted under the queued job
    await server.db.update(consignments).set({ state: "deleted", active: false }).where(eq(consignments.id, ids[1]!));
    const job = await work(res.body.job_id);
    expect(job.status).toBe("failed");
    expect(job.message).toBe("Despatched 2 of 3 Consignments");
    expect(job.errors).toEqual([`Not despatched Consignment(s): ${ids[1]}`]);
    expect([...job.info.despatched].sort()).toEqual([ids[0], ids[2]].sort());
    expect(job.info.not_despatched).toEqual([ids[1]]);
  });

  it("a despatch job's status is read by its maker and the customer's staff, and by a despatcher only if they see every site of its consignments (finding 9)", async () => {
    const { superDespatcher } = world.clients;
    const la = await create(superDespatcher, "MEL", "SIMEX", "ONT", {
      site_code: "LAX",
      sender_address: { name: "Los Angeles Warehouse", address_line_1: "1200 E 7th Street", locality: "LOS ANGELES", postcode: "90021", region: "CA", country: "UNITED STATES OF AMERICA" },
      receiver_address: { name: "Brooklyn Supply", address_line_1: "1 Main Street", locality: "NEW YORK", postcode: "10001", region: "NY", country: "UNITED STATES OF AMERICA" },
    });
    const mel = await create(superDespatcher, "MEL", "NORTHLINE", "GEN");
    const laJob = (await superDespatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [la.id] } })).body.job_id as string;
    const melJob = (await superDespatcher.json<Json>("/api/consignments/despatch_all", { method: "PUT", json: { ids: [mel.id] } })).body.job_id as string;
    const read = async (client: Client, id: string) => (await client.json<Json>(`/api/job_status/${id}`)).status;
    // despatcher@example.com sees Melbourne and Sydney only
    expect(await read(despatcher, laJob)).toBe(404);
    expect(await read(despatcher, melJob)).toBe(200);
    for (const client of [superDespatcher, admin, customerService]) expect(await read(client, laJob)).toBe(200);
    expect(await read(tester, laJob)).toBe(404);
    // still so once the job has run
    await support.workJob(world, laJob, superDespatcher);
    expect(await read(despatcher, laJob)).toBe(404);
  });
});
