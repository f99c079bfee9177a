import { useRevalidator } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import { FormErrors } from "~/components/Field";
import { JobProgress, type JobStatusJson } from "~/components/JobProgress";
import { CLOSING_TIME_PASSED } from "~/modules/bookings/rules";

/**
 * A booking job as the bookings screens show it (?job= after Book or Rebook): its progress while
 * it runs (the page reloads itself without JavaScript), then its closing message and each refusal;
 * the closing-time warning when the pickup moved (?moved=1); and the screen's own alerts first.
 */
export function BookingJob({ job, moved, alerts }: { job: { id: string; status: JobStatusJson } | null; moved: boolean; alerts: Alert[] }) {
  const revalidator = useRevalidator();
  const running = job && (job.status.status === "queued" || job.status.status === "working");
  const shown: Alert[] = [
    ...alerts,
    ...(moved ? [{ type: "warning" as const, message: CLOSING_TIME_PASSED }] : []),
    ...(job && !running ? [{ type: job.status.status === "failed" ? ("error" as const) : ("success" as const), message: job.status.message ?? "" }] : []),
  ];
  const refusals = job && job.status.status === "failed" ? job.status.errors.filter((e) => e !== job.status.message) : [];
  return (
    <>
      <Alerts alerts={shown} />
      {running ? (
        <>
          <noscript>
            <meta httpEquiv="refresh" content="3" />
          </noscript>
          <JobProgress jobId={job.id} initial={job.status} onDone={() => revalidator.revalidate()} />
        </>
      ) : null}
      {refusals.length ? <FormErrors errors={refusals} /> : null}
    </>
  );
}

/** Whether a booking job is still queued or working (its screen holds back Rebook meanwhile). */
export const jobRunning = (job: { status: JobStatusJson } | null) => Boolean(job && (job.status.status === "queued" || job.status.status === "working"));
