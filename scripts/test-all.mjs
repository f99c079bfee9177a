#!/usr/bin/env node
/**
 * `npm test`: every check and test, in order, then one closing line "tests: N passed, N failed".
 * Build, typecheck, lint, vitest (unit + integration) and Playwright (e2e in Chromium).
 * With DATABASE_URL, integration tests make their own databases on that server and e2e gets a
 * fresh one made here and dropped afterwards; without it, everything runs on embedded PGlite.
 *
 * TEST_SCOPE=engine (CI's fresh-machine half, docs/decisions/036) runs the build, typecheck, lint and
 * unit tests whole, but only the integration files whose subject is the database engine (those
 * whose header says "@engines") and the e2e specs of FRESH_E2E: CI's other half runs every file on
 * PostgreSQL, so each integration file runs on one engine unless the engine is what it tests.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import { createInterface } from "node:readline";
import postgres from "postgres";

mkdirSync(".tmp", { recursive: true });
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { stdio: "inherit", env: { ...process.env, ...env } }).status ?? 1;
const step = (name, status) => {
  console.log(`\n== ${name}: ${status === 0 ? "ok" : "FAILED"}`);
  return status === 0;
};

let passed = 0;
let failed = 0;
let ok = true;

// the whole build, as `npm start` makes it: the Remix app and the bundles beside it (the export thread's)
ok = step("build", run("npm", ["run", "build"])) && ok;
ok = step("typecheck", run("npx", ["tsc", "--noEmit"])) && ok;
ok = step("lint", run("npx", ["eslint", ".", "--max-warnings=0"])) && ok;

const scoped = process.env.TEST_SCOPE === "engine";
if (process.env.TEST_SCOPE && !scoped) throw new Error(`TEST_SCOPE is "engine" or unset, not "${process.env.TEST_SCOPE}"`);
// the specs that prove the product end to end on a machine with Node alone: sign-in, entry, printing (the bundled Chromium), finance import
const FRESH_E2E = ["tests/e2e/foundation.spec.ts", "tests/e2e/consignment.spec.ts", "tests/e2e/printing.spec.ts", "tests/e2e/finance-import.spec.ts"];
const engineFiles = scoped
  ? readdirSync("tests/integration")
      .filter((f) => f.endsWith(".test.ts") && readFileSync(`tests/integration/${f}`, "utf8").slice(0, 2000).includes("@engines"))
      .map((f) => `tests/integration/${f}`)
  : [];
if (scoped) console.log(`TEST_SCOPE=engine: unit tests, the integration files about the engine (${engineFiles.length}) and ${FRESH_E2E.length} e2e specs`);

rmSync(".tmp/vitest.json", { force: true });
const vitest = run("npx", ["vitest", "run", "--reporter=default", "--reporter=json", "--outputFile=.tmp/vitest.json", ...(scoped ? ["app/", "queues/", "tests/unit/", ...engineFiles] : [])]);
if (existsSync(".tmp/vitest.json")) {
  const report = JSON.parse(readFileSync(".tmp/vitest.json", "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests + (report.numTotalTestSuites && report.success === false && report.numFailedTests === 0 ? 1 : 0);
} else failed += 1;
ok = step("unit and integration tests (vitest)", vitest) && ok;

// e2e: the specs split into shards run side by side, each with its own server on its own port and
// its own fresh database (so no shard sees another's data); one at a time, a spec's server and
// browser left a core idle for most of the run (docs/decisions/036)
const shards = Number(process.env.E2E_SHARDS ?? (scoped ? 1 : Math.min(2, os.availableParallelism())));
// the specs dealt to the shards by their measured seconds (scripts/e2e-seconds.json; a spec not
// yet measured counts as the median), the longest first to the shard with least: Playwright's
// --shard deals by count, and the three accessibility specs, a third of the time, fell in one
// shard (8.3 minutes against 5.3 on 2026-11-30). A stale figure costs time, never a test.
function dealSpecs(count) {
  const seconds = JSON.parse(readFileSync("scripts/e2e-seconds.json", "utf8"));
  const known = Object.values(seconds).sort((a, b) => a - b);
  const median = known[Math.floor(known.length / 2)] ?? 10;
  const specs = readdirSync("tests/e2e")
    .filter((f) => f.endsWith(".spec.ts"))
    .map((f) => ({ file: `tests/e2e/${f}`, s: seconds[f] ?? median }))
    .sort((a, b) => b.s - a.s || a.file.localeCompare(b.file));
  const dealt = Array.from({ length: count }, () => ({ s: 0, files: [] }));
  for (const spec of specs) {
    const least = dealt.reduce((a, b) => (b.s < a.s ? b : a));
    least.s += spec.s;
    least.files.push(spec.file);
  }
  return dealt.map((d) => d.files.sort());
}
const dealtSpecs = scoped ? null : dealSpecs(shards);
const basePort = Number(process.env.E2E_PORT ?? 3210);
async function e2eShard(index) {
  const tag = `${Date.now().toString(36)}_${randomBytes(3).toString("hex")}`;
  let env;
  let drop;
  if (process.env.DATABASE_URL) {
    const name = `fd_e2e_${tag}`;
    const admin = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    env = { E2E_DATABASE_URL: url.toString() };
    drop = async () => {
      const again = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
      await again.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    };
  } else {
    const dir = `.tmp/e2e-pglite-${tag}`;
    env = { E2E_PGLITE_DIR: dir };
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const report = shards > 1 ? `.tmp/playwright-${index}.json` : ".tmp/playwright.json";
  rmSync(report, { force: true });
  const args = ["playwright", "test", ...(scoped ? FRESH_E2E : dealtSpecs[index - 1])];
  // each shard's port ten apart: CI's fresh-machine half holds E2E_PORT + 1
  env = { ...env, E2E_PORT: String(basePort + (index - 1) * 10), E2E_REPORT: report, E2E_OUTPUT: shards > 1 ? `test-results/shard-${index}` : "test-results" };
  const status = await new Promise((resolve) => {
    const child = spawn("npx", args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    // every line says which shard wrote it, as the two run at once
    const prefix = shards > 1 ? `[e2e ${index}/${shards}] ` : "";
    for (const [from, to] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) createInterface({ input: from }).on("line", (line) => to.write(`${prefix}${line}\n`));
    child.on("close", (code) => resolve(code ?? 1));
  });
  await drop();
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, "utf8"));
    passed += r.stats.expected;
    failed += r.stats.unexpected + r.stats.flaky;
  } else failed += 1;
  return status;
}
const e2e = (await Promise.all(Array.from({ length: shards }, (_, i) => e2eShard(i + 1)))).some((s) => s !== 0) ? 1 : 0;
ok = step("end-to-end tests (Playwright, Chromium)", e2e) && ok;

if (!ok && failed === 0) failed = 1; // a failed build, typecheck or lint counts
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exit(ok && failed === 0 ? 0 : 1);
