/** How often at most a job's progress moves while it writes in one long transaction. */
export const PROGRESS_EVERY_MS = 250;

/**
 * Progress written without waiting for it, for a job whose transaction is open meanwhile:
 * PGlite's one connection runs the write only after the transaction (PostgreSQL at once). At
 * most one write is under way and at most one every PROGRESS_EVERY_MS; `settled` waits for the
 * last, so that it cannot land after the job's own final word.
 */
export function throttled(write: (fraction: number) => Promise<void>) {
  let last = Date.now();
  let pending: Promise<void> | null = null;
  return {
    report(fraction: number) {
      const now = Date.now();
      if (pending || now - last < PROGRESS_EVERY_MS) return;
      last = now;
      pending = write(fraction)
        .catch(() => {})
        .finally(() => (pending = null));
    },
    settled: async () => {
      await pending;
    },
  };
}
