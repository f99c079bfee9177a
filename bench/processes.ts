/**
 * The server as `npm start` runs it (build/server.js) with one and with two web processes, over
 * the bench's own database: the 20-caller rate shop and the consignment list page.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { freePort } from "../tests/support/server";
import { loadFrom, tableRows, type Stats, TABLE_HEAD } from "./measure";

const root = path.resolve(import.meta.dirname, "..");

/** build/server.js with `processes` web processes; resolves once every one listens. */
export async function startBuiltServer(databaseUrl: string, processes: number, env: Record<string, string> = {}): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, "build/server.js")], {
    cwd: root,
    // no job worker and no demo seeding: the bench's database is already filled
    env: { ...process.env, DATABASE_URL: databaseUrl, WEB_CONCURRENCY: String(processes), PORT: String(port), NODE_ENV: "production", RUN_WORKER: "0", SEED_DEMO: "0", ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  await new Promise<void>((resolve, reject) => {
    let out = "";
    child.stdout!.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
      if (/^FreightDesk listening on /m.test(out)) resolve();
    });
    void exited.then((code) => reject(new Error(`build/server.js exited (${code}) before listening:\n${out}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

export interface WebProcessesRun {
  processes: number;
  rateShop: Stats;
  rateShopRuns: Stats[];
  list1: Stats;
  list10: Stats;
  /** the machine's 1-minute load average as the measures began: other work sharing the cores */
  loadAverage: number;
}

/**
 * Two servers at once, one with 1 web process and one with 2, each warmed (V8 on every process:
 * 6,000 rate shops). Then the runs alternate between them, so that a change in the host's speed
 * during the bench (it shares its cores) falls on both alike: the rate shop with 20 callers three
 * times (the median), the list page with 1 and with 10 callers.
 */
export async function benchWebProcesses(databaseUrl: string, spec: { cookie: string; ratingBody: string; listPath: string }): Promise<WebProcessesRun[]> {
  const loadAverage = os.loadavg()[0]!;
  const servers = [await startBuiltServer(databaseUrl, 1), await startBuiltServer(databaseUrl, 2)] as const;
  try {
    const headers = { cookie: spec.cookie, accept: "application/json", "accept-encoding": "identity", "content-type": "application/json" };
    const rateShops = (url: string, total: number) => loadFrom({ url: `${url}/api/carrier_selection`, method: "POST", headers, body: spec.ratingBody, total, concurrency: 20 });
    const list = (url: string, total: number, concurrency: number) => loadFrom({ url: `${url}${spec.listPath}`, headers: { cookie: spec.cookie, "accept-encoding": "identity" }, total, concurrency });
    for (const { url } of servers) {
      await rateShops(url, 6000);
      await list(url, 100, 10);
    }
    const rateShopRuns: [Stats[], Stats[]] = [[], []];
    for (let round = 0; round < 3; round++) for (const i of [0, 1] as const) rateShopRuns[i].push(await rateShops(servers[i].url, 2000));
    const list1 = [await list(servers[0].url, 200, 1), await list(servers[1].url, 200, 1)];
    const list10 = [await list(servers[0].url, 500, 10), await list(servers[1].url, 500, 10)];
    return ([0, 1] as const).map((i) => ({
      processes: i + 1,
      loadAverage,
      rateShop: [...rateShopRuns[i]].sort((a, b) => a.p95 - b.p95)[1]!,
      rateShopRuns: rateShopRuns[i],
      list1: list1[i]!,
      list10: list10[i]!,
    }));
  } finally {
    for (const server of servers) await server.stop();
  }
}

const plural = (n: number) => `${n} web process${n > 1 ? "es" : ""}`;

/** The "Web processes" section of docs/performance.md. */
export function webProcessesSection(webProcesses: WebProcessesRun[] | null): string[] {
  return [
    "## Web processes",
    "",
    "The server as `npm start` runs it (build/server.js: a cluster primary and WEB_CONCURRENCY web processes sharing the port),",
    "over the database above (100,000 consignments): two such servers, one with 1 web process and one with 2, each",
    "warmed by 6,000 rate shops first, then measured in turn (the three rate shop runs alternate between them, so a",
    "change in the host's speed falls on both). The callers run in one more Node process (bench/load.mjs).",
    "",
    ...(webProcesses
      ? [
          ...TABLE_HEAD,
          ...webProcesses.flatMap((w) =>
            tableRows([
              [`POST /api/carrier_selection, 20 callers (separate process), ${plural(w.processes)}: the median of three runs`, w.rateShop],
              [`GET /consignments/metadata/today (100,000 consignments), 1 caller (separate process), ${plural(w.processes)}`, w.list1],
              [`GET /consignments/metadata/today (100,000 consignments), 10 callers (separate process), ${plural(w.processes)}`, w.list10],
            ]),
          ),
          "",
          ...webProcesses.map((w) => `- rate shop p95 of the three runs, ${plural(w.processes)}: ${w.rateShopRuns.map((r) => r.p95.toFixed(1)).join(", ")} ms`),
          "",
          `- load average (1 minute) of the machine as these measures began: ${webProcesses[0]!.loadAverage.toFixed(2)}`,
          "",
          "Two cores hold the web processes, the callers' process and PostgreSQL together: a second web process",
          "can only use what the first leaves idle, and a load average above 2 means other work shared the cores.",
        ]
      : ["Not measured in this run: several web processes need PostgreSQL (DATABASE_URL), and it used embedded PGlite."]),
    "",
  ];
}
