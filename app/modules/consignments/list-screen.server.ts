/**
 * The /consignments screen's loader and action (spec 1 section 2 "Consignment list"). Everything
 * the screen shows is read from its URL; a changed filter is remembered as a user option by a
 * POST that then redirects to the new URL (a GET never changes anything).
 */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import type { CurrentUser } from "../auth/current-user.server";
import { requireUser } from "../auth/guard.server";
import { jobStatusFor } from "../jobs/jobs.server";
import { userSite } from "../calendar/site-time";
import { updateUserOptions } from "../users/options.server";
import { requestDespatch } from "~/modules/despatch/despatch.server";
import { AppError } from "../../utils/errors";
import { deleteConsignments, reinstateConsignments } from "./delete.server";
import {
  DEFAULT_DIR,
  DEFAULT_SORT,
  canDespatchIn,
  isDateFilter,
  isListFilter,
  isSortKey,
  listUrl,
  parseOpen,
  type GroupKey,
  type ListView,
} from "./list";
import { listScreen } from "./list.server";
import { MAX_ID } from "../../utils/ids";
import { readPageForm } from "../../utils/http.server";

/**
 * The view a URL names. A missing date filter or site takes the user's remembered option
 * (consignment_date_filter, consignment_site_filter); an unknown filter or date filter is
 * answered with a redirect to the list, an unknown site shows all of the user's sites.
 */
export function viewOf(user: CurrentUser, params: { filter?: string; dateFilter?: string }, url: URL): ListView {
  if (params.filter !== undefined && !isListFilter(params.filter)) throw redirect("/consignments");
  if (params.dateFilter !== undefined && !isDateFilter(params.dateFilter)) throw redirect(`/consignments/${params.filter}`);
  const q = url.searchParams;
  const remembered = user.options.consignment_date_filter;
  const siteParam = q.get("site");
  let site: string | null = null;
  if (siteParam) {
    site = siteParam.toLowerCase() === "all" ? null : (user.sites.find((s) => s.code.toLowerCase() === siteParam.toLowerCase())?.code ?? null);
  } else {
    const option = user.options.consignment_site_filter;
    site = option && option !== "all" ? (user.sites.find((s) => String(s.id) === option)?.code ?? null) : null;
  }
  const sort = q.get("sort");
  const dir = q.get("dir");
  const open = parseOpen(q.get("open"));
  const after: Partial<Record<GroupKey, string>> = {};
  for (const key of open) {
    const cursor = q.get(`after_${key}`);
    if (cursor) after[key] = cursor.slice(0, 2000);
  }
  return {
    filter: (params.filter as ListView["filter"] | undefined) ?? "metadata",
    dateFilter: (params.dateFilter as ListView["dateFilter"] | undefined) ?? (isDateFilter(remembered) ? remembered : "today"),
    site,
    sort: isSortKey(sort) ? sort : DEFAULT_SORT,
    dir: dir === "asc" || dir === "desc" ? dir : DEFAULT_DIR,
    open,
    after,
  };
}

const siteIdOf = (user: CurrentUser, code: string | null) => (code ? (user.sites.find((s) => s.code === code)?.id ?? null) : null);

/** Ids posted by the list's checkboxes (ids=1&ids=2, or ids=1,2). */
function postedIds(form: FormData): number[] {
  return form
    .getAll("ids")
    .flatMap((v) => String(v).split(","))
    .filter(Boolean)
    .map(Number);
}

const idList = (raw: string | null) =>
  (raw ?? "")
    .split(",")
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0 && n <= MAX_ID)
    .slice(0, 500);

export async function listLoader({ request, context, params }: LoaderFunctionArgs) {
  const { user } = await requireUser(context, request);
  const url = new URL(request.url);
  const view = viewOf(user, params, url);
  const screen = await listScreen(context.db, user, { filter: view.filter, dateFilter: view.dateFilter, siteId: siteIdOf(user, view.site) }, view);
  const jobId = url.searchParams.get("job");
  const job = jobId ? await jobStatusFor(context.db, user, jobId).catch(() => null) : null;
  const reinstated = Number(url.searchParams.get("reinstated"));
  return {
    view,
    ...screen,
    sites: user.sites.map((s) => ({ id: s.id, code: s.code, name: s.name, country: s.country, timezone: s.timezone })),
    /** the user's own site, whose zone and format the times of an all-sites list follow */
    homeSite: userSite(user)?.code ?? null,
    canBulkUpload: user.canBulkupload || user.canBulkquote,
    showItemReferences: Boolean(user.customer.options.view_item_references),
    job: job ? { id: jobId!, status: job, printManifest: url.searchParams.get("print_manifest") === "1" } : null,
    deleted: idList(url.searchParams.get("deleted")),
    reinstated: Number.isInteger(reinstated) && reinstated > 0 ? reinstated : 0,
  };
}

/**
 * The screen's posts: filters (remembered, then the new URL), delete and its undo, and despatch
 * without JavaScript (the job's progress then shows on the list, ?job=). Domain errors come back
 * as an alert on the same page.
 */
export async function listAction({ request, context, params }: ActionFunctionArgs) {
  const { user } = await requireUser(context, request);
  const url = new URL(request.url);
  const view = viewOf(user, params, url);
  const form = await readPageForm(request);
  const intent = String(form.get("intent") ?? "");
  try {
    switch (intent) {
      case "filters": {
        const dateFilter = String(form.get("dateFilter") ?? view.dateFilter);
        const filter = String(form.get("filter") ?? view.filter);
        const siteCode = String(form.get("site") ?? "all");
        if (!isDateFilter(dateFilter) || !isListFilter(filter)) throw new AppError("invalid", "Choose one of the filters listed");
        const site = siteCode === "all" ? null : user.sites.find((s) => s.code === siteCode);
        if (site === undefined) throw new AppError("invalid", "Site is not one of yours");
        await updateUserOptions(context.db, user, user.id, { options: { consignment_date_filter: dateFilter, consignment_site_filter: site ? String(site.id) : "all" } });
        // a group of one site need not exist at another: paging starts again
        return redirect(listUrl({ ...view, filter, dateFilter, site: site?.code ?? null, after: {} }));
      }
      case "delete": {
        const { deleted } = await deleteConsignments(context.db, user, { ids: postedIds(form) });
        return redirect(listUrl({ ...view, after: {} }, { deleted: deleted.join(",") }));
      }
      case "reinstate": {
        const { reinstated } = await reinstateConsignments(context.db, user, { ids: postedIds(form) });
        return redirect(listUrl({ ...view, after: {} }, { reinstated: String(reinstated.length) }));
      }
      case "despatch":
      case "despatch_manifest": {
        if (!canDespatchIn(view.filter)) throw new AppError("conflict", "Consignments cannot be despatched from this list.");
        const { job_id } = await requestDespatch(context.db, context.queue, user, { ids: postedIds(form) });
        return redirect(listUrl(view, { job: job_id, ...(intent === "despatch_manifest" ? { print_manifest: "1" } : {}) }));
      }
      default:
        throw new AppError("bad_request", "Unknown action");
    }
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    // a refused despatch is a warning (spec 1 section 5); anything else an error
    const type = intent.startsWith("despatch") && e.code === "conflict" ? "warning" : "error";
    return data({ alert: { type, message: e.message } as const }, { status: e.status });
  }
}
