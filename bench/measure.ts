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
}

export function stats(samples: number[], wallMs: number): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return { n: samples.length, p50: at(0.5), p95: at(0.95), max: sorted.at(-1)!, perSecond: (samples.length / wallMs) * 1000 };
}

/**
 * Runs `total` HTTP calls with `concurrency` callers from a separate process (bench/load.mjs),
 * so the server in this process keeps a core of its own.
 */
export async function loadFrom(spec: { url?: string; urls?: string[]; method?: string; headers?: Record<string, string>; body?: string; total: number; concurrency: number; expect?: [number, number] }): Promise<Stats> {
  // asynchronous: a synchronous child would stop this process, and the server in it, from answering
  const { stdout } = await execFileAsync(process.execPath, [path.join(import.meta.dirname, "load.mjs"), JSON.stringify(spec)], { maxBuffer: 64 * 1024 * 1024 });
  const { samples, wallMs } = JSON.parse(stdout) as { samples: number[]; wallMs: number };
  return stats(samples, wallMs);
}

/** Three runs, and the one with the median p95: the host's speed drifts within minutes. */
export async function medianOfThree(run: () => Promise<Stats>): Promise<{ median: Stats; runs: Stats[] }> {
  const runs = [await run(), await run(), await run()];
  return { median: [...runs].sort((a, b) => a.p95 - b.p95)[1]!, runs };
}
