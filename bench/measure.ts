/** Latency statistics and the load generator the bench's scripts share. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

export interface Stats {
  n: number;
  p50: number;
  p95: number;
  max: number;
  perSecond: number;
  /** concurrent callers, when the figure is a request's over HTTP: its share of the floor is read at the same count */
  callers?: number;
}

// the floor (bench/floor.ts) at each number of callers, measured once at the start of the run
const floors = new Map<number, Stats>();

/** The floor at `callers` concurrent callers: every later row with as many callers is read against it. */
export function setFloor(callers: number, floor: Stats) {
  floors.set(callers, floor);
}

/** A row's calls/s as a percentage of the floor's at the same callers; undefined without one. */
export function floorPercent(s: Stats): number | undefined {
  const floor = s.callers === undefined ? undefined : floors.get(s.callers);
  return floor && floor.perSecond > 0 ? (100 * s.perSecond) / floor.perSecond : undefined;
}

/** floorPercent as the tables show it ("38%", "7.5%"), or "–" without a floor. */
export function floorShare(s: Stats): string {
  const share = floorPercent(s);
  if (share === undefined) return "–";
  return `${share < 10 ? share.toFixed(1) : share.toFixed(0)}%`;
}

/** The head of every table of rows (tableRows): what, calls, p50, p95, max, calls/s and the share of the floor. */
export const TABLE_HEAD = ["| what | calls | p50 | p95 | max | calls/s | share of floor |", "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"];

export function stats(samples: number[], wallMs: number): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { n: samples.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1)!, perSecond: (samples.length / wallMs) * 1000 };
}

/**
 * Runs `total` HTTP calls with `concurrency` callers from a separate process (bench/load.mjs),
 * so the server in this process keeps a core of its own.
 */
export async function loadFrom(spec: { url?: string; urls?: string[]; method?: string; headers?: Record<string, string>; body?: string; bodies?: string[]; total: number; concurrency: number; expect?: [number, number] }): Promise<Stats> {
  // asynchronous: a synchronous child would stop this process, and the server in it, from answering
  const { stdout } = await execFileAsync(process.execPath, [path.join(import.meta.dirname, "load.mjs"), JSON.stringify(spec)], { maxBuffer: 64 * 1024 * 1024 });
  const { samples, wallMs } = JSON.parse(stdout) as { samples: number[]; wallMs: number };
  return { ...stats(samples, wallMs), callers: spec.concurrency };
}

/** Three runs, and the one with the median p95: the host's speed drifts within minutes. */
export async function medianOfThree(run: () => Promise<Stats>): Promise<{ median: Stats; runs: Stats[] }> {
  const runs = [await run(), await run(), await run()];
  return { median: [...runs].sort((a, b) => a.p95 - b.p95)[1]!, runs };
}

/** Latencies of `n` runs of a synchronous or asynchronous function, in process. */
export async function inProcess(n: number, fn: (i: number) => unknown): Promise<Stats> {
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn(i);
    samples.push(performance.now() - t);
  }
  return stats(samples, performance.now() - started);
}

/** Runs `total` calls with `concurrency` callers in this process; returns each call's latency in ms. */
export async function load(total: number, concurrency: number, call: () => Promise<Response>): Promise<Stats> {
  const samples: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t = performance.now();
        const res = await call();
        await res.arrayBuffer();
        if (!res.ok && res.status !== 302) throw new Error(`unexpected ${res.status}`);
        samples.push(performance.now() - t);
      }
    }),
  );
  // no `callers`: these callers share the server's process, the floor's do not, so no share is claimed
  return stats(samples, performance.now() - started);
}

/** docs/performance.md's table rows (under TABLE_HEAD): what, calls, p50, p95, max, calls/s, share of the floor (latencies to `digits` decimals). */
export function tableRows(rows: Array<[string, Stats]>, digits = 1): string[] {
  return rows.map(([name, s]) => `| ${name} | ${s.n} | ${s.p50.toFixed(digits)} | ${s.p95.toFixed(digits)} | ${s.max.toFixed(1)} | ${s.perSecond.toFixed(0)} | ${floorShare(s)} |`);
}
