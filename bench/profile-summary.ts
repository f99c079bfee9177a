/**
 * A V8 CPU profile read as the request's costs (bench/profile.ts): the self time of every sample
 * put in one category by where its function lives (a package, Node's own code, the app's build,
 * the garbage collector), and the inclusive time of the stages a request passes through (a sample
 * counts for a stage when any frame on its stack belongs to it).
 */

export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

type Frame = CpuProfile["nodes"][number]["callFrame"];

/** The package a frame's file belongs to ("react-dom", "@remix-run/router"), or a kind of code. */
export function category(frame: Frame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === "(garbage collector)") return "garbage collection";
    if (functionName === "(idle)") return "idle";
    if (functionName === "(program)") return "V8 and native (program)";
    return `native: ${functionName || "(anonymous)"}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith("node:")) return `node: ${url.slice(5).split("/")[0]}`;
  if (/\/build\/index\.js$/.test(url)) return "app (Remix build)";
  if (/\/build\/server\.js$/.test(url)) return "server (build/server.js)";
  return url.replace(/^file:\/\//, "");
}

/** Stages of a request, each matched against every frame on a sample's stack. */
const STAGES: Array<[string, (f: Frame) => boolean]> = [
  ["Express middleware chain (all of it, to Remix)", (f) => /node_modules\/express\//.test(f.url)],
  ["helmet (security headers)", (f) => /node_modules\/helmet\//.test(f.url)],
  ["compression", (f) => /node_modules\/compression\//.test(f.url)],
  ["rate limiters", (f) => /express-rate-limit|sign-in-limits|tracking-limits/.test(f.url) || /Limiter/.test(f.functionName)],
  ["Remix request handler", (f) => /node_modules\/@remix-run\/server-runtime\//.test(f.url)],
  ["Remix route matching", (f) => /matchRoutes|matchRouteBranch|flattenRoutes|rankRouteBranches/.test(f.functionName)],
  ["React rendering", (f) => /node_modules\/react-dom\//.test(f.url)],
  ["PostgreSQL driver", (f) => /node_modules\/postgres\//.test(f.url)],
  ["drizzle (query building, mapping)", (f) => /node_modules\/drizzle-orm\//.test(f.url)],
  ["zod", (f) => /node_modules\/zod\//.test(f.url)],
  ["JSON", (f) => /^(stringify|parse)$/.test(f.functionName) && !f.url],
  ["session and user lookup", (f) => /currentUser|requireUser|loadSession|getSession|sessionUser|authenticate/i.test(f.functionName)],
  ["fetch API (Request, Headers, streams)", (f) => /node_modules\/undici|node:internal\/deps\/undici|webstreams/.test(f.url)],
  ["garbage collection", (f) => f.functionName === "(garbage collector)"],
];

function pct(part: number, whole: number) {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)}%` : "-";
}

/** Lines of text: busy time per call, the top categories by self time and the stages by inclusive time. */
export function summarise(profile: CpuProfile, calls: number, top = 14): string[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const functions = new Map<string, number>();
  const stages = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id)!;
    if (node.callFrame.functionName === "(idle)") return;
    busy += dt;
    const c = category(node.callFrame);
    self.set(c, (self.get(c) ?? 0) + dt);
    const fn = `${node.callFrame.functionName || "(anonymous)"} ${category(node.callFrame)}:${node.callFrame.lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + dt);
    const hit = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      for (const [stage, test] of STAGES) if (test(frame)) hit.add(stage);
    }
    for (const stage of hit) stages.set(stage, (stages.get(stage) ?? 0) + dt);
  });
  const wall = profile.endTime - profile.startTime;
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return [
    `busy ${(busy / 1000).toFixed(0)} ms of ${(wall / 1000).toFixed(0)} ms (${pct(busy, wall)}), ${(busy / 1000 / calls).toFixed(2)} ms of CPU per call`,
    "self time by where the code lives:",
    ...sorted(self).slice(0, top).map(([k, v]) => `  ${pct(v, busy).padStart(6)}  ${k}`),
    "hottest functions (self):",
    ...sorted(functions).slice(0, top).map(([k, v]) => `  ${pct(v, busy).padStart(6)}  ${k}`),
    "stages (inclusive):",
    ...sorted(stages).map(([k, v]) => `  ${pct(v, busy).padStart(6)}  ${k}`),
  ];
}
