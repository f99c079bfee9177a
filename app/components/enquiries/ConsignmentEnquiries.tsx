import { useFetcher, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { isDespatched } from "~/modules/consignments/rules";
import type { EnquiryFormResult } from "~/modules/enquiries/page.server";
import { LATEST_LIMIT, listSubject, MESSAGES, STATUS_LABELS, type CategoryJson, type TicketJson } from "~/modules/enquiries/types";
import type { ConsignmentState } from "../../../db/schema/consignments";
import { apiFetch } from "~/utils/api-client";
import { EnquiryForm } from "./EnquiryForm";

/**
 * A despatched consignment's enquiries on its screen: the latest 3 (GET /api/tickets.json?
 * consignment_id=&limit=3), a link to all of them, and the enquiry modal, whose form posts to
 * /consignment/{id}/enquiries. Outside the consignment's own form (no nested forms).
 */
export function ConsignmentEnquiries({ consignment }: { consignment: { id: number; state: ConsignmentState; has_tickets: boolean } | null }) {
  const layout = useRouteLoaderData("routes/_app+/_layout") as { user: { fullName: string; email: string } } | undefined;
  const dialog = useRef<HTMLDialogElement>(null);
  const [latest, setLatest] = useState<TicketJson[] | null>(null);
  const [categories, setCategories] = useState<CategoryJson[]>([]);
  // sent by a fetcher: a refusal comes back into the modal (its fields marked, focus on the first by
  // FocusAfterSubmit); a success redirects to the enquiries page. Without JavaScript the form posts there.
  const fetcher = useFetcher<EnquiryFormResult>();
  const refused = fetcher.state === "idle" && fetcher.data?.intent === "create" ? fetcher.data : undefined;
  const id = consignment?.id;
  const despatched = isDespatched(consignment?.state);
  useEffect(() => {
    if (!id || !despatched) return;
    const controller = new AbortController();
    void apiFetch<{ tickets: TicketJson[] }>(`/api/tickets.json?consignment_id=${id}&limit=${LATEST_LIMIT}`, { signal: controller.signal })
      .then((res) => res.ok && setLatest(res.data.tickets))
      .catch(() => {});
    // the types are loaded once a consignment is despatched (spec 1 section 4)
    void apiFetch<{ categories: CategoryJson[] }>("/api/tickets/categories.json", { signal: controller.signal })
      .then((res) => res.ok && setCategories(res.data.categories))
      .catch(() => {});
    return () => controller.abort();
  }, [id, despatched]);
  if (!id || !despatched) return null;
  return (
    <section className="card space-y-2" aria-labelledby="latest-enquiries" data-testid="consignment-enquiries">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="latest-enquiries" className="font-semibold">
          Latest enquiries
        </h2>
        <div className="flex gap-2">
          <button type="button" className="btn" onClick={() => dialog.current?.showModal()} data-button="raise-enquiry">
            Raise enquiry
          </button>
          <a href={`/consignment/${id}/enquiries`} className="btn">
            All enquiries
          </a>
        </div>
      </div>
      {latest === null ? (
        consignment.has_tickets ? <p className="text-sm text-slate-500">Loading…</p> : <p className="text-sm text-slate-600">{MESSAGES.noEnquiries}</p>
      ) : latest.length === 0 ? (
        <p className="text-sm text-slate-600">{MESSAGES.noEnquiries}</p>
      ) : (
        <ul className="divide-y divide-slate-100 text-sm" data-testid="latest-enquiries">
          {latest.map((t) => (
            <li key={t.id} className="flex justify-between gap-2 py-1">
              <a href={`/consignment/${id}/enquiries`} className="text-sky-700 hover:underline" title={t.subject}>
                #{t.id} {listSubject(t.subject)}
              </a>
              <span>{STATUS_LABELS[t.status]}</span>
            </li>
          ))}
        </ul>
      )}
      <dialog ref={dialog} className="w-full max-w-3xl rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40" aria-labelledby="enquiry-dialog-title" data-testid="enquiry-dialog">
        <div className="space-y-3 p-4">
          <h2 id="enquiry-dialog-title" className="text-lg font-semibold">
            New enquiry
          </h2>
          <EnquiryForm
            action={`/consignment/${id}/enquiries`}
            categories={categories}
            defaults={{ full_name: layout?.user.fullName ?? "", email: layout?.user.email ?? "", phone: "" }}
            idPrefix="modal-enquiry"
            as={fetcher.Form}
            errors={refused?.errors ?? {}}
            values={refused?.values}
            onCancel={() => dialog.current?.close()}
          />
        </div>
      </dialog>
    </section>
  );
}
