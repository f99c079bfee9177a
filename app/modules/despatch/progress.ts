/**
 * The despatch progress texts (spec 3: 'Despatching...', progress label 'Despatched {n} of
 * {total} Consignments'). Shared by the job that writes them and the screens that show them,
 * so this file is not server-only.
 */
export const DESPATCHING = "Despatching...";
export const progressMessage = (done: number, total: number) => `Despatched ${done} of ${total} Consignments`;

const PROGRESS = /^Despatched \d+ of \d+ Consignments$/;

/**
 * What a despatch job's progress shows while it is queued or working: 'Despatching...' over the
 * count. The count is the job's own progress message once it has one (exact), else the share
 * done of the job's total (0 before the first group is despatched). Null once the job has ended.
 */
export function despatchRunning(job: { status: string; pct_complete: number; message: string | null; total?: number | null }): { title: string; label: string } | null {
  if (job.status !== "queued" && job.status !== "working") return null;
  if (job.message && PROGRESS.test(job.message)) return { title: DESPATCHING, label: job.message };
  const total = job.total ?? 0;
  return { title: DESPATCHING, label: progressMessage(Math.round((job.pct_complete * total) / 100), total) };
}
