import { useRevalidator, useSearchParams } from "@remix-run/react";
import { JobProgress } from "../JobProgress";

/**
 * What POST /invoices/allocate came back with (app/routes/_app+/_finance+/invoices_.allocate.tsx):
 * the allocation job's progress (?allocation_job=) or why nothing was queued (?allocation_error=).
 * The payable list and the invoice page both post there.
 */
export function AllocationOutcome() {
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const job = params.get("allocation_job");
  const error = params.get("allocation_error");
  if (error) return <p role="alert" className="rounded border border-red-300 bg-red-50 p-2 text-red-800" data-testid="allocation-error">{error}</p>;
  return job ? <JobProgress jobId={job} onDone={() => revalidator.revalidate()} /> : null;
}
