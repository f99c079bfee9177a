import { Form, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { Typeahead } from "~/components/Typeahead";
import type { InvoiceSearchResult } from "~/modules/invoices/search.server";
import { isoToDisplay } from "~/modules/invoices/schemas";
import { firstErrorMessage, type FieldErrors } from "~/utils/errors";

const FAILED = "The invoice search failed. Please try again.";
class SearchFailure extends Error {}

async function searchInvoices(query: string, signal: AbortSignal): Promise<InvoiceSearchResult[]> {
  const res = await fetch(`/api/invoices/search?query=${encodeURIComponent(query)}`, { signal, headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" } });
  const body = (await res.json().catch(() => null)) as { invoices?: InvoiceSearchResult[]; errors?: FieldErrors } | null;
  if (!res.ok || !body?.invoices) throw new SearchFailure(firstErrorMessage(body?.errors) ?? FAILED);
  return body.invoices;
}

/** One result: number (or 'Pending'), state and date, then references and consignment numbers. */
export function InvoiceResult({ r }: { r: InvoiceSearchResult }) {
  return (
    <span className="block" data-testid="invoice-search-result">
      <span className="flex justify-between gap-2 font-semibold">
        <span>{r.invoice_number}</span>
        <span className="font-normal text-slate-600">
          {r.state.replaceAll("_", " ")} · {isoToDisplay(r.invoice_date)}
        </span>
      </span>
      <span className="block text-xs text-slate-600">{[...r.references, ...r.consignment_numbers].join(" · ")}</span>
    </span>
  );
}

/**
 * The FINANCE view's header invoice search (spec 3 section 9): from 3 characters, 500 ms after
 * the last key, at most 10 results; Enter opens the invoice. Without JavaScript the form lists the
 * same matches on /invoices_payable.
 */
export function InvoiceSearch() {
  const [text, setText] = useState("");
  const navigate = useNavigate();
  return (
    <Form method="get" action="/invoices_payable" role="search">
      <label htmlFor="invoice-search" className="sr-only">
        Search invoices
      </label>
      <Typeahead<InvoiceSearchResult>
        id="invoice-search"
        name="query"
        type="search"
        placeholder="Search invoices"
        inputClassName="w-40 rounded px-2 py-1 text-sm text-slate-900"
        listClassName="right-0 w-96"
        label="Search invoices"
        testId="invoice-search"
        value={text}
        onChange={setText}
        search={searchInvoices}
        failureText={(e) => (e instanceof SearchFailure ? e.message : FAILED)}
        render={(r) => <InvoiceResult r={r} />}
        onPick={(r) => {
          setText("");
          navigate(r.url);
        }}
      />
    </Form>
  );
}
