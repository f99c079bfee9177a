import { defineConfig, devices } from "@playwright/test";
import { chooseBrowser, describeBrowser, launchTarget } from "./app/modules/printing/browser-path.server";

const port = Number(process.env.E2E_PORT ?? 3210);
// the browser the server prints with (CHROMIUM_PATH, Playwright's, the system's, else the bundled one)
const browser = chooseBrowser();
const target = await launchTarget(browser);
// the config is loaded again in each worker: say it once
if (!process.env.TEST_WORKER_INDEX) console.log(`End-to-end tests in ${describeBrowser(browser)}`);

/**
 * End-to-end tests in Chromium against the real server. `npm test` (scripts/test-all.mjs)
 * builds the app and gives the server a fresh database (E2E_DATABASE_URL or a new PGlite folder).
 */
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // CI runs the fresh-machine half and the PostgreSQL half side by side on two cores: a test whose
  // steps each passed in time (sign in, rate, save, print) once summed to 31 s against 30 s
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: process.env.E2E_REPORT ?? ".tmp/playwright.json" }]],
  // a shard of `npm test` keeps its traces apart from the other shard's (Playwright empties this folder as it starts)
  outputDir: process.env.E2E_OUTPUT ?? "test-results",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      ...target,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  webServer: {
    command: "npx tsx server.ts",
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    // a cold start migrates and seeds a fresh database; on a busy 2-core machine that took over 120 s
    timeout: 300_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      NODE_ENV: "production",
      SEED_DEMO: "1",
      // e2e signs in many times from one address
      SIGNIN_RATE_LIMIT: "10000",
      ...(process.env.E2E_DATABASE_URL
        ? { DATABASE_URL: process.env.E2E_DATABASE_URL }
        : { DATABASE_URL: "", PGLITE_DIR: process.env.E2E_PGLITE_DIR ?? ".tmp/e2e-pglite" }),
    },
  },
});
