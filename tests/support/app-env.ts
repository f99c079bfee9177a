import path from "node:path";
import { loadBuild } from "../../server/build";

/**
 * Runs `work` with the running app's APP_ENV set, then puts it back. The app reads its settings
 * through the build's copy of the env module, whose cache is reset on each side.
 */
export async function withAppEnv<T>(value: string, work: () => Promise<T>): Promise<T> {
  const { entry } = await loadBuild(path.resolve(import.meta.dirname, "../.."));
  const before = process.env.APP_ENV;
  process.env.APP_ENV = value;
  entry.resetEnvCache();
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.APP_ENV;
    else process.env.APP_ENV = before;
    entry.resetEnvCache();
  }
}
