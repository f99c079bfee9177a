import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's root folder, for files shipped beside the code (migrations, seed data, the PGlite
 * folder). This module sits one folder below the root both as a source file (db/paths.ts) and
 * bundled into the Remix build (build/index.js, which the server takes its modules from), so
 * "one folder up" is right in both; a path relative to a module nested deeper would not be.
 */
export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
