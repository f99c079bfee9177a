/**
 * The app in a child process, for tests of requests that could stop the server: an endless loop
 * in the app would also stop a server running inside the test's own process, and with it the
 * timer meant to fail the test. Here the test's fetch gives up on its own timeout and `close`
 * kills the child if it no longer answers SIGTERM.
 */
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface ServerProcess {
  url: string;
  /** the demo customer's Carton item type */
  cartonTypeId: number;
  close(): Promise<void>;
}

export async function startServerProcess(): Promise<ServerProcess> {
  const child = spawn(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "tests/support/serve-child.ts")], { cwd: root, env: process.env, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = await new Promise<{ url: string; cartonTypeId: number }>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const m = /READY (\{.*\})\n/.exec(out);
      if (m) resolve(JSON.parse(m[1]!) as { url: string; cartonTypeId: number });
    });
    void exited.then(() => reject(new Error(`the server process exited before it was ready: ${out}`)));
  });
  return {
    ...ready,
    async close() {
      child.kill("SIGTERM");
      // a child stuck in a loop never handles SIGTERM
      const hung = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(hung);
    },
  };
}
