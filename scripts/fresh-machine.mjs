#!/usr/bin/env node
/**
 * Proves the README's two commands on a machine with Node alone: in a clean copy of HEAD
 * (`git archive`), with the system's Chromium, Playwright's browsers, poppler, NSS and fonts
 * hidden and no DATABASE_URL (so PGlite), runs `npm install && npm test`, then
 * `npm install && npm start`, signs in, prints a label PDF, and stops the server.
 *
 * Hiding is real: as root it re-runs itself under `unshare --mount` and bind-mounts empty files and
 * folders over those paths (visible to this run only). Without root or unshare it says so and falls
 * back to FREIGHTDESK_BROWSER=bundled, which proves less.
 *
 * Env: E2E_PORT (the e2e server's port, default 3210), FRESH_PORT (npm start's port, default 3000),
 * FRESH_KEEP=1 keeps the copy, FRESH_FULL=1 runs the whole suite (by default TEST_SCOPE=engine). Exits non-zero when any step fails. `.ci/run` runs it.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const INSIDE = "FRESH_MACHINE_NAMESPACE";

if (!process.env[INSIDE] && process.getuid?.() === 0 && spawnSync("unshare", ["--mount", "true"]).status === 0) {
  const r = spawnSync("unshare", ["--mount", "--propagation", "private", process.execPath, fileURLToPath(import.meta.url)], {
    stdio: "inherit",
    env: { ...process.env, [INSIDE]: "1" },
  });
  process.exit(r.status ?? 1);
}

const started = Date.now();
const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;
const say = (line) => console.log(`\n== fresh machine: ${line}`);

// what a machine with Node alone lacks: browsers (and their libraries), poppler, fonts
const libs = ["libnss3.so", "libnssutil3.so", "libsmime3.so", "libnspr4.so", "libplc4.so", "libplds4.so", "libexpat.so.1"];
const names = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "pdftoppm"];
const pathDirs = [...new Set([...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), "/usr/bin", "/usr/local/bin"])];
const hideFiles = [...pathDirs.flatMap((d) => names.map((n) => path.join(d, n))), ...["/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu"].flatMap((d) => libs.map((l) => path.join(d, l)))];
const hideDirs = ["/usr/lib/chromium", "/opt/google", "/usr/share/fonts", process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(os.homedir(), ".cache", "ms-playwright")];

const env = { ...process.env };
for (const k of ["DATABASE_URL", "E2E_DATABASE_URL", "CHROMIUM_PATH", "FREIGHTDESK_BROWSER", "PGLITE_DIR", "E2E_PGLITE_DIR", "PLAYWRIGHT_BROWSERS_PATH", INSIDE]) delete env[k];

// the copy first: git itself may need what is hidden next
const work = mkdtempSync(path.join(os.tmpdir(), "freightdesk-fresh-"));
execFileSync("sh", ["-c", `git -C "${repo}" archive --format=tar HEAD | tar -x -C "${work}"`], { stdio: "inherit" });
say(`a clean copy of ${execFileSync("git", ["-C", repo, "rev-parse", "--short", "HEAD"]).toString().trim()} in ${work}`);

if (process.env[INSIDE]) {
  const empty = `${work}-empty`;
  mkdirSync(path.join(empty, "dir"), { recursive: true });
  writeFileSync(path.join(empty, "file"), ""); // not executable: the resolver passes it by, exec fails
  const hidden = new Set();
  for (const [list, over] of [
    [hideFiles, "file"],
    [hideDirs, "dir"],
  ])
    for (const p of list) {
      if (!existsSync(p) || statSync(p).isDirectory() !== (over === "dir")) continue;
      // /bin is /usr/bin on most systems: one mount a file
      const real = realpathSync(p);
      if (hidden.has(real)) continue;
      execFileSync("mount", ["--bind", path.join(empty, over), real]);
      hidden.add(real);
    }
  say(`hidden from this run: ${[...hidden].join(", ") || "(nothing was installed)"}`);
} else {
  env.FREIGHTDESK_BROWSER = "bundled";
  say("not root or no unshare: system browsers are NOT hidden, only skipped with FREIGHTDESK_BROWSER=bundled");
}

const run = (command, extra = {}) => spawnSync("sh", ["-c", command], { cwd: work, stdio: "inherit", env: { ...env, ...extra } }).status ?? 1;
let ok = true;
try {
  // CI's other half runs every file on PostgreSQL: here the integration files run only where the
  // engine is their subject (TEST_SCOPE=engine, docs/decisions/036); FRESH_FULL=1 runs everything
  const scope = process.env.FRESH_FULL === "1" ? {} : { TEST_SCOPE: "engine" };
  say(`npm install && npm test (no DATABASE_URL: PGlite${scope.TEST_SCOPE ? "; TEST_SCOPE=engine" : ""})`);
  const testing = Date.now();
  const tested = run("npm install && npm test", scope);
  say(`npm install && npm test: ${tested === 0 ? "passed" : "FAILED"} in ${seconds(testing)}`);
  ok = tested === 0;

  say("npm install && npm start");
  ok = (await serveAndPrint(Number(process.env.FRESH_PORT ?? 3000))) && ok;
} finally {
  if (process.env.FRESH_KEEP === "1") console.log(`kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  rmSync(`${work}-empty`, { recursive: true, force: true });
}
say(`${ok ? "passed" : "FAILED"} in ${seconds(started)}`);
process.exit(ok ? 0 : 1);

/** Starts the product as the README says, signs in, prints a label, stops it. */
async function serveAndPrint(port) {
  const base = `http://127.0.0.1:${port}`;
  let log = "";
  // its own process group, so the stop reaches npm, tsx and node
  const server = spawn("sh", ["-c", "npm install && npm start"], { cwd: work, env: { ...env, PORT: String(port) }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  for (const s of [server.stdout, server.stderr])
    s.on("data", (d) => {
      log += d;
      process.stdout.write(d);
    });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  try {
    const deadline = Date.now() + 600_000;
    for (;;) {
      const ready = await fetch(`${base}/login`).then((r) => r.status === 200, () => false);
      if (ready) break;
      if (server.exitCode !== null || Date.now() > deadline) throw new Error(`npm start did not serve ${base}/login`);
      await new Promise((r) => setTimeout(r, 1000));
    }
    console.log(`GET /login: 200`);
    const browser = /PDFs by (.*)/.exec(log)?.[1];
    console.log(`the server prints with: ${browser}`);
    if (process.env[INSIDE] && !browser?.includes("@sparticuz/chromium")) throw new Error("expected the bundled Chromium with the system's hidden");

    let cookie = "";
    const call = async (pathname, init = {}) => {
      const headers = { Accept: "application/json", "X-Requested-With": "XMLHttpRequest", cookie, ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers };
      const res = await fetch(base + pathname, { ...init, redirect: "manual", headers });
      for (const c of res.headers.getSetCookie()) cookie = [...cookie.split("; ").filter((p) => p && !p.startsWith(`${c.split("=")[0]}=`)), c.split(";")[0]].join("; ");
      return res;
    };
    const signIn = await call("/users/sign_in", { method: "POST", body: JSON.stringify({ user: { email: "despatcher@example.com", password: "Demo-password-12" } }) });
    if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}: ${await signIn.text()}`);
    // the consignment screen offers the customer's item types
    const screen = await (await call("/", { headers: { Accept: "text/html" } })).text();
    const carton = /<option value="(\d+)"[^>]*>Carton</.exec(screen)?.[1];
    if (!carton) throw new Error("no Carton item type on the consignment screen");
    const date = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
    const created = await call("/api/consignments", {
      method: "POST",
      body: JSON.stringify({
        site_code: "MEL",
        reference: "FRESH-1",
        despatch_date: date,
        sender_address: { name: "Melbourne DC", address_line_1: "120 Frankston Dandenong Road", locality: "DANDENONG SOUTH", postcode: "3175", region: "VIC" },
        receiver_address: { name: "Brisbane Hardware", address_line_1: "5 Ipswich Road", locality: "WOOLLOONGABBA", postcode: "4102", region: "QLD" },
        items: [{ quantity: 2, item_type_id: Number(carton), length: 40, width: 30, height: 30, weight_in_uom: 10 }],
      }),
    });
    const consignment = await created.json();
    if (created.status !== 201) throw new Error(`creating a consignment answered ${created.status}: ${JSON.stringify(consignment)}`);
    const pdf = await call(`/print/${consignment.id}/labels`, { method: "POST" });
    const bytes = Buffer.from(await pdf.arrayBuffer());
    const { PDFDocument } = createRequire(path.join(work, "package.json"))("pdf-lib");
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    console.log(`POST /print/${consignment.id}/labels: ${pdf.status} ${pdf.headers.get("content-type")}, ${bytes.length} bytes, ${pages} pages`);
    if (pdf.status !== 200 || bytes.subarray(0, 5).toString() !== "%PDF-" || pages !== 2) throw new Error("the labels did not print as a 2-page PDF");
    return true;
  } catch (e) {
    console.error(`FAILED: ${e instanceof Error ? e.message : e}`);
    return false;
  } finally {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {
      // already gone
    }
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    console.log(`npm start stopped (exit ${server.exitCode ?? server.signalCode})`);
  }
}
