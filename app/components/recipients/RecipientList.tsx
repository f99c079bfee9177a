import { Form, Link } from "@remix-run/react";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AddressJson } from "~/modules/addresses/address-json";
import { LOAD_AT, PAGE_SIZE } from "~/modules/recipients/limits";
import { apiFetch } from "~/utils/api-client";

type Page = { recipients: AddressJson[]; offset: number | null; has_more: boolean; next: string | null };

const addressLine = (r: AddressJson) => [r.address_line_1, r.address_line_2, r.address_line_3, r.address_line_4].filter(Boolean).join(", ");

/**
 * The address book, 40 at a time. Without JavaScript, Previous and Next pages are links (`?page`);
 * with it, the next 40 come from GET /api/customers/{id}/recipients once the page is scrolled 80
 * percent of the way down.
 */
export function RecipientList({ customerId, first, q, canEdit, pageUrl, editUrl }: { customerId: number; first: Page; q: string; canEdit: boolean; pageUrl: (page: number) => string; editUrl: (id: number) => string }) {
  const [rows, setRows] = useState(first.recipients);
  const [more, setMore] = useState(first.has_more);
  const [hydrated, setHydrated] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  // where the rows shown so far end (the next 40 continue from there: GET ...?after=), and whether
  // there are more. A ref, moved on as each answer arrives: a scroll between an answer and the
  // render it causes must not ask for the same 40 again (they were shown twice)
  const cursor = useRef({ next: first.next, more: first.has_more });
  const loading = useRef(false);
  useEffect(() => setHydrated(true), []);
  // a new filter or page from the loader starts the list again
  useEffect(() => {
    cursor.current = { next: first.next, more: first.has_more };
    setRows(first.recipients);
    setMore(first.has_more);
  }, [first]);

  const loadMore = useCallback(async () => {
    const from = cursor.current;
    if (loading.current || !from.more || !from.next) return;
    loading.current = true;
    const params = new URLSearchParams({ limit: String(PAGE_SIZE), after: from.next });
    if (q) params.set("q", q);
    const res = await apiFetch<Page>(`/api/customers/${customerId}/recipients?${params}`);
    loading.current = false;
    // an answer for a list since replaced by a new filter or page is dropped
    if (cursor.current !== from) return;
    if (!res.ok) return setFailed(res.message);
    cursor.current = { next: res.data.next, more: res.data.has_more };
    setRows((r) => [...r, ...res.data.recipients]);
    setMore(res.data.has_more);
  }, [customerId, q]);

  useEffect(() => {
    if (!hydrated) return;
    const check = () => {
      const seen = window.scrollY + window.innerHeight;
      if (seen >= document.documentElement.scrollHeight * LOAD_AT) void loadMore();
    };
    check();
    window.addEventListener("scroll", check, { passive: true });
    return () => window.removeEventListener("scroll", check);
  }, [hydrated, loadMore]);

  const page = Math.floor((first.offset ?? 0) / PAGE_SIZE) + 1;
  return (
    <section aria-label="Recipients list" className="card overflow-x-auto">
      {rows.length === 0 ? <p className="text-sm text-slate-600">{q ? `No recipients start with "${q}".` : "No recipients yet."}</p> : null}
      {rows.length ? (
        <table className="w-full text-sm" data-testid="recipients-table">
          <thead>
            <tr className="text-left">
              <th scope="col">Name</th>
              <th scope="col">Code</th>
              <th scope="col">Address</th>
              <th scope="col">Locality</th>
              <th scope="col">Postcode</th>
              <th scope="col">Phone</th>
              <th scope="col">Email</th>
              {canEdit ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id} className="border-t">
                <td>{r.name}</td>
                <td>{r.code}</td>
                <td>{addressLine(r)}</td>
                <td>{r.country === "NEW ZEALAND" ? r.sublocality || r.locality : r.locality}</td>
                <td>{r.postcode}</td>
                <td>{r.phone}</td>
                <td>{r.email}</td>
                {canEdit ? (
                  <td className="whitespace-nowrap">
                    <Link to={editUrl(r.id!)} className="underline" aria-label={`Edit ${r.name}`}>
                      Edit
                    </Link>{" "}
                    <Form method="post" className="inline">
                      <input type="hidden" name="intent" value="delete" />
                      <input type="hidden" name="id" value={r.id!} />
                      <button type="submit" className="underline text-red-700" aria-label={`Delete ${r.name}`}>
                        Delete
                      </button>
                    </Form>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {failed ? <p role="alert" className="field-error">{failed}</p> : null}
      {hydrated ? (
        more ? (
          <p role="status" className="mt-2 text-sm text-slate-600">
            Showing {rows.length}; scroll down for more.
          </p>
        ) : null
      ) : (
        <nav aria-label="Recipient pages" className="mt-2 flex gap-3 text-sm">
          {page > 1 ? <Link to={pageUrl(page - 1)}>Previous page</Link> : null}
          {first.has_more ? <Link to={pageUrl(page + 1)}>Next page</Link> : null}
        </nav>
      )}
    </section>
  );
}
