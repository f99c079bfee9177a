// Load generator for bench/run.ts, in a process of its own so the server keeps a core to itself.
// argv: JSON { url | urls, method, headers, body | bodies, total, concurrency, expect? }; prints latencies (ms) as JSON.
// node:http with keep-alive rather than fetch: fetch costs the caller several times the CPU, and
// on two cores the caller's CPU is taken from the server being measured.
import http from "node:http";

const spec = JSON.parse(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency });
const expected = spec.expect ?? [200, 299];

function call(url, body) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: spec.method ?? "GET", headers: spec.headers, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

const samples = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: spec.concurrency }, async () => {
    while (next < spec.total) {
      const i = next++;
      const url = Array.isArray(spec.urls) ? spec.urls[i % spec.urls.length] : spec.url;
      // several bodies are taken in turn, like several urls
      const body = Array.isArray(spec.bodies) ? spec.bodies[i % spec.bodies.length] : spec.body;
      const t = performance.now();
      const status = await call(url, body);
      if (status < expected[0] || status > expected[1]) throw new Error(`unexpected ${status} from ${url}`);
      samples.push(performance.now() - t);
    }
  }),
);
agent.destroy();
process.stdout.write(JSON.stringify({ samples, wallMs: performance.now() - started }));
