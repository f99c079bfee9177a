/**
 * The ordinary request beside the floor (issue 32): build/server.js as `npm start` runs it, over a
 * fresh PostgreSQL database with the demo data, loaded by bench/load.mjs with 10 callers. The floor
 * is a bare Node `http` server (bench/floor.ts), measured just before each run so both see the
 * machine alike. Each row is the run with the median share of three. The pages are measured again
 * with PAGE_MEMO=0 (every view rendered). Then the same server with WEB_CONCURRENCY=2 serves
 * checkout rates (10 callers) and the public tracking page (20).
 * `npm run bench` writes it; alone: `npx tsx bench/section.ts requests`.
 */
import os from "node:os";
import { eq, isNotNull } from "drizzle-orm";
import postgres from "postgres";
import { openDatabase } from "../db/client.server";
import { consignments, customers, sites } from "../db/schema";
import { MEL_TO_BNE } from "../tests/support/rating";
import { todayIn } from "../app/modules/calendar/site-time";
import { benchStore } from "./checkout-rates";
import { startFloorServer } from "./floor";
import { loadFrom, tableRows, TABLE_HEAD, type Stats } from "./measure";
import { startBuiltServer } from "./processes";

type Spec = Parameters<typeof loadFrom>[0];

interface Row {
  what: string;
  /** the share of the floor to reach, in percent */
  target?: number;
  /** a page (rendered by React): measured again with every view rendered (PAGE_MEMO=0) */
  page?: true;
  spec: Spec;
}

/** Three runs, each just after a floor run; the run with the median share, and its floor. */
async function againstFloor(floorUrl: string, spec: Spec): Promise<{ run: Stats; floor: Stats; shares: number[] }> {
  await loadFrom({ ...spec, total: Math.ceil(spec.total / 2) });
  const runs: Array<{ run: Stats; floor: Stats; share: number }> = [];
  for (let i = 0; i < 3; i++) {
    const floor = await loadFrom({ url: floorUrl, total: 5000, concurrency: spec.concurrency });
    const run = await loadFrom(spec);
    runs.push({ run, floor, share: (100 * run.perSecond) / floor.perSecond });
  }
  const median = [...runs].sort((a, b) => a.share - b.share)[1]!;
  return { run: median.run, floor: median.floor, shares: runs.map((r) => r.share) };
}

const pct = (n: number) => `${n.toFixed(1)}%`;

async function medianP95(spec: Spec): Promise<{ median: Stats; runs: Stats[] }> {
  await loadFrom({ ...spec, total: Math.ceil(spec.total / 2) });
  const runs = [await loadFrom(spec), await loadFrom(spec), await loadFrom(spec)];
  return { median: [...runs].sort((a, b) => a.p95 - b.p95)[1]!, runs };
}

