/**
 * The floor every request-level figure is read against (issue 32): a bare Node `http` server that
 * answers `{"ok":true}`, in a process of its own, loaded by the same caller (bench/load.mjs) with
 * the same callers, in the same run. A row's share of the floor is its calls/s over the floor's
 * at the same number of callers, so a slower machine or a busy host moves both and the share stays.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { loadFrom, setFloor, type Stats } from "./measure";

const BARE_SERVER = `
const http = require("node:http");
const body = Buffer.from('{"ok":true}');
const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
});
server.keepAliveTimeout = 65000;
server.listen(0, "127.0.0.1", () => process.stdout.write(String(server.address().port) + "\\n"));
`;

export interface FloorServer {
  url: string;
  stop(): Promise<void>;
}

export async function startFloorServer(): Promise<FloorServer> {
  const child: ChildProcess = spawn(process.execPath, ["-e", BARE_SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
  const port = Number(chunk.toString().trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error(`the floor server printed no port: ${chunk.toString()}`);
  return {
    url: `http://127.0.0.1:${port}/`,
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await once(child, "exit");
    },
  };
}

/** The callers the bench's request rows use; the floor is measured at each. */
export const FLOOR_CALLERS = [1, 5, 10, 20] as const;

/**
 * Measures the floor at each number of callers (the run with the median calls/s of three) and
 * makes it the floor every later row of this run is set against (measure.ts `setFloor`).
 */
export async function measureFloor(floor: FloorServer, callers: readonly number[] = FLOOR_CALLERS): Promise<Array<[string, Stats]>> {
  const rows: Array<[string, Stats]> = [];
  for (const concurrency of callers) {
    const total = Math.max(2000, concurrency * 400);
    await loadFrom({ url: floor.url, total: 500, concurrency }); // warm the caller and the socket pool
    const runs = [await loadFrom({ url: floor.url, total, concurrency }), await loadFrom({ url: floor.url, total, concurrency }), await loadFrom({ url: floor.url, total, concurrency })];
    const median = [...runs].sort((a, b) => a.perSecond - b.perSecond)[1]!;
    setFloor(concurrency, median);
    rows.push([`floor: a bare Node \`http\` server answering \`{"ok":true}\`, ${concurrency} caller${concurrency > 1 ? "s" : ""} (separate process)`, median]);
  }
  return rows;
}
