import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    globals: true,
    include: ["app/**/*.test.{ts,tsx}", "tests/unit/**/*.test.ts", "tests/integration/**/*.test.ts", "queues/**/*.test.ts"],
    // each integration file starts its own server and database; two cores, so two at a time
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
