import { Link } from "@remix-run/react";
import type { Crumb } from "~/modules/shell/breadcrumbs";

/**
 * The trail to this screen, rendered on the server (a loader asks breadcrumbTrail). The last crumb
 * is the page itself: text with aria-current, not a link to where the user already is.
 */
export function Breadcrumbs({ crumbs }: { crumbs: Crumb[] }) {
  if (!crumbs.length) return null;
  return (
    <nav aria-label="Breadcrumb" className="text-sm" data-testid="breadcrumbs">
      <ol className="flex flex-wrap gap-1">
        {crumbs.map((c, i) => (
          <li key={`${i}-${c.url}`} className="flex gap-1">
            {i > 0 ? <span aria-hidden="true">›</span> : null}
            {i === crumbs.length - 1 ? (
              <span aria-current="page">{c.label}</span>
            ) : (
              <Link to={c.url} className="text-sky-700 underline">
                {c.label}
              </Link>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
