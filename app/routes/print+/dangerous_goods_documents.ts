import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireApiUser } from "~/modules/auth/guard.server";
import { documentsOf } from "~/modules/printing/consignment-documents.server";
import { documentResponse } from "~/modules/printing/documents.server";
import { api, readQuery } from "~/utils/http.server";
import { A4, renderDangerousGoodsHtml } from "../../../print-templates/documents/Documents";

/** GET /print/dangerous_goods_documents?ids=1,2: a dangerous goods document for each that carries them, one PDF; ?format=html previews. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return api(async () => {
    const { user } = await requireApiUser(context, request);
    const docs = await documentsOf(context.db, user, readQuery(request), "dangerous_goods");
    return documentResponse(request, context.renderer, { filename: "dangerous-goods", html: () => renderDangerousGoodsHtml(docs), paper: A4 });
  });
}
