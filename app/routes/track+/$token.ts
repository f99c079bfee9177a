import type { AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { publicTracking } from "~/modules/tracking/public-link.server";
import { linkNotValidPage, publicTrackingPage } from "~/modules/tracking/public-page.server";
import { countTrackingGuess } from "~/modules/tracking/guesses.server";
import { AppError } from "~/utils/errors";
import type { CallRequest } from "~/utils/http.server";

const HEADERS = {
  "Content-Type": "text/html; charset=utf-8",
  // a link can be replaced: never kept by a shared cache
  "Cache-Control": "private, no-store",
  // the token must not travel to the pages it links to (the carrier's POD)
  "Referrer-Policy": "no-referrer",
  "X-Robots-Tag": "noindex",
};

/** /track/{token}: what a receiver sees without signing in (issue 14 item 5); a page of its own, no script. */
async function trackingPage(request: CallRequest, context: AppLoadContext, params: { token?: string }) {
  try {
    return new Response(publicTrackingPage(await publicTracking(context.db, params.token)), { headers: HEADERS });
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") {
      await countTrackingGuess(context.db, request);
      return new Response(linkNotValidPage(e.message), { status: 404, headers: HEADERS });
    }
    throw e;
  }
}

/** Answered below Remix by server/api-lane.ts (decision 046), with this same function. */
export const lane = { GET: trackingPage };

export function loader({ context, params, request }: LoaderFunctionArgs) {
  return trackingPage(request, context, params);
}
