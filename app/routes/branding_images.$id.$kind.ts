import type { LoaderFunctionArgs } from "@remix-run/node";
import { brandingImage } from "~/modules/branding/branding.server";
import { MAX_ID } from "~/utils/ids";

/**
 * GET /branding_images/{id}/{logo|bg}: a branding image, to anyone (the login page shows it before
 * sign-in), with the type it was checked as and never sniffed as another (the server's helmet sends
 * X-Content-Type-Options: nosniff with every answer: server/app.ts). An SVG gets a policy of its
 * own, added to the app's, that runs nothing and loads nothing, should it be opened as a page.
 */
export async function loader({ context, params }: LoaderFunctionArgs) {
  const id = Number(params.id);
  const kind = params.kind;
  const missing = () => new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  if (!/^\d+$/.test(params.id ?? "") || id < 1 || id > MAX_ID || (kind !== "logo" && kind !== "bg")) return missing();
  const image = await brandingImage(context.db, id, kind);
  if (!image) return missing();
  const headers: Record<string, string> = {
    "Content-Type": image.type,
    "Content-Length": String(image.bytes.length),
    // the address carries ?v={saved at}: a new save is a new address
    "Cache-Control": "public, max-age=86400",
    "Content-Disposition": "inline",
  };
  if (image.type === "image/svg+xml") headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; sandbox";
  return new Response(new Uint8Array(image.bytes), { headers });
}
