/**
 * The print addresses (/print/*) answer documents. A person opens them in the browser (Reprint,
 * the tab a printer opens, the list's Print Labels without a script): when one cannot print, they
 * get a page with the message and a way back, never the JSON error a script gets; signed out,
 * they sign in and come back to the document. Scripts and /api callers (a Bearer token, the app's
 * own fetches, anything not asking for a page) keep the JSON errors of the /api contract.
 */
import { redirect, type AppLoadContext } from "@remix-run/node";
import type { CurrentUser } from "../auth/current-user.server";
import { requireApiUser } from "../auth/guard.server";
import { api } from "../../utils/http.server";
import type { DbOrTx } from "../../../db/client.server";
import { getConsignment } from "../consignments/consignments.server";
import { VARIANTS, variantOf } from "../consignments/variants";
import { escapeHtml } from "../../utils/html";

export interface WayBack {
  href: string;
  label: string;
}

export const BACK_TO_CONSIGNMENTS: WayBack = { href: "/consignments", label: "Back to consignments" };
export const BACK_TO_MANIFESTS: WayBack = { href: "/manifests", label: "Back to manifests" };

/** The way back from one consignment's document: its own screen (a return's, a quote's...); from several, the list. */
export async function backToConsignment(db: DbOrTx, user: CurrentUser, ids: number[]): Promise<WayBack> {
  if (ids.length !== 1) return BACK_TO_CONSIGNMENTS;
  const c = await getConsignment(db, user, ids[0]!);
  return { href: `${VARIANTS[variantOf(c)].path}/${c.id}`, label: "Back to the consignment" };
}

/** The consignment ids a document's address names (?ids=1,2), for its way back only. */
export const idsNamed = (request: Request): number[] =>
  (new URL(request.url).searchParams.get("ids") ?? "")
    .split(",")
    .map(Number)
    .filter((n) => Number.isSafeInteger(n) && n > 0);

/** A document navigation by a person's browser, not a script's call. */
export function openedByPerson(request: Request): boolean {
  const h = request.headers;
  if (h.get("authorization") || h.get("x-requested-with")) return false;
  if (h.get("sec-fetch-mode") === "navigate") return true;
  // a script's fetch says it is not after a document (sec-fetch-dest: empty) or asks for anything (*/*)
  const dest = h.get("sec-fetch-dest");
  if (dest && dest !== "document") return false;
  return (h.get("accept") ?? "").includes("text/html");
}

/**
 * Runs a print route's work for the signed-in user (session or Bearer token). Its errors stay
 * JSON for scripts; for a person they become a page (same status) with `back` as the way out.
 */
export async function printResponse(
  request: Request,
  context: AppLoadContext,
  work: (user: CurrentUser) => Promise<Response>,
  back: (user: CurrentUser) => WayBack | Promise<WayBack>,
): Promise<Response> {
  const signed: { user?: CurrentUser } = {};
  const res = await api(async () => {
    signed.user = (await requireApiUser(context, request)).user;
    return work(signed.user);
  });
  if (res.ok || !openedByPerson(request)) return res;
  const url = new URL(request.url);
  if (res.status === 401) {
    // a GET comes back to the document; a posted form to the screen it was posted from
    const wanted = request.method === "GET" ? url.pathname + url.search : "/consignments";
    return redirect(`/login?redirectTo=${encodeURIComponent(wanted)}`);
  }
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { errors?: Record<string, string[]>; password_reset_required?: boolean } | null;
  if (body?.password_reset_required) return redirect("/users/edit");
  const messages = [...new Set(Object.values(body?.errors ?? {}).flat())];
  const way = signed.user ? await Promise.resolve(back(signed.user)).catch(() => null) : null;
  const html = problemPage(messages.length ? messages : ["Something went wrong. Please try again or contact tech support."], way ?? BACK_TO_CONSIGNMENTS);
  return new Response(html, { status: res.status, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

/** A page of its own (no script, styles inline): it opens in a tab of its own, outside the app's layout. */
function problemPage(messages: string[], back: WayBack): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Cannot print · FreightDesk</title>
<style>
  body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #0f172a; margin: 0; }
  main { max-width: 36rem; margin: 0 auto; padding: 2rem; }
  h1 { font-size: 1.25rem; font-weight: 600; margin: 0 0 1rem; }
  .alert { border: 1px solid #fca5a5; background: #fef2f2; color: #7f1d1d; border-radius: 0.25rem; padding: 0.5rem 0.75rem; font-size: 0.875rem; }
  .alert p { margin: 0.25rem 0; }
  a.btn { display: inline-block; margin-top: 1rem; padding: 0.375rem 0.75rem; border: 1px solid #cbd5e1; border-radius: 0.25rem; color: #0f172a; text-decoration: none; }
  a.btn:focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }
</style>
</head>
<body>
<main>
<h1>Cannot print</h1>
<div role="alert" class="alert">${messages.map((m) => `<p>${escapeHtml(m)}</p>`).join("")}</div>
<a class="btn" href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a>
</main>
</body>
</html>
`;
}
