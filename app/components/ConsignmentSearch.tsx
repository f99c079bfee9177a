import { Form, useNavigate } from "@remix-run/react";
import { useState } from "react";
import { Typeahead } from "~/components/Typeahead";
import { formatDisplayDate } from "~/modules/calendar/display-date";
import { SEARCH_FAILED, stateText, type SearchResult } from "~/modules/search/search";
import { firstErrorMessage, type FieldErrors } from "~/utils/errors";

/** A failed search carries the server's first message (spec 1 section 9 "Search failure"). */
class SearchFailure extends Error {}

async function searchConsignments(query: string, signal: AbortSignal): Promise<SearchResult[]> {
  const res = await fetch(`/api/consignments/search?query=${encodeURIComponent(query)}`, { signal, headers: { Accept: "application/json", "X-Requested-With": "XMLHttpRequest" } });
  const body = (await res.json().catch(() => null)) as { consignments?: SearchResult[]; errors?: FieldErrors } | null;
  if (!res.ok || !body?.consignments) throw new SearchFailure(firstErrorMessage(body?.errors) ?? SEARCH_FAILED);
  return body.consignments;
}

function Result({ r, country }: { r: SearchResult; country: string }) {
  const address = r.receiver_address ? [r.receiver_address.name, r.receiver_address.address_line_1, r.receiver_address.locality, r.receiver_address.postcode].filter(Boolean).join(", ") : "";
  return (
    <span className="block" data-testid="search-result">
      <span className="flex justify-between gap-2 font-semibold">
        <span>{r.consignment_number}</span>
        <span className="font-normal text-slate-600">{stateText(r.state)}</span>
      </span>
      <span className="block text-xs text-slate-600">
        {[r.reference, r.receiver_reference, address].filter(Boolean).join(" · ")}
      </span>
      <span className="block text-xs text-slate-600">
        {[r.carrier_name, r.service_name, formatDisplayDate(r.despatch_date, country), `${r.total_quantity} item${r.total_quantity === 1 ? "" : "s"}`, r.service_rate == null ? null : `$${r.service_rate.toFixed(2)}`]
          .filter(Boolean)
          .join(" · ")}
        {r.url ? "" : " · inactive"}
      </span>
    </span>
  );
}

/**
 * The header's consignment search (spec 1 sections 2 and 9): a combobox over the user's
 * consignments from 3 characters, 500 ms after the last key, 10 results; arrows choose, Enter
 * opens the consignment, Escape closes. Without JavaScript (or Enter with no list open) the form
 * goes to /search, which lists the same matches.
 */
export function ConsignmentSearch({ country }: { country: string }) {
  const [text, setText] = useState("");
  const navigate = useNavigate();
  return (
    <Form method="get" action="/search" role="search" className="ml-auto">
      <label htmlFor="consignment-search" className="sr-only">
        Search consignments
      </label>
      <Typeahead<SearchResult>
        id="consignment-search"
        name="query"
        type="search"
        placeholder="Search consignments"
        inputClassName="w-56 rounded px-2 py-1 text-sm text-slate-900"
        listClassName="right-0 w-96"
        label="Search consignments"
        testId="consignment-search"
        value={text}
        onChange={setText}
        search={searchConsignments}
        failureText={(e) => (e instanceof SearchFailure ? e.message : SEARCH_FAILED)}
        render={(r) => <Result r={r} country={country} />}
        onPick={(r) => {
          // inactive ones have no screen to open (spec 1 section 4: shown without link)
          if (!r.url) return;
          setText("");
          navigate(r.url);
        }}
      />
    </Form>
  );
}
