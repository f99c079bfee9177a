/**
 * @engines: PostgreSQL and PGlite in CI, because WEB_CONCURRENCY needs PostgreSQL; on PGlite the server says so and runs one process.
 *
 * The server as `npm start` runs it: the compiled entry (build/server.js) with several web
 * processes, and the modules taken from the Remix build, once.
 */
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import { RendererUnavailable } from "../../app/modules/printing/renderer.server";
import { JOBS } from "../../queues/definitions";
import { loadBuild } from "../../server/build";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { followLines } from "../support/child-lines";
import { freePort } from "../support/server";

const root = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

/** Compiles server.ts and queues/worker.ts as `npm run build` does, so the test runs this source. */
async function buildServerEntry() {
  await run("npm", ["run", "build:server", "--silent"], { cwd: root });
}

/** The compiled server, with its output kept line by line. */
function startServer(env: Record<string, string>) {
  const child = spawn(process.execPath, [path.join(root, "build/server.js")], {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", SEED_DEMO: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const followed = followLines(child, "server");
  return { child, lines: followed.lines, line: followed.line, exited: followed.exited.then((e) => e.code) };
}

/** One request on a connection of its own: the cluster hands each connection to the next process. */
function answeredBy(port: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: "127.0.0.1", port, path: "/api/users/current", agent: false, headers: { accept: "application/json" } }, (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 401 ? resolve(res.headers["x-web-process"] as string | undefined) : reject(new Error(`answered ${res.statusCode}`))));
      })
      .on("error", reject);
  });
}

async function answeringProcesses(port: number, calls = 10): Promise<string[]> {
  const slots = new Set<string | undefined>();
  for (let i = 0; i < calls; i++) slots.add(await answeredBy(port));
  return [...slots].map(String).sort();
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

beforeAll(buildServerEntry, 60_000);

describe("the compiled server entry", () => {
  it("bundles no module of the app: those come from the Remix build, so each exists once", () => {
    for (const file of ["build/server.js", "build/worker.js"]) {
      // esbuild heads each bundled module with a comment naming its source file
      const modules = [...readFileSync(path.join(root, file), "utf8").matchAll(/^\/\/ (\S+\.tsx?)$/gm)].map((m) => m[1]!);
      expect(modules.length).toBeGreaterThan(0);
      expect(modules.filter((m) => !/^(server\.ts|server\/[\w-]+\.ts|queues\/worker\.ts)$/.test(m))).toEqual([]);
    }
  });

  it("refuses several web processes over the embedded database, which belongs to one process", async () => {
    const server = startServer({ DATABASE_URL: "", WEB_CONCURRENCY: "2", PORT: String(await freePort()) });
    expect(await server.exited).toBe(1);
    expect(server.lines.join("\n")).toContain("WEB_CONCURRENCY=2 needs PostgreSQL (DATABASE_URL): the embedded PGlite database belongs to one process.");
    }, 90_000);
});

// several processes share one database server: PostgreSQL only
describe.skipIf(!process.env.DATABASE_URL)("two web processes (WEB_CONCURRENCY=2)", () => {
  let test: TestDatabase;
  let server: ReturnType<typeof startServer>;
  let port: number;

  beforeAll(async () => {
    test = await createTestDatabase();
    port = await freePort();
    server = startServer({ DATABASE_URL: test.database.url!, WEB_CONCURRENCY: "2", PORT: String(port), RUN_WORKER: "1" });
    // the primary loads the localities into the new database before it forks: a while on two cores
    await server.line(/^FreightDesk listening on .*2 web processes/);
  }, 240_000);

  afterAll(async () => {
    if (server?.child.exitCode === null) {
      server.child.kill("SIGKILL");
      await server.exited;
    }
    await test?.drop();
  });

  const webProcesses = () =>
    server.lines.flatMap((l) => {
      const m = l.match(/^web process (\d) \(pid (\d+)\) listening(, working the job queue)?$/);
      return m ? [{ slot: m[1]!, pid: Number(m[2]), jobs: Boolean(m[3]) }] : [];
    });

  it("answers from two processes, of which only the first works the job queue", async () => {
    const started = webProcesses();
    expect(started.map((p) => p.slot).sort()).toEqual(["1", "2"]);
    expect(new Set([server.child.pid, ...started.map((p) => p.pid)]).size).toBe(3);
    expect(started.filter((p) => p.jobs).map((p) => p.slot)).toEqual(["1"]);
    expect(await answeringProcesses(port)).toEqual(["1", "2"]);
  });

  it("replaces a web process that dies, and keeps answering", async () => {
    const victim = webProcesses().find((p) => p.slot === "2")!;
    const from = server.lines.length;
    process.kill(victim.pid, "SIGKILL");
    const [, , pid] = (await server.line(/^web process (2) \(pid (\d+)\) listening$/, from))!;
    expect(Number(pid)).not.toBe(victim.pid);
    expect(alive(victim.pid)).toBe(false);
    expect(await answeringProcesses(port)).toEqual(["1", "2"]);
  }, 90_000);

  it("stops every web process, each closing its services, then itself, on SIGTERM", async () => {
    const pids = webProcesses().map((p) => p.pid);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    // each closed its queue, renderer and database before it ended
    expect(server.lines.filter((l) => /^web process \d stopped$/.test(l)).sort()).toEqual(["web process 1 stopped", "web process 2 stopped"]);
    expect(pids.filter(alive)).toEqual([]);
  });
});

describe.skipIf(!process.env.DATABASE_URL)("the primary's preparation of the database", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it("creates every job queue before any web process starts, so that none race to create them", async () => {
    const { entry } = await loadBuild(root);
    const database = await entry.prepareDatabase({ DATABASE_URL: test.database.url, SEED_DEMO: "0" }, () => {});
    await database.close();
    const rows = (await test.database.db.execute(sql`select name from pgboss.queue`)) as unknown as Array<{ name: string }>;
    // besides pg-boss's own (__pgboss__...)
    expect([...rows].map((r) => r.name).filter((n) => !n.startsWith("__pgboss")).sort()).toEqual(Object.keys(JOBS).sort());
  }, 240_000);
});

describe("the services the build makes", () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it("throw the build's own error classes, with no brand needed to recognise them", async () => {
    const { entry } = await loadBuild(root);
    const services = await entry.createServices(test.database, { baseUrl: "http://localhost", mailFrom: "test@freightdesk.local" });
    await services.queue.stop();
    await services.renderer.close();
    const error = await services.renderer.renderPdf("<p>x</p>", { width: "10cm", height: "10cm" }).catch((e: unknown) => e);
    // the plain prototype-chain test, bypassing the brand's Symbol.hasInstance: true only for the
    // very class the build's routes compare with (app/modules/printing/documents.server.ts)
    const plainInstanceOf = (value: unknown, cls: object) => Function.prototype[Symbol.hasInstance].call(cls, value);
    expect(plainInstanceOf(error, entry.RendererUnavailable)).toBe(true);
    // the test's own import is the second copy of the module: only the brand bridges the two
    expect(plainInstanceOf(error, RendererUnavailable)).toBe(false);
    expect(error).toBeInstanceOf(RendererUnavailable);
  });
});
