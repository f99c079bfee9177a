import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Alerts, type Alert } from "~/components/Alerts";
import type { EnquiryFormResult, loadEnquiriesPage } from "~/modules/enquiries/page.server";
import { STATUS_LABELS, STATUSES } from "~/modules/enquiries/types";
import { EnquiryForm } from "./EnquiryForm";
import { EnquiryList } from "./EnquiryList";

type PageData = Awaited<ReturnType<typeof loadEnquiriesPage>>;

/** /enquiries and /consignment/{id}/enquiries: filters and page in the URL, the list, and the new enquiry form. */
export function EnquiriesPage() {
  const page = useLoaderData() as PageData;
  const result = useActionData() as EnquiryFormResult | undefined;
  const location = useLocation();
  const alerts: Alert[] = [];
  if (page.notice && !result) alerts.push({ type: "success", message: page.notice });
  for (const messages of Object.values(page.filterErrors)) if (messages[0]) alerts.push({ type: "warning", message: messages[0] });
  const pages = Math.max(1, Math.ceil(page.total / page.per_page));
  const pageLink = (n: number) => {
    const params = new URLSearchParams(location.search);
    params.delete("done");
    params.set("page", String(n));
    return `${location.pathname}?${params}`;
  };
  const creating = result?.intent === "create";
  const title = page.consignment ? `Enquiries of consignment ${page.consignment.number}` : "Enquiries";
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{title}</h1>
        {page.consignment ? (
          <Link to={`/consignment/${page.consignment.id}`} className="btn">
            Back to the consignment
          </Link>
        ) : page.typesPath ? (
          <Link to={page.typesPath} className="btn">
            Enquiry types
          </Link>
        ) : null}
      </div>
      <Alerts alerts={alerts} />
      <details className="card" open={creating || location.hash === "#new"} id="new" data-testid="new-enquiry">
        <summary className="cursor-pointer font-medium">Raise an enquiry{page.consignment ? ` about ${page.consignment.number}` : ""}</summary>
        <div className="mt-3">
          <EnquiryForm categories={page.categories} defaults={page.defaults} errors={creating ? result.errors : {}} values={creating ? result.values : undefined} idPrefix="page-enquiry" />
        </div>
      </details>
      <Form method="get" className="flex flex-wrap items-end gap-3" aria-label="Filter enquiries">
        <div>
          <label htmlFor="filter-status" className="label">
            Status
          </label>
          <select id="filter-status" name="status" className="input" defaultValue={page.filters.status ?? ""}>
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="filter-type" className="label">
            Enquiry type
          </label>
          <select id="filter-type" name="type" className="input" defaultValue={page.filters.type ?? ""}>
            <option value="">All</option>
            {page.categories.map((c) => (
              <option key={c.id} value={c.name}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="btn">
          Filter
        </button>
      </Form>
      <EnquiryList tickets={page.tickets} trails={page.trails} staff={page.staff} clock={page.clock} formResult={result && !creating ? result : undefined} />
      {pages > 1 ? (
        <nav aria-label="Pages" className="flex items-center gap-2 text-sm">
          {page.page > 1 ? <Link to={pageLink(page.page - 1)} className="btn">Previous</Link> : null}
          <span>
            Page {page.page} of {pages} ({page.total} enquiries)
          </span>
          {page.page < pages ? <Link to={pageLink(page.page + 1)} className="btn">Next</Link> : null}
        </nav>
      ) : null}
    </div>
  );
}
