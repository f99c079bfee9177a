import { Link } from "@remix-run/react";
import { pageWindow } from "~/modules/reconciliation/list-schemas";

/**
 * Pages of a list (spec 3 section 9): First, Previous, at most 5 page numbers with an ellipsis
 * where pages are left out, Next and Last; links, so paging works without JavaScript.
 */
export function Pagination({ current, total, hrefFor, label = "Pages" }: { current: number; total: number; hrefFor: (page: number) => string; label?: string }) {
  if (total <= 1) return null;
  const { pages, gapBefore, gapAfter } = pageWindow(current, total);
  const item = (page: number, text: string, name?: string) =>
    page === current || page < 1 || page > total ? (
      <span className="px-2 py-1 text-slate-400" aria-disabled="true">
        {text}
      </span>
    ) : (
      <Link to={hrefFor(page)} className="rounded px-2 py-1 text-sky-700 underline" aria-label={name}>
        {text}
      </Link>
    );
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-1 text-sm" data-testid="pagination">
      {item(1, "First", "First page")}
      {item(current - 1, "Previous", "Previous page")}
      {gapBefore ? <span aria-hidden>…</span> : null}
      {pages.map((p) =>
        p === current ? (
          <span key={p} aria-current="page" className="rounded bg-sky-600 px-2 py-1 font-semibold text-white">
            {p}
          </span>
        ) : (
          <Link key={p} to={hrefFor(p)} className="rounded px-2 py-1 text-sky-700 underline" aria-label={`Page ${p}`}>
            {p}
          </Link>
        ),
      )}
      {gapAfter ? <span aria-hidden>…</span> : null}
      {item(current + 1, "Next", "Next page")}
      {item(total, "Last", "Last page")}
    </nav>
  );
}
