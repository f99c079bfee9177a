import { readdir, readFile } from "node:fs/promises";

/** The Chromium processes this test process started (Playwright launches them as its children). */
export async function chromiumChildren(): Promise<number[]> {
  const pids: number[] = [];
  for (const pid of await readdir("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const cmd = await readFile(`/proc/${pid}/cmdline`, "utf8");
      if (ppid === process.pid && /chrom/.test(cmd)) pids.push(Number(pid));
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}
