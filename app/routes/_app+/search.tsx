import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { requireUser } from "~/modules/auth/guard.server";
import { formatDisplayDate } from "~/modules/calendar/display-date";
import { searchConsignments } from "~/modules/search/search.server";
import { NO_MATCHES, SEARCH_MIN, stateText } from "~/modules/search/search";
import { AppError, firstErrorMessage } from "~/utils/errors";

export const meta: MetaFunction = () => [{ title: "Search · FreightDesk" }];

/**
 * /search?query: the header search's matches as a page, where the header's form goes without
 * JavaScript (or on Enter with no list open): the same 10 results the typeahead shows.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const query = new URL(request.url).searchParams.get("query") ?? "";
  // despatch dates in the reader's format (their clock, decision 032)
  const country = user.clock.dateFormat;
  try {
    return { query, country, error: null, ...(await searchConsignments(context.db, user, { query })) };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { query, country, error: firstErrorMessage(e.fieldErrors) ?? e.message, consignments: [] };
  }
}

export default function SearchResults() {
  const { query, country, error, consignments } = useLoaderData<typeof loader>();
  const short = query.trim().length < SEARCH_MIN;
  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Search consignments</h1>
      <Form method="get" className="flex items-end gap-2" role="search" aria-label="Search consignments again">
        <div>
          <label htmlFor="search-query" className="label">
            Consignment number, reference or receiver
          </label>
          <input id="search-query" name="query" className="input w-72" defaultValue={query} key={query} />
        </div>
        <button type="submit" className="btn-primary">
          Search
        </button>
        <Link to="/advanced" className="btn">
          Advanced search
        </Link>
      </Form>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : short ? (
        <p className="text-sm text-slate-600">Type at least {SEARCH_MIN} characters.</p>
      ) : consignments.length === 0 ? (
        <p className="text-sm text-slate-600" role="status">
          {NO_MATCHES}
        </p>
      ) : (
        <ul className="card divide-y divide-slate-100 p-0" data-testid="search-results">
          {consignments.map((r) => (
            <li key={r.id} className="px-3 py-2 text-sm">
              <span className="font-semibold">{r.url ? <Link to={r.url} className="text-sky-700 underline">{r.consignment_number}</Link> : r.consignment_number}</span>{" "}
              <span className="text-slate-600">
                {[stateText(r.state), r.reference, r.receiver_reference, r.receiver_address?.name, r.carrier_name, r.service_name, formatDisplayDate(r.despatch_date, country), `${r.total_quantity} item${r.total_quantity === 1 ? "" : "s"}`].filter(Boolean).join(" · ")}
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
