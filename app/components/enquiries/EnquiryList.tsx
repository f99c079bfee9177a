import { Form, Link } from "@remix-run/react";
import { localTime } from "~/modules/calendar/site-time";
import { listSubject, MESSAGES, STATUS_LABELS, STATUSES, type CommentJson, type TicketJson } from "~/modules/enquiries/types";

type Clock = { timeZone: string; dateFormat: string };
const timeFor = (iso: string, clock: Clock) => localTime(new Date(iso), clock.timeZone, clock.dateFormat);

/**
 * Enquiries with their status and subject (cut at 35); each row's trail opens below it (a
 * <details>, so it works without JavaScript) with the add-comment form and, for customer
 * service, the status form.
 */
export function EnquiryList({
  tickets,
  trails,
  staff,
  clock,
  formResult,
}: {
  tickets: TicketJson[];
  trails: Record<string, CommentJson[]>;
  staff: boolean;
  /** the reader's zone and format: the server and the browser render the same text */
  clock: Clock;
  formResult?: { intent: string; ticketId?: number; errors: Record<string, string[]>; values: Record<string, string> };
}) {
  const when = (iso: string) => timeFor(iso, clock);
  if (!tickets.length) return <p className="text-sm text-slate-600" data-testid="no-enquiries">{MESSAGES.noEnquiries}</p>;
  return (
    <div className="card overflow-x-auto p-0">
      <table className="w-full text-sm" data-testid="enquiries">
        <caption className="sr-only">Enquiries, newest first</caption>
        <thead className="bg-slate-50 text-left text-xs uppercase text-slate-600">
          <tr>
            <th scope="col" className="px-3 py-2">Enquiry</th>
            {staff ? <th scope="col" className="px-3 py-2">Customer</th> : null}
            <th scope="col" className="px-3 py-2">Subject</th>
            <th scope="col" className="px-3 py-2">Type</th>
            <th scope="col" className="px-3 py-2">Consignment</th>
            <th scope="col" className="px-3 py-2">Raised by</th>
            <th scope="col" className="px-3 py-2">Status</th>
            <th scope="col" className="px-3 py-2">Updated</th>
          </tr>
        </thead>
        {tickets.map((t) => (
          <tbody key={t.id} className="border-t border-slate-200" data-testid={`enquiry-${t.id}`}>
            <tr>
              <th scope="row" className="px-3 py-2 text-left font-medium">#{t.id}</th>
              {staff ? <td className="px-3 py-2">{t.customer_name}</td> : null}
              <td className="px-3 py-2" title={t.subject} data-testid="subject">
                {listSubject(t.subject)}
              </td>
              <td className="px-3 py-2">{t.support_request ?? ""}</td>
              <td className="px-3 py-2">{t.consignment_id ? <Link to={`/consignment/${t.consignment_id}`} className="text-sky-700 hover:underline">{t.consignment_number ?? "Pending"}</Link> : ""}</td>
              <td className="px-3 py-2">{t.full_name}</td>
              <td className="px-3 py-2" data-testid="status">{STATUS_LABELS[t.status]}</td>
              <td className="px-3 py-2 whitespace-nowrap"><time dateTime={t.updated_at}>{when(t.updated_at)}</time></td>
            </tr>
            <tr>
              <td colSpan={staff ? 8 : 7} className="px-3 pb-2">
                <Trail ticket={t} comments={trails[t.id] ?? []} staff={staff} clock={clock} formResult={formResult?.ticketId === t.id ? formResult : undefined} />
              </td>
            </tr>
          </tbody>
        ))}
      </table>
    </div>
  );
}

function Trail({ ticket, comments, staff, clock, formResult }: { ticket: TicketJson; comments: CommentJson[]; staff: boolean; clock: Clock; formResult?: { intent: string; errors: Record<string, string[]>; values: Record<string, string> } }) {
  const commentError = formResult?.intent === "comment" ? (formResult.errors.comment?.[0] ?? formResult.errors.base?.[0]) : undefined;
  const statusError = formResult?.intent === "status" ? (formResult.errors.status?.[0] ?? formResult.errors.base?.[0]) : undefined;
  const id = `enquiry-${ticket.id}`;
  return (
    <details open={Boolean(formResult)} data-testid="trail">
      <summary className="cursor-pointer text-sky-700">
        Audit trail ({comments.length} {comments.length === 1 ? "comment" : "comments"}) of enquiry #{ticket.id}
      </summary>
      <div className="mt-2 space-y-2">
        <p className="text-xs text-slate-600">
          Subject: {ticket.subject} · {ticket.email}
          {ticket.phone ? ` · ${ticket.phone}` : ""}
        </p>
        <ol className="space-y-1" aria-label={`Comments of enquiry #${ticket.id}`}>
          {comments.map((c) => (
            <li key={c.id} className="rounded bg-slate-50 px-2 py-1" data-testid="comment">
              <div className="text-xs text-slate-500">
                <span data-testid="comment-author">{c.author}</span> · <time dateTime={c.created_at}>{timeFor(c.created_at, clock)}</time>
              </div>
              <p className="whitespace-pre-wrap break-words">{c.comment}</p>
            </li>
          ))}
        </ol>
        <Form method="post" className="flex flex-wrap items-end gap-2" aria-label={`Comment on enquiry #${ticket.id}`}>
          <input type="hidden" name="intent" value="comment" />
          <input type="hidden" name="ticket_id" value={ticket.id} />
          <div className="min-w-64 flex-1">
            <label htmlFor={`${id}-comment`} className="label">
              Add a comment
            </label>
            <textarea
              id={`${id}-comment`}
              name="comment"
              className="input min-h-16"
              defaultValue={formResult?.intent === "comment" ? formResult.values.comment : ""}
              aria-invalid={commentError ? true : undefined}
              aria-describedby={commentError ? `${id}-comment-error` : undefined}
            />
            {commentError ? (
              <p id={`${id}-comment-error`} className="field-error" role="alert">
                {commentError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn">
            Add comment
          </button>
        </Form>
        {staff ? (
          <Form method="post" className="flex items-end gap-2" aria-label={`Status of enquiry #${ticket.id}`}>
            <input type="hidden" name="intent" value="status" />
            <input type="hidden" name="ticket_id" value={ticket.id} />
            <div>
              <label htmlFor={`${id}-status`} className="label">
                Status
              </label>
              <select id={`${id}-status`} name="status" className="input" defaultValue={ticket.status}>
                {STATUSES.map((s) => (
                  <option key={s} value={s}>
                    {STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="btn">
              Change status
            </button>
            {statusError ? <p className="field-error" role="alert">{statusError}</p> : null}
          </Form>
        ) : null}
      </div>
    </details>
  );
}
