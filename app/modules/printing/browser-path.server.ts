/**
 * Which Chromium prints PDFs and runs the end-to-end tests, so that `npm install && npm start`
 * prints on a machine with nothing but Node: CHROMIUM_PATH; else a browser Playwright installed
 * (`npx playwright install chromium`); else a system chromium or google-chrome; else the headless
 * Chromium inside the npm package @sparticuz/chromium, unpacked on first use.
 * FREIGHTDESK_BROWSER=bundled skips Playwright's and the system's browsers (CHROMIUM_PATH still wins).
 * The renderer and playwright.config.ts both use this module.
 */
import { execFile } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

export type BrowserSource = "CHROMIUM_PATH" | "playwright" | "system" | "bundled";

/** The bundled browser's path is known only once it is unpacked (launchOptions). */
export type BrowserChoice = { source: Exclude<BrowserSource, "bundled">; executablePath: string } | { source: "bundled"; executablePath: null };

export interface BrowserLookup {
  env: Record<string, string | undefined>;
  /** an executable regular file */
  isExecutable(file: string): boolean;
  /** where Playwright's own browsers would be */
  playwrightPaths(): string[];
}

const SYSTEM_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

export function chooseBrowser(lookup: BrowserLookup = systemLookup()): BrowserChoice {
  const { env } = lookup;
  if (env.CHROMIUM_PATH) return { source: "CHROMIUM_PATH", executablePath: env.CHROMIUM_PATH };
  const mode = env.FREIGHTDESK_BROWSER || "auto";
  if (mode !== "auto" && mode !== "bundled") throw new Error(`FREIGHTDESK_BROWSER must be "auto" or "bundled", not "${mode}"`);
  if (mode === "auto") {
    const installed = lookup.playwrightPaths().find((file) => lookup.isExecutable(file));
    if (installed) return { source: "playwright", executablePath: installed };
    const dirs = [...(env.PATH ?? "").split(path.delimiter).filter(Boolean), "/usr/bin"];
    for (const name of SYSTEM_NAMES) {
      const found = dirs.map((dir) => path.join(dir, name)).find((file) => lookup.isExecutable(file));
      if (found) return { source: "system", executablePath: found };
    }
  }
  return { source: "bundled", executablePath: null };
}

export function describeBrowser(choice: BrowserChoice): string {
  switch (choice.source) {
    case "CHROMIUM_PATH":
      return `Chromium from CHROMIUM_PATH (${choice.executablePath})`;
    case "playwright":
      return `Playwright's Chromium (${choice.executablePath})`;
    case "system":
      return `the system's Chromium (${choice.executablePath})`;
    case "bundled":
      return `the headless Chromium of @sparticuz/chromium ${bundledPackage().version} (unpacked to ${bundledDir()} on first use)`;
  }
}

export function systemLookup(): BrowserLookup {
  return {
    env: process.env,
    isExecutable(file) {
      try {
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    },
    playwrightPaths() {
      // `npx playwright install chromium` puts the full browser here and its headless shell beside
      // it (`--only-shell` installs the shell alone); the shell's folder follows the same revision
      let full: string;
      try {
        // Playwright loaded only when asked: the lookup runs at a render's start or a test's setup
        full = (require("playwright-core") as typeof import("playwright-core")).chromium.executablePath();
      } catch {
        return []; // a platform Playwright has no browsers for
      }
      const revision = /chromium-(\d+)/.exec(full)?.[1];
      const root = path.dirname(path.dirname(path.dirname(full)));
      return [full, ...(revision ? [path.join(root, `chromium_headless_shell-${revision}`, "chrome-headless-shell-linux64", "chrome-headless-shell")] : [])];
    },
  };
}

export interface LaunchTarget {
  executablePath: string;
  /** the browser's whole environment, when it needs more than the server's */
  env?: Record<string, string>;
}

/** What to launch: the bundled browser is unpacked first (once per install; a few seconds). */
export async function launchTarget(choice: BrowserChoice): Promise<LaunchTarget> {
  if (choice.source !== "bundled") return { executablePath: choice.executablePath };
  const dir = await unpackBundled();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  // its own NSS and expat (the package's Amazon Linux libraries), so a machine without Debian's
  // libnss3 still runs it; its own fonts (Open Sans) plus whatever fonts the system has
  env.LD_LIBRARY_PATH = [path.join(dir, "al2023", "lib"), process.env.LD_LIBRARY_PATH].filter(Boolean).join(":");
  env.FONTCONFIG_PATH = dir;
  return { executablePath: path.join(dir, "chromium"), env };
}

const require = createRequire(import.meta.url);
const bundledEntry = () => require.resolve("@sparticuz/chromium");
// build/index.js -> the package folder
const bundledPackage = () => JSON.parse(readFileSync(path.join(path.dirname(bundledEntry()), "..", "package.json"), "utf8")) as { version: string };
/** node_modules/.cache/freightdesk-chromium/<version>: the project's own, not a shared /tmp path */
const bundledDir = () => path.join(path.dirname(bundledEntry()), "..", "..", "..", ".cache", "freightdesk-chromium", bundledPackage().version);

let unpacking: Promise<string> | null = null;

/**
 * The package's own executablePath() unpacks into os.tmpdir() and trusts whatever /tmp/chromium
 * it finds (a half-written one, another version, another user's). It runs here in a child with
 * TMPDIR set to a fresh staging folder, which is then renamed into place: a rename is atomic, so
 * processes unpacking at once (web processes, test workers) never see a partial browser.
 */
function unpackBundled(): Promise<string> {
  unpacking ??= (async () => {
    const dir = bundledDir();
    if (existsSync(path.join(dir, "chromium"))) return dir;
    const staging = `${dir}.${process.pid}.${Date.now()}`;
    mkdirSync(staging, { recursive: true });
    const script = `const m = await import(process.argv[1]); await m.default.executablePath(); await m.inflate(process.argv[2]);`;
    const bin = path.join(path.dirname(bundledEntry()), "..", "bin");
    try {
      await new Promise<void>((resolve, reject) =>
        execFile(process.execPath, ["--input-type=module", "-e", script, bundledEntry(), path.join(bin, "al2023.tar.br")], { env: { ...process.env, TMPDIR: staging } }, (e, _out, err) =>
          e ? reject(new Error(`Could not unpack @sparticuz/chromium: ${err || e.message}`)) : resolve(),
        ),
      );
      writeFileSync(path.join(staging, "fonts.conf"), fontsConf(dir));
      try {
        renameSync(staging, dir);
      } catch (e) {
        // another process got there first: use its copy
        if (!existsSync(path.join(dir, "chromium"))) throw e;
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    return dir;
  })().catch((e: unknown) => {
    unpacking = null;
    throw e;
  });
  return unpacking;
}

const fontsConf = (dir: string) => `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>${path.join(dir, "fonts", "fonts")}</dir>
  <dir>/usr/share/fonts</dir>
  <dir>/usr/local/share/fonts</dir>
  <dir prefix="xdg">fonts</dir>
  <cachedir>${path.join(dir, "fontconfig-cache")}</cachedir>
</fontconfig>
`;
