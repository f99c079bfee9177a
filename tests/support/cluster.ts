/**
 * The cluster test's hosts (tests/integration/cluster.test.ts): each process of its own from the
 * build, as `npm run web` and `npm run worker` start it, in a working directory and a temporary
 * directory of its own (as on separate machines), so that nothing one writes there can be read by
 * another. What the processes share is the database alone.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { followLines } from "./child-lines";

const root = path.resolve(import.meta.dirname, "../..");

/** One machine: its directories, and the old *_DIR settings pointing into its own temporary directory. */
export interface Host {
  name: string;
  cwd: string;
  tmp: string;
  env: Record<string, string>;
}

export function makeHost(name: string): Host {
  const dir = mkdtempSync(path.join(os.tmpdir(), `fd-cluster-${name}-`));
  const cwd = path.join(dir, "cwd");
  const tmp = path.join(dir, "tmp");
  mkdirSync(cwd);
  mkdirSync(tmp);
  const env = {
    TMPDIR: tmp,
    INVOICE_FILES_DIR: path.join(tmp, "invoice-files"),
    EXPORTS_DIR: path.join(tmp, "exports"),
    BULK_UPLOADS_DIR: path.join(tmp, "bulk-uploads"),
  };
  return { name, cwd, tmp, env };
}

export const removeHost = (host: Host) => rmSync(path.dirname(host.cwd), { recursive: true, force: true });

/** Every file under `dir` (relative paths), none when it does not exist. */
export function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  } catch {
    return [];
  }
}

/**
 * What `npm run <name>` runs, read from package.json: its VAR=value settings and the node command,
 * so the test starts exactly that (without npm between the test and the process's signals).
 */
export function npmScript(name: "web" | "worker"): { env: Record<string, string>; script: string } {
  const scripts = (JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
  const words = scripts[name]!.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (/^[A-Z_]+=/.test(words[0]!)) {
    const [key, ...value] = words.shift()!.split("=");
    env[key!] = value.join("=");
  }
  if (words[0] !== "node" || words.length !== 2) throw new Error(`npm run ${name} is not "node <file>": ${scripts[name]}`);
  return { env, script: path.join(root, words[1]!) };
}

export interface ClusterProcess {
  host: Host;
  child: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** the first line matching `pattern` (from line `from` on), waiting for it to be printed */
  line(pattern: RegExp, from?: number): Promise<RegExpMatchArray>;
}

/** `npm run <name>` on `host` with `env` (DATABASE_URL and the like) besides the script's own. */
export function startOn(host: Host, name: "web" | "worker", env: Record<string, string>): ClusterProcess {
  const { env: scriptEnv, script } = npmScript(name);
  // the test's own environment minus anything that would point a process at another's files
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/(^TMPDIR$|_DIR$|^PORT$|^RUN_WORKER$|^WEB_CONCURRENCY$)/.test(k)));
  const child = spawn(process.execPath, [script], {
    cwd: host.cwd,
    env: { ...inherited, ...host.env, ...scriptEnv, ...env } as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return { host, child, ...followLines(child, host.name) };
}

/** Polls `probe` until it answers something truthy (a guard against hanging, not a timed assertion). */
export async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, tries = 1200, everyMs = 100): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const got = await probe();
    if (got) return got;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`never happened: ${what}`);
}