export async function requestsSection(): Promise<string[]> {
  const heading = ["## Requests against the floor", ""];
  const base = process.env.DATABASE_URL;
  if (!base) return [...heading, "Not measured in this run: the server as `npm start` runs it over PostgreSQL needs DATABASE_URL.", ""];
  const name = `fd_requests_${process.pid}`;
  const admin = postgres(base, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const url = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const floorServer = await startFloorServer();
  try {
    // the first start migrates and loads the demo data, as `npm start` does on an empty database
    let server = await startBuiltServer(url, 1, { SEED_DEMO: "1" });
    const database = await openDatabase({ url });
    const db = database.db;
    const [acme] = await db.select({ id: customers.id }).from(customers).where(eq(customers.code, "ACME"));
    const [melbourne] = await db.select({ id: sites.id }).from(sites).where(eq(sites.code, "MEL"));
    const [tracked] = await db.select({ token: consignments.publicTrackingToken }).from(consignments).where(isNotNull(consignments.publicTrackingToken)).limit(1);
    if (!acme || !melbourne || !tracked?.token) throw new Error("the demo data has no ACME customer, MEL site or tracked consignment");
    const shop = await benchStore(db, acme.id, melbourne.id);
    await database.close();

    const signIn = await fetch(`${server.url}/users/sign_in`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ user: { email: "despatcher@example.com", password: "Demo-password-12" } }),
    });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    if (signIn.status !== 200 || !cookie) throw new Error(`sign-in answered ${signIn.status}`);
    const identity = { "accept-encoding": "identity" };
    const rating = JSON.stringify({ despatch_date: todayIn("Australia/Melbourne", new Date(Date.now() + 86_400_000)), ...MEL_TO_BNE, items: [{ quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: 12 }] });
    const rows: Row[] = [
      { what: "GET /api/users/current, signed in", target: 30, spec: { url: `${server.url}/api/users/current`, headers: { cookie, accept: "application/json", ...identity }, total: 3000, concurrency: 10 } },
      {
        what: "POST /api/carrier_selection, one item, Melbourne to Brisbane",
        target: 25,
        spec: { url: `${server.url}/api/carrier_selection`, method: "POST", headers: { cookie, accept: "application/json", "content-type": "application/json", ...identity }, body: rating, total: 2000, concurrency: 10 },
      },
      { what: "GET /login, signed out", target: 15, page: true, spec: { url: `${server.url}/login`, headers: identity, total: 1500, concurrency: 10 } },
      { what: "GET /home, signed in", target: 8, page: true, spec: { url: `${server.url}/home`, headers: { cookie, ...identity }, total: 800, concurrency: 10 } },
      { what: "GET / (the consignment screen, a new consignment)", target: 8, page: true, spec: { url: `${server.url}/`, headers: { cookie, ...identity }, total: 800, concurrency: 10 } },
    ];
    const loadAverage = os.loadavg()[0]!;
    const measured: Array<Row & { run: Stats; floor: Stats; shares: number[] }> = [];
    for (const row of rows) measured.push({ ...row, ...(await againstFloor(floorServer.url, row.spec)) });
    await server.stop();
    // the pages again with every view rendered (decision 048): what the page memo saves, and what
    // a view of data not seen before costs
    server = await startBuiltServer(url, 1, { PAGE_MEMO: "0" });
    for (const row of rows.filter((r) => r.page)) {
      const spec = { ...row.spec, url: row.spec.url!.replace(/^http:\/\/[^/]+/, server.url) };
      measured.push({ what: `${row.what}, every view rendered (PAGE_MEMO=0)`, spec, ...(await againstFloor(floorServer.url, spec)) });
    }
    await server.stop();

    // two web processes, as `npm start` picks on this machine's two cores
    server = await startBuiltServer(url, 2);
    const checkout = await medianP95({ url: `${server.url}${shop.path}`, method: "POST", headers: shop.headers, bodies: shop.bodies, total: 1000, concurrency: 10 });
    const tracking = await medianP95({ url: `${server.url}/track/${tracked.token}`, headers: identity, total: 2000, concurrency: 20 });
    // what bounds those two: the same server's cheapest answer (405 at once, no database), and the bare floor
    const cheapest = await medianP95({ url: `${server.url}/api/carrier_selection`, headers: identity, total: 2000, concurrency: 20, expect: [405, 405] });
    await server.stop();
    const bare = await medianP95({ url: floorServer.url, total: 5000, concurrency: 20 });

    const met = (ok: boolean) => (ok ? "met" : "not met");
    return [
      ...heading,
      `Issue 32: build/server.js as \`npm start\` runs it (one web process, no job worker) over PostgreSQL with the demo data, measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} x ${os.cpus()[0]?.model ?? "cpu"} (load average ${loadAverage.toFixed(2)} as it began). The callers (bench/load.mjs, keep-alive, no compression, 10 at once) run in a process of their own. The floor is a bare Node \`http\` server answering \`{"ok":true}\` (bench/floor.ts), measured just before each run. Each row is the run with the median share of three, shown beside the floor run it was read against.`,
      "",
      ...TABLE_HEAD,
      ...measured.flatMap((m) => {
        const share = (100 * m.run.perSecond) / m.floor.perSecond;
        // each row's share is of its own floor run, not of the run's floor (measure.ts setFloor)
        const row = (what: string, stats: Stats, shown: string) => tableRows([[what, { ...stats, callers: undefined }]]).map((line) => line.replace(/\| – \|$/, `| ${shown} |`));
        return [...row("floor: a bare Node http server, 10 callers", m.floor, "100%"), ...row(`${m.what}, 10 callers`, m.run, pct(share))];
      }),
      "",
      "Targets (one web process, 10 callers, share of the floor's calls/s in the same run):",
      ...measured.map((m) => {
        const share = (100 * m.run.perSecond) / m.floor.perSecond;
        if (m.target === undefined) return `- ${m.what}, no target of its own: ${pct(share)} (runs ${m.shares.map(pct).join(", ")})`;
        return `- ${m.what} ≥ ${m.target}%: ${pct(share)} (runs ${m.shares.map(pct).join(", ")}), ${met(share >= m.target)}`;
      }),
      `- POST /api/store/{external_id}/rates (checkout rates), WEB_CONCURRENCY=2, 10 callers, p95 < 30 ms: ${checkout.median.p95.toFixed(1)} ms (runs ${checkout.runs.map((r) => r.p95.toFixed(1)).join(", ")} ms; p50 ${checkout.median.p50.toFixed(1)} ms, ${checkout.median.perSecond.toFixed(0)} calls/s), ${met(checkout.median.p95 < 30)}`,
      `- GET /track/{token} (the public tracking page), WEB_CONCURRENCY=2, 20 callers, p95 < 30 ms: ${tracking.median.p95.toFixed(1)} ms (runs ${tracking.runs.map((r) => r.p95.toFixed(1)).join(", ")} ms; p50 ${tracking.median.p50.toFixed(1)} ms, ${tracking.median.perSecond.toFixed(0)} calls/s), ${met(tracking.median.p95 < 30)}`,
      `- their floors, 20 callers: the same two web processes' cheapest answer (GET /api/carrier_selection, 405 before any database work) p95 ${cheapest.median.p95.toFixed(1)} ms (p50 ${cheapest.median.p50.toFixed(1)} ms, ${cheapest.median.perSecond.toFixed(0)} calls/s); a bare Node http server p95 ${bare.median.p95.toFixed(1)} ms (${bare.median.perSecond.toFixed(0)} calls/s)`,
      "",
    ];
  } finally {
    await floorServer.stop();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}
