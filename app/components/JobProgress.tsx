import { useEffect, useState } from "react";
import { apiFetch } from "~/utils/api-client";

export interface JobStatusJson {
  status: "queued" | "working" | "complete" | "completed" | "failed";
  pct_complete: number;
  message: string | null;
  errors: string[];
  /** a despatch job's number of consignments */
  total?: number | null;
}

/** What a job shows instead of its generic label while queued or working (a despatch: its title and count). */
export type RunningLabel = (job: JobStatusJson) => { title: string; label: string } | null;

export const JOB_POLL_MS = 3000;
export const JOB_CLEAR_MS = 3000;

/** The label of a job status (spec 3 section 4). */
export function jobLabel(job: JobStatusJson): string {
  if (job.status === "queued") return "Please wait...";
  if (job.status === "working") return job.message || "Working...";
  if (job.status === "failed") return job.errors.length ? job.errors.join(" ") : job.message || "The job failed.";
  return job.message || "Done.";
}

/**
 * Progress of a background job: polls GET /api/job_status/{id} every 3 s, and clears 3 s
 * after completion; a failure stays as an error. Server-rendered with the initial status,
 * so without JavaScript a reload shows the latest state.
 */
export function JobProgress({ jobId, initial, onDone, running }: { jobId: string; initial?: JobStatusJson; onDone?: (job: JobStatusJson) => void; running?: RunningLabel }) {
  const [job, setJob] = useState<JobStatusJson | undefined>(initial);
  const [cleared, setCleared] = useState(false);

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    async function poll() {
      const res = await apiFetch<JobStatusJson>(`/api/job_status/${jobId}`);
      if (stopped) return;
      if (!res.ok) {
        setJob({ status: "failed", pct_complete: 0, message: `Could not read the job status: ${res.message}`, errors: [] });
        return;
      }
      const next = res.data;
      setJob(next);
      if (next.status === "complete" || next.status === "completed") {
        onDone?.(next);
        timer = setTimeout(() => setCleared(true), JOB_CLEAR_MS);
      } else if (next.status === "failed") {
        onDone?.(next);
      } else {
        timer = setTimeout(poll, JOB_POLL_MS);
      }
    }
    timer = setTimeout(poll, initial ? JOB_POLL_MS : 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // restart only for another job
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [jobId]);

  if (cleared || !job) return null;
  const failed = job.status === "failed";
  const shown = running?.(job);
  return (
    <div
      role={failed ? "alert" : "status"}
      data-job-status={job.status}
      className={`rounded border px-3 py-2 text-sm ${failed ? "border-red-300 bg-red-50 text-red-900" : "border-sky-300 bg-sky-50 text-sky-900"}`}
    >
      <div className="flex items-center justify-between gap-3">
        <span>{shown ? shown.title : jobLabel(job)}</span>
        {!failed && <span className="tabular-nums">{shown ? shown.label : `${job.pct_complete}%`}</span>}
      </div>
      {!failed && (
        <progress className="mt-1 h-1.5 w-full accent-sky-600" max={100} value={job.pct_complete} aria-label="Progress" />
      )}
    </div>
  );
}
