/**
 * `npx tsx bench/forgot-password.ts` (after `npx remix build`): the median answer time of
 * POST /users/forgot_password for a known and an unknown address, 40 each, interleaved
 * (issue 12 finding 9 measured 13.8 ms against 8.2 ms). Uses DATABASE_URL when set, else PGlite.
 */
import { seedDemo } from "../db/seed/demo";
import { startTestServer } from "../tests/support/server";

const RUNS = 40;
const server = await startTestServer();
try {
  await seedDemo(server.db);
  const time = async (email: string) => {
    const start = performance.now();
    const res = await fetch(`${server.url}/users/forgot_password`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email }) });
    await res.text();
    return performance.now() - start;
  };
  // warm up both paths
  for (let i = 0; i < 5; i++) {
    await time("admin@example.com");
    await time("ghost@example.com");
  }
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    known.push(await time("admin@example.com"));
    unknown.push(await time(`ghost${i}@example.com`));
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`forgot password, median of ${RUNS}: known ${median(known).toFixed(1)} ms, unknown ${median(unknown).toFixed(1)} ms`);
} finally {
  await server.close();
}
