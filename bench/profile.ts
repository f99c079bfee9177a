/**
 * Where an ordinary request's time goes (issue 32 item 2): build/server.js as `npm start` runs it
 * (one web process, no job worker) over a fresh PostgreSQL database with the demo data, each
 * request loaded by bench/load.mjs with 10 callers after a warm-up, while V8's sampling profiler
 * runs in the server (started and stopped over the inspector, so start-up and warm-up are left
 * out). Prints each request's calls/s and its costs grouped by what they are (session, React,
 * Express middleware, PostgreSQL driver, ...) as shares of the server's busy time.
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/profile.ts [name ...] [--save DIR]
 * (--save keeps each profile, for chrome://inspect or a script, and one answer of each request)
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import postgres from "postgres";
import { MEL_TO_BNE } from "../tests/support/rating";
import { freePort } from "../tests/support/server";
import { todayIn } from "../app/modules/calendar/site-time";
import { eq, isNotNull } from "drizzle-orm";
import { openDatabase } from "../db/client.server";
import { consignments, customers, sites } from "../db/schema";
import { benchStore } from "./checkout-rates";
import { startFloorServer } from "./floor";
import { loadFrom, type Stats } from "./measure";
import { summarise, type CpuProfile } from "./profile-summary";

const root = path.resolve(import.meta.dirname, "..");

/** What a target's call needs besides the server: the despatcher's cookie, a tracked consignment's token, the bench store. */
interface Fixture {
  cookie: string;
  token: string;
  shop: Awaited<ReturnType<typeof benchStore>>;
}

interface Target {
  name: string;
  spec: (url: string, f: Fixture) => Parameters<typeof loadFrom>[0];
}

const RATING = {
  despatch_date: todayIn("Australia/Melbourne", new Date(Date.now() + 86_400_000)),
  ...MEL_TO_BNE,
  items: [{ quantity: 1, length: 40, width: 30, height: 30, weight_in_uom: 12 }],
};

const TARGETS: Target[] = [
  // the cheapest answer the app gives: a 405 before any database work, through every middleware and Remix
  { name: "cheapest", spec: (url) => ({ url: `${url}/api/carrier_selection`, total: 3000, concurrency: 10, expect: [405, 405] }) },
  { name: "users-current", spec: (url, { cookie }) => ({ url: `${url}/api/users/current`, headers: { cookie, accept: "application/json" }, total: 3000, concurrency: 10 }) },
  {
    name: "carrier-selection",
    spec: (url, { cookie }) => ({ url: `${url}/api/carrier_selection`, method: "POST", headers: { cookie, accept: "application/json", "content-type": "application/json" }, body: JSON.stringify(RATING), total: 2000, concurrency: 10 }),
  },
  { name: "login", spec: (url) => ({ url: `${url}/login`, total: 1000, concurrency: 10 }) },
  { name: "home", spec: (url, { cookie }) => ({ url: `${url}/home`, headers: { cookie }, total: 500, concurrency: 10 }) },
  { name: "consignment", spec: (url, { cookie }) => ({ url: `${url}/`, headers: { cookie }, total: 500, concurrency: 10 }) },
  { name: "tracking", spec: (url, { token }) => ({ url: `${url}/track/${token}`, total: 600, concurrency: 20 }) },
  { name: "checkout", spec: (url, { shop }) => ({ url: `${url}${shop.path}`, method: "POST", headers: shop.headers, bodies: shop.bodies, total: 600, concurrency: 10 }) },
];

/** A V8 inspector session on the server process, over its WebSocket. */
async function inspector(wsUrl: string) {
  const ws = new WebSocket(wsUrl);
  await once(ws as unknown as EventTarget as never, "open").catch(() => undefined);
  if (ws.readyState !== WebSocket.OPEN) await new Promise((r) => ws.addEventListener("open", r, { once: true }));
  let id = 0;
  const pending = new Map<number, (v: unknown) => void>();
  ws.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
    if (message.id !== undefined) pending.get(message.id)?.(message.result);
  });
  return {
    call<T>(method: string, params: Record<string, unknown> = {}) {
      const n = ++id;
      ws.send(JSON.stringify({ id: n, method, params }));
      return new Promise<T>((resolve) => pending.set(n, resolve as (v: unknown) => void));
    },
    close: () => ws.close(),
  };
}

