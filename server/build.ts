import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";

/** What app/entry.server.tsx exports besides Remix's handler: the services and their factories. */
export type AppEntry = typeof import("../app/entry.server");

/**
 * The Remix build and its entry module. Code outside the build (server, worker, test server,
 * bench) takes the app's modules from here rather than importing them, so that each module exists
 * once in the process (docs/decisions/010-one-build-several-processes.md).
 */
export async function loadBuild(root: string): Promise<{ build: ServerBuild; entry: AppEntry }> {
  const buildPath = path.join(root, "build/index.js");
  if (!existsSync(buildPath)) throw new Error("No Remix build: run `npm run build` first.");
  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  return { build, entry: build.entry.module as unknown as AppEntry };
}
