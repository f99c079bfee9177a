import { AppError } from "../../utils/errors";
import { RendererUnavailable, type PaperSize, type Renderer } from "./renderer.server";

/**
 * A printed document in the format asked for: PDF by default (Chromium), ?format=html for a
 * preview that needs no browser, ?format=zpl where the document has a thermal form.
 */
export async function documentResponse(request: Request, renderer: Renderer, doc: { filename: string; html: () => string; zpl?: () => string; paper: PaperSize }): Promise<Response> {
  const format = new URL(request.url).searchParams.get("format") ?? "pdf";
  const headers = { "Cache-Control": "no-store" };
  if (format === "html") return new Response(doc.html(), { headers: { ...headers, "Content-Type": "text/html; charset=utf-8" } });
  if (format === "zpl") {
    if (!doc.zpl) throw new AppError("invalid", "This document has no ZPL form", { format: ["This document has no ZPL form"] });
    return new Response(doc.zpl(), { headers: { ...headers, "Content-Type": "application/zpl; charset=utf-8", "Content-Disposition": `inline; filename="${doc.filename}.zpl"` } });
  }
  if (format !== "pdf") throw new AppError("invalid", "format must be pdf, html or zpl", { format: ["format must be pdf, html or zpl"] });
  try {
    const pdf = await renderer.renderPdf(doc.html(), doc.paper);
    return new Response(new Uint8Array(pdf), { headers: { ...headers, "Content-Type": "application/pdf", "Content-Disposition": `inline; filename="${doc.filename}.pdf"` } });
  } catch (e) {
    if (e instanceof RendererUnavailable) return Response.json({ errors: { base: [e.message] } }, { status: 503 });
    throw e;
  }
}
