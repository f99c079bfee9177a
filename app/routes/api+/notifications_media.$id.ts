import type { LoaderFunctionArgs } from "@remix-run/node";
import { readMedia } from "~/modules/notifications/media.server";
import { api } from "~/utils/http.server";

/**
 * GET /api/notifications_media/{uuid}: an image of a notification template, to anyone with its
 * address (mail clients have no session), as uploaded, never sniffed as anything else (the server's
 * helmet sends X-Content-Type-Options: nosniff with every answer, and lets other sites' pages show
 * these: server/app.ts); cached for a year (an address never changes what it serves).
 */
export async function loader({ context, params }: LoaderFunctionArgs) {
  return api(async () => {
    const media = await readMedia(context.db, params.id);
    if (!media) return Response.json({ errors: { base: ["Image not found"] } }, { status: 404 });
    return new Response(media.bytes, {
      headers: {
        "Content-Type": media.contentType,
        "Content-Length": String(media.bytes.length),
        "Cache-Control": "public, max-age=31536000, immutable",
        "Content-Disposition": "inline",
      },
    });
  });
}