async function main() {
  const args = process.argv.slice(2);
  const saveAt = args.indexOf("--save");
  const saveDir = saveAt >= 0 ? args.splice(saveAt, 2)[1] : undefined;
  const chosen = args.length ? TARGETS.filter((t) => args.includes(t.name)) : TARGETS;
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL: a PostgreSQL server to make the profile's own database in");
  const name = `fd_profile_${process.pid}`;
  const admin = postgres(base, { max: 1, onnotice: () => undefined });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const databaseUrl = Object.assign(new URL(base), { pathname: `/${name}` }).toString();
  const port = await freePort();
  const child = spawn(process.execPath, ["--inspect=127.0.0.1:0", "--max-semi-space-size=64", path.join(root, "build/server.js")], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), NODE_ENV: "production", RUN_WORKER: "0", WEB_CONCURRENCY: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  try {
    let wsUrl = "";
    await new Promise<void>((resolve, reject) => {
      let out = "";
      const seen = (chunk: Buffer) => {
        out += chunk.toString();
        wsUrl ||= /ws:\/\/\S+/.exec(out)?.[0] ?? "";
        if (wsUrl && /FreightDesk listening on /.test(out)) resolve();
      };
      child.stdout!.on("data", seen);
      child.stderr!.on("data", seen);
      child.once("exit", (code) => reject(new Error(`server exited (${code}):\n${out}`)));
    });
    const url = `http://127.0.0.1:${port}`;
    const signIn = await fetch(`${url}/users/sign_in`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ user: { email: "despatcher@example.com", password: "Demo-password-12" } }),
    });
    const cookie = signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    if (signIn.status !== 200 || !cookie) throw new Error(`sign-in answered ${signIn.status}`);
    const floorServer = await startFloorServer();
    const floor = () => loadFrom({ url: floorServer.url, total: 5000, concurrency: 10 });
    await floor();
    const database = await openDatabase({ url: databaseUrl });
    const [acme] = await database.db.select({ id: customers.id }).from(customers).where(eq(customers.code, "ACME"));
    const [melbourne] = await database.db.select({ id: sites.id }).from(sites).where(eq(sites.code, "MEL"));
    const [tracked] = await database.db.select({ token: consignments.publicTrackingToken }).from(consignments).where(isNotNull(consignments.publicTrackingToken)).limit(1);
    const fixture: Fixture = { cookie, token: tracked!.token!, shop: await benchStore(database.db, acme!.id, melbourne!.id) };
    await database.close();
    const session = await inspector(wsUrl);
    await session.call("Profiler.enable");
    await session.call("Profiler.setSamplingInterval", { interval: 200 });
    for (const target of chosen) {
      const spec = target.spec(url, fixture);
      const headers = { ...spec.headers, "accept-encoding": "identity" };
      await loadFrom({ ...spec, headers, total: Math.ceil(spec.total / 2) }); // warm-up: V8 compiles the hot paths
      // the floor just before, so the share reads the machine as it is now
      const bare = await floor();
      await session.call("Profiler.start");
      const stats: Stats = await loadFrom({ ...spec, headers });
      const { profile } = await session.call<{ profile: CpuProfile }>("Profiler.stop");
      if (saveDir) {
        mkdirSync(saveDir, { recursive: true });
        writeFileSync(path.join(saveDir, `${target.name}.cpuprofile`), JSON.stringify(profile));
        // and one answer of it, to read what the profiled time made
        const answer = await fetch(spec.url ?? spec.urls![0]!, { method: spec.method, headers, body: spec.body ?? spec.bodies?.[0] });
        writeFileSync(path.join(saveDir, `${target.name}.answer`), await answer.text());
      }
      const share = ((100 * stats.perSecond) / bare.perSecond).toFixed(1);
      console.log(`\n## ${target.name}: ${stats.perSecond.toFixed(0)} calls/s (${share}% of the floor's ${bare.perSecond.toFixed(0)}), p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms (${spec.concurrency} callers)`);
      console.log(summarise(profile, stats.n).join("\n"));
    }
    session.close();
    await floorServer.stop();
  } finally {
    child.kill("SIGTERM");
    if (child.exitCode === null) await once(child, "exit");
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

await main();
