// Peak memory sampler for bench/run.ts, in a process of its own: spawning `ps` from the server's
// process would stall its event loop. Sums the RSS of every process whose command line matches
// argv[2] (a regular expression) every 250 ms until stdin closes; prints the peak in KiB.
import { readdirSync, readFileSync } from "node:fs";

const pattern = new RegExp(process.argv[2] ?? "chrom");
let peak = 0;

function sample() {
  let kib = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      if (!pattern.test(cmd)) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      kib += Number(rss?.[1] ?? 0);
    } catch {
      // the process ended between the listing and the read
    }
  }
  peak = Math.max(peak, kib);
}

sample();
const timer = setInterval(sample, 250);
process.stdin.resume();
process.stdin.on("end", () => {
  clearInterval(timer);
  sample();
  process.stdout.write(String(peak));
});
