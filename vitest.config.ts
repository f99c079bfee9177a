import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    globals: true,
    include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "queues/**/*.test.ts"],
    // each integration file starts its own server and database; two cores, so two at a time
    maxWorkers: 2,
    // one migrated database per run, copied by each file (tests/support/global-setup.ts)
    globalSetup: ["tests/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
