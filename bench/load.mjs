// Load generator for bench/run.ts, in a process of its own so the server keeps a core to itself.
// argv: JSON { url, method, headers, bodies: [..] | body, total, concurrency }; prints latencies (ms) as JSON.
const spec = JSON.parse(process.argv[2]);
const samples = [];
let next = 0;
const started = performance.now();
await Promise.all(
  Array.from({ length: spec.concurrency }, async () => {
    while (next < spec.total) {
      const i = next++;
      const url = Array.isArray(spec.urls) ? spec.urls[i % spec.urls.length] : spec.url;
      const t = performance.now();
      const res = await fetch(url, { method: spec.method ?? "GET", headers: spec.headers, body: spec.body });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`unexpected ${res.status} from ${url}`);
      samples.push(performance.now() - t);
    }
  }),
);
process.stdout.write(JSON.stringify({ samples, wallMs: performance.now() - started }));
