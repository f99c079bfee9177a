import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { publicPod } from "~/modules/tracking/public-link.server";
import { countTrackingGuess } from "~/modules/tracking/guesses.server";
import { AppError } from "~/utils/errors";

/** /track/{token}/pod: the proof of delivery the product drew, for whoever holds the link (SVG). */
export async function loader({ context, params, request }: LoaderFunctionArgs) {
  try {
    const svg = await publicPod(context.db, params.token);
    return new Response(svg, {
      headers: {
        "content-type": "image/svg+xml; charset=utf-8",
        // a link can be replaced: never kept by a shared cache
        "cache-control": "private, no-store",
        "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
        "x-content-type-options": "nosniff",
        "referrer-policy": "no-referrer",
        "x-robots-tag": "noindex",
      },
    });
  } catch (e) {
    if (e instanceof AppError && e.code === "not_found") {
      await countTrackingGuess(context.db, request);
      throw data({ message: e.message }, { status: 404 });
    }
    throw e;
  }
}
