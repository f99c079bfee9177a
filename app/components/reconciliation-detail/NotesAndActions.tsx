import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { FieldError } from "~/components/Field";
import { canApply, NOTE_MAX, type ReconciliationState } from "~/modules/reconciliation/states";
import { localTime } from "~/modules/calendar/site-time";

type Note = { id: number; text: string; user_name: string | null; timestamp: string };

/**
 * The detail's notes (author and time) and its note box (max 255) with Save, Save + Accept,
 * Reset and Re Run where the state allows them, Invoice Detail and Back. One form posting to
 * the page's action: the button pressed is the intent.
 */
export function NotesAndActions({
  rec,
  noteError,
  saved,
  busy,
  invoiceDetailHref,
  back,
  clock,
}: {
  rec: { version: number; state: ReconciliationState; notes: Note[]; can_edit: boolean; can_rerun: boolean };
  noteError?: string[];
  /** the last action succeeded: the note is in the list now and the box empties */
  saved: unknown;
  busy: boolean;
  invoiceDetailHref: string;
  back: string;
  /** the reader's zone and format (their clock): an explicit zone renders the same text on the server and in the browser */
  clock: { timeZone: string; dateFormat: string };
}) {
  const noteBox = useRef<HTMLTextAreaElement>(null);
  // without JavaScript the page reloads with an empty box anyway
  useEffect(() => {
    if (saved && noteBox.current) noteBox.current.value = "";
  }, [saved]);
  const canAccept = canApply("accept", rec.state);
  const canReset = canApply("reset", rec.state);
  return (
    <section className="card space-y-3" aria-labelledby="notes-title">
      <h2 id="notes-title" className="font-semibold">
        Notes
      </h2>
      {rec.notes.length ? (
        <ul className="space-y-2 text-sm" data-testid="notes">
          {rec.notes.map((n) => (
            <li key={n.id} className="rounded border border-slate-200 px-3 py-2">
              <p>{n.text}</p>
              <p className="text-xs text-slate-500">
                {n.user_name ?? "Unknown"}, <time dateTime={n.timestamp}>{localTime(new Date(n.timestamp), clock.timeZone, clock.dateFormat)}</time>
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">No notes yet.</p>
      )}
      <Form method="post" replace preventScrollReset className="space-y-2">
        <input type="hidden" name="version" value={rec.version} />
        <div>
          <label htmlFor="note" className="label">
            Note
          </label>
          <textarea ref={noteBox} id="note" name="note" maxLength={NOTE_MAX} rows={3} className="input" disabled={!rec.can_edit} aria-invalid={noteError ? true : undefined} aria-describedby={noteError ? "note-error" : undefined} />
          <FieldError id="note-error" errors={noteError} />
        </div>
        <div className="flex flex-wrap gap-2">
          {rec.can_edit ? (
            <>
              <button type="submit" name="intent" value="save" className="btn-primary" disabled={busy}>
                Save
              </button>
              {canAccept ? (
                <button type="submit" name="intent" value="accept" className="btn" disabled={busy}>
                  Save + Accept
                </button>
              ) : null}
              {canReset ? (
                <button type="submit" name="intent" value="reset" className="btn" disabled={busy}>
                  Reset
                </button>
              ) : null}
              {rec.can_rerun ? (
                <button type="submit" name="intent" value="rerun" className="btn" disabled={busy}>
                  Re Run
                </button>
              ) : null}
            </>
          ) : null}
          <Link id="invoice-detail-button" to={invoiceDetailHref} className="btn" preventScrollReset>
            Invoice Detail
          </Link>
          <Link to={back} className="btn">
            Back
          </Link>
        </div>
      </Form>
    </section>
  );
}
