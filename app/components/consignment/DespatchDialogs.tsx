import { Form, Link, useRevalidator } from "@remix-run/react";
import { useState } from "react";
import { JobProgress, type JobStatusJson } from "~/components/JobProgress";
import { localTime } from "~/modules/calendar/site-time";
import { despatchRunning } from "~/modules/despatch/progress";

/**
 * The redespatch modal (spec 1 section 2): the consignment number, when its manifest last went
 * to the carrier, and a warning; Cancel goes back, Redespatch posts. Opened by ?redespatch=1 so
 * it works before JavaScript loads.
 */
export function RedespatchDialog({ path, ...last }: { path: string } & LastDespatchProps) {
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40" role="dialog" aria-modal="true" aria-labelledby="redespatch-title">
      <Form method="post" action={path} className="card w-full max-w-md space-y-3" replace>
        <h2 id="redespatch-title" className="text-lg font-semibold">
          Redespatch consignment
        </h2>
        <LastDespatch {...last} />
        <p className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Redespatching sends this consignment&apos;s manifest to the carrier again. Only redespatch when the carrier has not received it, or it may be collected twice.
        </p>
        <div className="flex justify-end gap-2">
          <Link to={path} className="btn" replace>
            Cancel
          </Link>
          <button type="submit" name="intent" value="redespatch" className="btn-primary" autoFocus>
            Redespatch
          </button>
        </div>
      </Form>
    </div>
  );
}

interface LastDespatchProps {
  number: string | null;
  /** ISO instant */
  lastDespatchTime: string | null;
  /** the consignment's site: its zone and its country's date format */
  timeZone: string | null;
  country: string;
}

/** The redespatch modal's facts: the number, and when its manifest last went to the carrier. */
export function LastDespatch({ number, lastDespatchTime, timeZone, country }: LastDespatchProps) {
  return (
    <dl className="grid grid-cols-2 gap-1 text-sm">
      <dt className="text-slate-500">Consignment number</dt>
      <dd data-testid="redespatch-number">{number ?? "Pending"}</dd>
      <dt className="text-slate-500">Last despatch</dt>
      <dd data-testid="redespatch-time">{lastDespatchTime ? <time dateTime={lastDespatchTime}>{localTime(new Date(lastDespatchTime), timeZone, country)}</time> : "Never"}</dd>
    </dl>
  );
}

/** The cancel acknowledgement (cancel_confirmed): an e-mail went to the carrier; the user follows it up. */
export function AcknowledgeDialog({ title, message, path }: { title: string; message: string; path: string }) {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40" role="dialog" aria-modal="true" aria-labelledby="ack-title">
      <div className="card w-full max-w-md space-y-3">
        <h2 id="ack-title" className="text-lg font-semibold">
          {title}
        </h2>
        <p className="text-sm">{message}</p>
        <div className="flex justify-end">
          {/* OK leaves the post's answer behind (a plain link without JavaScript): hiding it alone came
              back when a later revalidation re-keyed the form and its state started open again */}
          <Link to={path} replace className="btn-primary" onClick={() => setOpen(false)}>
            OK
          </Link>
        </div>
      </div>
    </div>
  );
}

/** A despatch or redespatch queued from the screen: its progress, then the page reloads its state. */
export function DespatchProgress({ jobId, initial }: { jobId: string; initial: JobStatusJson }) {
  const revalidator = useRevalidator();
  return <JobProgress jobId={jobId} initial={initial} running={despatchRunning} onDone={() => revalidator.revalidate()} />;
}
