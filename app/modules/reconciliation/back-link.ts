/**
 * Where the detail's Back goes: the list the user came from, with its filters, tabs and page
 * (spec 3 "Reconciliation detail"; the list keeps them in its URL). Only the two lists count; any
 * other or foreign path gives the plain list.
 */
export const RECONCILIATIONS_LIST = "/reconciliations";
const LIST = /^\/(reconciliations|invoices\/\d+\/reconciliations)(\?[^#]*)?$/;

export function backPath(candidate: string | null | undefined): string {
  return candidate && LIST.test(candidate) && !candidate.includes("//") ? candidate : RECONCILIATIONS_LIST;
}

/** The list path a same-origin Referer names, or null. */
export function listFromReferer(referer: string | null, origin: string): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    if (url.origin !== origin) return null;
    const path = url.pathname + url.search;
    return LIST.test(path) ? path : null;
  } catch {
    return null;
  }
}
