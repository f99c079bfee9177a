/**
 * Bundles the export's thread (app/modules/exports/export-thread.ts) with its packages inside,
 * unlike the server's bundle: a thread starts for every export, and Node resolving drizzle-orm's
 * hundreds of ES module files through its large package.json took 640 ms of a 1.2 s start
 * (docs/decisions/044). Left outside: PGlite, which finds its WebAssembly beside its own module,
 * and exceljs, loaded only when an XLSX is asked for.
 */
import { build } from "esbuild";

await build({
  entryPoints: ["app/modules/exports/export-thread.ts"],
  outfile: "build/export-thread.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  external: ["@electric-sql/pglite", "@electric-sql/pglite/*", "exceljs"],
  // the CommonJS packages bundled in (postgres' dependencies, fast-csv) call require
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
  logLevel: "warning",
});
