import type { ChildProcess } from "node:child_process";

export interface FollowedChild {
  /** every line the child printed (stdout and stderr), in order */
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** the first line matching `pattern` from line `from` on, as soon as it is printed; throws if the child exits first */
  line(pattern: RegExp, from?: number): Promise<RegExpMatchArray>;
}

/** Follows a spawned process's output by lines, for tests that wait on what a server prints. */
export function followLines(child: ChildProcess, name: string): FollowedChild {
  const lines: string[] = [];
  const waiters: Array<() => void> = [];
  const wakeAll = () => {
    for (const wake of waiters.splice(0)) wake();
  };
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = "";
    stream.setEncoding("utf8").on("data", (chunk: string) => {
      const parts = (rest + chunk).split("\n");
      rest = parts.pop()!;
      lines.push(...parts);
      wakeAll();
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      resolve({ code, signal });
      // a waiter for a line that will never come learns it now
      wakeAll();
    }),
  );
  const line = async (pattern: RegExp, from = 0): Promise<RegExpMatchArray> => {
    for (;;) {
      const found = lines
        .slice(from)
        .map((l) => l.match(pattern))
        .find(Boolean);
      if (found) return found;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${lines.join("\n")}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { lines, exited, line };
}
